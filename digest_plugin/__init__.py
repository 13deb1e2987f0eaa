"""repo-digest: weekly digests of merged pull requests, as a Pelican plugin.

Add `PLUGINS = ["digest_plugin"]` to pelicanconf.py (or leave PLUGINS unset: Pelican finds the
namespace plugin `pelican.plugins.repo_digest`); the DIGEST_* settings are documented in
`digest_plugin.settings`. A site without any DIGEST_* setting is left alone.
"""


def register():
    from digest_plugin.publish.hooks import connect

    connect()
