"""Local preview of a built site: a static file server bound to 127.0.0.1 only."""
from __future__ import annotations

import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

LOCALHOST = "127.0.0.1"


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript", ".pf_meta": "application/octet-stream"}

    def log_message(self, format, *args):  # noqa: A002 - signature fixed by the base class
        if getattr(self.server, "quiet", False):
            return
        super().log_message(format, *args)

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory) / "404.html"
        if code == 404 and page.is_file():
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        super().send_error(code, message, explain)


def make_server(folder: Path, port: int = 8000, quiet: bool = False) -> ThreadingHTTPServer:
    """A server for `folder` on 127.0.0.1:port (port 0 picks a free one); call serve_forever()."""
    handler = functools.partial(_Handler, directory=str(folder))
    server = ThreadingHTTPServer((LOCALHOST, port), handler)
    server.quiet = quiet
    return server
