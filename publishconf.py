"""Settings for deployment (`make publish`, the GitHub Pages workflow): absolute URLs everywhere."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # pelicanconf.py beside this file, from any folder
from pelicanconf import *  # noqa: F403

# The Pages workflow sets SITEURL (e.g. https://USER.github.io/SITE); set it here for other hosts.
SITEURL = os.environ.get("SITEURL", "https://example.github.io/repo-digest")
RELATIVE_URLS = False
FEED_DOMAIN = SITEURL
DELETE_OUTPUT_DIRECTORY = True
