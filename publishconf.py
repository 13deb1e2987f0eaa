"""Settings for deployment (`make publish`, the GitHub Pages workflow): absolute URLs everywhere.

SITEURL comes from the environment and is required: the Pages workflow sets it, and for any other
host `SITEURL=https://USER.github.io/SITE make publish`. It may end in a sub-path.
"""

import os
import sys

sys.path.insert(
    0, os.path.dirname(os.path.abspath(__file__))
)  # pelicanconf.py beside this file, from any folder
from pelicanconf import *  # noqa: F403

SITEURL = os.environ.get("SITEURL", "").strip().rstrip("/")
if not SITEURL.startswith(("https://", "http://")):
    raise SystemExit(
        "publishconf.py: set SITEURL to the address the site will be served from, "
        "for example SITEURL=https://USER.github.io/SITE make publish"
        + (f" (it is {SITEURL!r}, which is not a web address)." if SITEURL else ".")
    )
RELATIVE_URLS = False
FEED_DOMAIN = SITEURL  # feeds carry absolute links
DELETE_OUTPUT_DIRECTORY = True  # no stale files from an earlier build
