"""Settings for building the site locally (`make html`); publishconf.py adds what deployment needs."""

import os

AUTHOR = "repo-digest"
SITENAME = "Repository digest"
SITESUBTITLE = "What merged this week, and why it matters"
SITEURL = ""
RELATIVE_URLS = True

PATH = "content"
THEME = "theme"
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
PLUGINS = ["digest_plugin"]

# The digest: see README.md ("Settings") for every DIGEST_* name and its default.
# Repositories ("owner/name" or "owner/*"): listed here, or in the DIGEST_REPOS environment variable
# (space-separated; the Pages workflow passes the repository variable of that name). Empty: every
# repository in the store.
DIGEST_REPOS = os.environ.get("DIGEST_REPOS", "").split()
DIGEST_DATA_PATH = "data"
DIGEST_TIMEZONE = "UTC"
DIGEST_LANGUAGE = "en"
DIGEST_FETCH = "auto"
DIGEST_SITEMAP = (
    True  # sitemap.xml of every page, in a build with an absolute SITEURL (make publish)
)
DIGEST_IN_BLOG = (
    True  # this site is the digest: the weeks are its blog (another site keeps them in a section)
)
# Who words the weeks: "builtin", "copilot" or "llm" (the DIGEST_WRITER environment variable; the Pages
# workflow passes the repository variable of that name). "llm" needs DIGEST_LLM here: docs/model-writer.md.
DIGEST_WRITER = os.environ.get("DIGEST_WRITER") or "builtin"

# URLs (DESIGN.md): a repository's page is Pelican's category page, at /{owner}/{name}/.
ARTICLE_URL = "posts/{slug}/"
ARTICLE_SAVE_AS = "posts/{slug}/index.html"
PAGE_URL = "pages/{slug}/"
PAGE_SAVE_AS = "pages/{slug}/index.html"
CATEGORY_URL = "{slug}/"
CATEGORY_SAVE_AS = "{slug}/index.html"
CATEGORIES_SAVE_AS = "repositories/index.html"
# Labels and modules such as "area/api" or "src/core" keep a readable slug: area-api, src-core.
TAG_REGEX_SUBSTITUTIONS = [
    (r"[/.]", "-"),
    (r"[^\w\s-]", ""),
    (r"(?u)\A[-\s]*", ""),
    (r"(?u)\s*\Z", ""),
    (r"[-\s]+", "-"),
]
TAG_URL = "labels/{slug}/"
TAG_SAVE_AS = "labels/{slug}/index.html"
TAGS_SAVE_AS = "labels/index.html"
ARCHIVES_SAVE_AS = "archives/index.html"
AUTHOR_SAVE_AS = ""
AUTHORS_SAVE_AS = ""
YEAR_ARCHIVE_SAVE_AS = ""
MONTH_ARCHIVE_SAVE_AS = ""

# Feeds: whole site and each repository (an entry is the week's report in brief), each label or
# module (an entry is that label's PRs of the week); Atom and RSS.
FEED_DOMAIN = SITEURL
FEED_ALL_ATOM = "feeds/all.atom.xml"
FEED_ALL_RSS = "feeds/all.rss.xml"
CATEGORY_FEED_ATOM = "feeds/{slug}.atom.xml"
CATEGORY_FEED_RSS = "feeds/{slug}.rss.xml"
TAG_FEED_ATOM = "feeds/labels/{slug}.atom.xml"
TAG_FEED_RSS = "feeds/labels/{slug}.rss.xml"
FEED_ATOM = None
FEED_RSS = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
RSS_FEED_SUMMARY_ONLY = False
FEED_MAX_ITEMS = 20  # 20 weeks is five months of news

DEFAULT_PAGINATION = 10
ARTICLE_ORDER_BY = "reversed-date"
NEWEST_FIRST_ARCHIVES = True

# Untrusted text from GitHub reaches the templates: escape everything by default.
JINJA_ENVIRONMENT = {"trim_blocks": True, "lstrip_blocks": True, "autoescape": True}

CACHE_PATH = "cache"
DELETE_OUTPUT_DIRECTORY = False
# A repository page lists all its weeks in one table; the index pages paginate, ten weeks a page.
# A label's or an author's page has a row per week (and the PRs of its newest weeks only): a
# hundred rows a page, so that on a site of many repositories and years a page stays small.
PAGINATED_TEMPLATES = {"index": None, "tag": 100, "digest_author": 100}
