"""repo-digest: weekly digests of merged pull requests, as a Pelican plugin."""
