"""The magewars language server: `magewars lsp` (LSP over stdio, built on pygls).

analysis.Knowledge holds what the server knows (checks, hover, completion, definitions,
symbols); server.build_server() maps it onto the protocol.
"""
from __future__ import annotations


def serve() -> None:
    from .server import serve as _serve
    _serve()


__all__ = ["serve"]
