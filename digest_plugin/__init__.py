"""repo-digest: weekly digests of merged pull requests, as a Pelican plugin.

Add `PLUGINS = ["digest_plugin"]` to pelicanconf.py; the DIGEST_* settings are documented in
`digest_plugin.settings`.
"""


def register():
    from digest_plugin.publish.hooks import connect

    connect()
