"""repo-digest as a Pelican namespace plugin.

`pip install repo-digest` and Pelican finds it by itself (when PLUGINS is unset), or name it:
`PLUGINS = ["repo_digest"]`. The code lives in the `digest_plugin` package.
"""

from digest_plugin import register

__all__ = ["register"]
