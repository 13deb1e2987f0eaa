"""A real headless Chromium on a built site served from 127.0.0.1, and the checkers the theme tests
use on it: axe-core (injected into the page) and the Nu HTML Checker (vnu.jar, run with Java).

`.ci/run` installs all of them (Chromium from Debian, axe-core and vnu-jar from npm into
`.ci/node/`); where one is absent locally, the tests that need it skip and say how to install it.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NODE_TOOLS = ROOT / ".ci" / "node" / "node_modules"
AXE = NODE_TOOLS / "axe-core" / "axe.min.js"
VNU = NODE_TOOLS / "vnu-jar" / "build" / "dist" / "vnu.jar"
INSTALL_NODE_TOOLS = "run `npm ci --prefix .ci/node` (.ci/run does)"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def build_sample(folder: Path, *overrides: str, search: bool = True) -> Path:
    """The bundled sample as `make html` builds it: Pelican from the checkout (sharing its chart
    cache), then Pagefind's index. `overrides` are Pelican `-e NAME=JSON` settings."""
    output = folder / "output"
    pelican = Path(sys.executable).with_name("pelican")
    extra = [arg for setting in overrides for arg in ("-e", setting)]
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(folder)}
    result = subprocess.run(
        [str(pelican), "content", "-o", str(output), "-s", "pelicanconf.py", *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=environment,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    if search:  # the Makefile's SEARCH_INDEX
        result = subprocess.run(
            [sys.executable, "-m", "pagefind", "--quiet", "--site", str(output)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=environment,
        )
        assert result.returncode == 0, result.stdout + result.stderr
    return output


def shared_sample(tmp_path_factory, name: str, *overrides: str) -> Path:
    """`build_sample` once per test run, however many pytest-xdist workers ask for it."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the folder all workers' temporary folders are in
    folder = shared / f"sample-{name}"
    folder.mkdir(exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".built").exists():
            shutil.rmtree(folder / "output", ignore_errors=True)
            build_sample(folder, *overrides)
            (folder / ".built").touch()
    return folder / "output"


@contextlib.contextmanager
def serve_in_browser(site: Path):
    """Yields (browser, base URL); skips when Chromium or Playwright is absent."""
    with chromium() as browser, serve_folder(site) as base:
        yield browser, base


@contextlib.contextmanager
def chromium():
    """Headless Chromium through Playwright; skips when either is absent."""
    if not CHROMIUM:
        pytest.skip(
            "Chromium is not installed (Debian: apt-get install chromium); .ci/run installs it"
        )
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@contextlib.contextmanager
def serve_folder(site: Path):
    """Serves `site` on 127.0.0.1 (a free port); yields its base URL."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def open_page(
    browser,
    url: str,
    width: int,
    published: tuple[str, Path] | None = None,
    scheme: str = "light",
    bypass_csp: bool = False,
):
    """The page, plus the console errors and failed requests seen while it loaded.

    `published` = (SITEURL, output folder) serves a site built with absolute URLs from that folder.
    `bypass_csp` lets a test inject a checker's script; without it a CSP violation is a console error.
    """
    page = browser.new_page(
        viewport={"width": width, "height": 900}, color_scheme=scheme, bypass_csp=bypass_csp
    )
    if published:
        site_url, folder = published
        page.route(
            f"{site_url}/**",
            lambda route: route.fulfill(
                path=_local_file(folder, route.request.url[len(site_url) :])
            ),
        )
    errors, failed = [], []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.on("response", lambda response: response.status >= 400 and failed.append(response.url))
    page.goto(url, wait_until="networkidle")
    return page, errors, failed


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def axe_findings(page, within: str | None = None) -> list[dict]:
    """axe-core's violations on the open page (opened with `bypass_csp=True`), or on the element
    `within` selects and what it holds, each with its nodes."""
    if not AXE.exists():
        pytest.skip(f"axe-core is not installed at {AXE}: {INSTALL_NODE_TOOLS}")
    page.add_script_tag(path=str(AXE))
    context = f"document.querySelector({json.dumps(within)})" if within else "document"
    result = page.evaluate(f"axe.run({context}, {{resultTypes: ['violations']}})")
    return result["violations"]


def vnu_errors(files: list[Path]) -> list[str]:
    """The Nu HTML Checker's errors on `files`, as "file:line: message"."""
    java = shutil.which("java")
    if not java:
        pytest.skip(
            "Java is not installed (Debian: apt-get install default-jre-headless); .ci/run installs it"
        )
    if not VNU.exists():
        pytest.skip(f"vnu-jar is not installed at {VNU}: {INSTALL_NODE_TOOLS}")
    result = subprocess.run(
        [java, "-jar", str(VNU), "--errors-only", "--format", "json", *map(str, files)],
        capture_output=True,
        text=True,
    )
    messages = json.loads(result.stderr or result.stdout or '{"messages": []}')["messages"]
    return [
        f"{m.get('url', '').rsplit('/output/', 1)[-1]}:{m.get('lastLine', '?')}: {m['message']}"
        for m in messages
        if m.get("type") == "error" or m.get("subType") == "fatal"
    ]


def _local_file(folder: Path, path: str) -> Path:
    path = path.split("?")[0].lstrip("/")
    return folder / (path + "index.html" if path.endswith("/") or not path else path)
