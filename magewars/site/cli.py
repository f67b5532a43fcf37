"""`magewars site build` and `magewars site serve` (registered on the main command group)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import click

EXIT_USAGE = 2


@click.group()
def site():
    """The web codex: a static, searchable site of cards, terms, rules and rulings."""


@site.command("build")
@click.option("-o", "--output", "out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write the site into (replaced if it holds an earlier build).")
@click.option("--search/--no-search", default=True, show_default=True,
              help="Build the offline full-text search index (Pagefind).")
@click.option("--scenarios", "scenarios_dir", type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="Scenario folder whose files are listed on the cards they use "
                   "(default: tests/scenarios of a source checkout, if present).")
def build_cmd(out: Path, search: bool, scenarios_dir: Optional[Path]):
    """Write the static site into a folder (open it from any static host, or `magewars site serve`)."""
    from ..dsl import CorpusError, load_corpus
    from .build import SiteError, build_site

    try:
        corpus = load_corpus()
    except CorpusError as exc:
        click.echo("magewars: the shipped card corpus has errors; run `magewars lint`:", err=True)
        for d in exc.diags[:10]:
            click.echo(d.format(with_source=False), err=True)
        sys.exit(EXIT_USAGE)
    try:
        report = build_site(out, corpus, search=search, scenarios_dir=scenarios_dir)
    except SiteError as exc:
        click.echo(f"magewars: site build: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    for w in report.warnings:
        click.echo(w.format(with_source=False), err=True)
    c = report.counts
    search_note = (f"search index: {report.indexed} pages in {report.search_seconds:.1f}s"
                   if report.indexed is not None else "no search index (--no-search)")
    click.echo(f"{out}: {report.pages} pages ({c['cards']} cards, {c['terms']} codex terms, {c['rules']} rules, "
               f"{c['rulings']} rulings), {report.bytes / 1e6:.1f} MB in {report.seconds:.1f}s; {search_note}")


@site.command("serve")
@click.option("-d", "--dir", "folder", default=Path("site"), show_default=True,
              type=click.Path(file_okay=False, path_type=Path), help="A folder written by `magewars site build`.")
@click.option("-p", "--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port on 127.0.0.1 (0 picks a free one).")
def serve_cmd(folder: Path, port: int):
    """Preview a built site at http://127.0.0.1:PORT/ (local only; Ctrl-C stops)."""
    from .serve import LOCALHOST, make_server

    if not (folder / "index.html").is_file():
        click.echo(f"magewars: {folder}: no built site here; run `magewars site build -o {folder}` first", err=True)
        sys.exit(EXIT_USAGE)
    try:
        server = make_server(folder, port)
    except OSError as exc:
        click.echo(f"magewars: cannot listen on {LOCALHOST}:{port}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(f"serving {folder} at http://{LOCALHOST}:{server.server_address[1]}/ (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped")
    finally:
        server.server_close()
