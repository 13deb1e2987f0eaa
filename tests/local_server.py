"""What the local stand-ins for outside services share (tests/github_server/, tests/llm_server/): an
HTTP/1.1 server on 127.0.0.1 on a free port, serving from a thread while a test runs, stopped with
the test, and handlers that can drop a connection the way a network does."""

from __future__ import annotations

import socket
import struct
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class LocalServer:
    """Start with `with Server(...) as server:`; its handlers reach it as `self.server.owner`."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]):
        self._release = threading.Event()  # set on stop: wakes a handler that stalls on purpose
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._httpd.owner = self
        self._thread: threading.Thread | None = None

    def start(self):
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._release.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def stall(self, seconds: float) -> None:
        """Wait as a server that does not answer, until `seconds` pass or the server stops."""
        self._release.wait(seconds)


class LocalHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def drop_connection(self) -> None:
        """Close with a TCP RST (SO_LINGER 0), as a connection dropped by the network looks to the client."""
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
