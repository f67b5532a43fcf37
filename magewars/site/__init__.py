"""The web codex: a static, searchable site of every card, term, numbered rule and ruling.

    from magewars.site import build_site
    report = build_site(Path("site"), load_corpus())   # writes HTML, assets and a Pagefind index

`magewars site build -o DIR` and `magewars site serve` are the commands.
"""
from __future__ import annotations

__all__ = ["BuildReport", "SiteError", "build_site"]


def __getattr__(name: str):
    # the builder (Jinja2, the corpus) loads only when asked for, so `magewars --help` stays quick
    if name in __all__:
        from . import build
        return getattr(build, name)
    raise AttributeError(name)
