"""repo-digest as a Pelican namespace plugin.

Installed (the distribution `pelican-repo-digest`), Pelican finds it by itself when PLUGINS is unset,
or name it: `PLUGINS = ["digest_plugin"]`. It publishes in a site with at least one DIGEST_* setting
and leaves any other site alone. The code lives in the `digest_plugin` package.
"""

from digest_plugin import register

__all__ = ["register"]
