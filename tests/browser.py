"""A real headless Chromium on a built site served from 127.0.0.1, for the theme tests."""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve_in_browser(site: Path):
    """Yields (browser, base URL); skips when Chromium or Playwright is absent."""
    if not CHROMIUM:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium); .ci/run installs it")
    playwright = pytest.importorskip("playwright.sync_api")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            yield browser, f"http://127.0.0.1:{server.server_port}"
            browser.close()
    finally:
        server.shutdown()


def open_page(browser, url: str, width: int, published: tuple[str, Path] | None = None):
    """The page, plus the console errors and failed requests seen while it loaded.

    `published` = (SITEURL, output folder) serves a site built with absolute URLs from that folder.
    """
    page = browser.new_page(viewport={"width": width, "height": 900})
    if published:
        site_url, folder = published
        page.route(f"{site_url}/**", lambda route: route.fulfill(path=_local_file(folder, route.request.url[len(site_url):])))
    errors, failed = [], []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.on("response", lambda response: response.status >= 400 and failed.append(response.url))
    page.goto(url, wait_until="networkidle")
    return page, errors, failed


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def _local_file(folder: Path, path: str) -> Path:
    path = path.split("?")[0].lstrip("/")
    return folder / (path + "index.html" if path.endswith("/") or not path else path)
