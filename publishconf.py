"""Settings for deployment (`make publish`, the GitHub Pages workflow): absolute URLs everywhere."""

import os
import sys

sys.path.append(os.curdir)
from pelicanconf import *  # noqa: E402,F403

# The Pages workflow sets SITEURL (e.g. https://USER.github.io/SITE); set it here for other hosts.
SITEURL = os.environ.get("SITEURL", "https://example.github.io/repo-digest")
RELATIVE_URLS = False
FEED_DOMAIN = SITEURL
DELETE_OUTPUT_DIRECTORY = True
