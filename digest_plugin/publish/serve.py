"""`make serve` (and `make devserver`'s server): Pelican's development server, which answers a
missing address with no reply at all, serving the site's 404 page instead, as GitHub Pages does.

    python -m digest_plugin.publish.serve OUTPUT [--bind HOST] [--port PORT]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pelican.server import ComplexHTTPRequestHandler, RootedHTTPServer

NOT_FOUND_PAGE = "404.html"
BARE_NOT_FOUND = b"<!DOCTYPE html><title>Not found</title><p>Not found.</p>"  # a site without one


class SiteRequestHandler(ComplexHTTPRequestHandler):
    """Pelican's handler, with a 404 status and the site's 404 page for an address that has no file."""

    def get_path_that_exists(self, original_path):
        found = super().get_path_that_exists(original_path)
        if found is None:
            self._not_found()
        return found

    def _not_found(self) -> None:
        page = Path(self.base_path) / NOT_FOUND_PAGE
        body = page.read_bytes() if page.is_file() else BARE_NOT_FOUND
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def listen(bind: str, port: int, output: str) -> None:
    """Serve `output` at http://BIND:PORT until interrupted."""
    RootedHTTPServer.allow_reuse_address = True
    httpd = RootedHTTPServer(output, (bind, port), SiteRequestHandler)
    print(f"Serving site at: http://{bind}:{port} - Tap CTRL-C to stop", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m digest_plugin.publish.serve", description=__doc__.splitlines()[0]
    )
    parser.add_argument("output", help="the built site's folder")
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    if not Path(args.output, "index.html").is_file():
        print(
            f"make serve: {args.output}/ holds no built site; run `make html` first.",
            file=sys.stderr,
        )
        return 1
    listen(args.bind, args.port, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
