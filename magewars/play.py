"""`magewars play BOOK_A BOOK_B --seed S`: one whole game between two spellbooks (registered in cli.py).

The books are shipped names (`magewars book list`) or files; the agents are named per player
(`--agents random,first`); the log and the result are printed as text, or as one JSON document
(`--json`), optionally as one player sees them (`--as P1`).  The same seed gives the same bytes.
"""
from __future__ import annotations

import json
import sys
from typing import Optional

import click

from .limits import MAX_CLI_NUMBER

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
MAX_ROUNDS = 200

#: agents by name: each gets the game seed plus its seat, so two random agents differ
AGENT_NAMES = ("random", "first")


def make_agent(name: str, seed: int):
    from .engine.decisions import FirstLegalAgent, RandomAgent
    if name == "random":
        return RandomAgent(seed)
    if name == "first":
        return FirstLegalAgent()
    raise click.UsageError(f"unknown agent {name!r}; agents: {', '.join(AGENT_NAMES)}")


def _fail(as_json: bool, msg: str, code: int = EXIT_FAIL, **extra):
    if as_json:
        click.echo(json.dumps({"error": msg, **extra}, indent=2, sort_keys=True))
    else:
        click.echo(f"magewars play: {msg}", err=True)
    sys.exit(code)


@click.command("play")
@click.argument("book_a")
@click.argument("book_b")
@click.option("--seed", type=click.IntRange(0, MAX_CLI_NUMBER), default=0, show_default=True,
              help="Seed of the dice and of the random agents.")
@click.option("--agents", default="random,random", show_default=True,
              help=f"One agent per player, comma-separated ({', '.join(AGENT_NAMES)}).")
@click.option("--json", "as_json", is_flag=True, help="One JSON document: result, events, final state.")
@click.option("--as", "viewer", default=None, help="Only what this player (P1, P2) may see.")
@click.option("--max-rounds", type=click.IntRange(1, MAX_ROUNDS), default=30, show_default=True,
              help="A game still going after this many rounds is a draw.")
def play(book_a, book_b, seed, agents, as_json, viewer, max_rounds):
    """Play one whole game between two spellbooks and print its log and result."""
    from .dsl import CorpusError, load_corpus
    from .engine.game import EngineError
    from .engine.match import start_game
    from .engine.views import UnknownViewer, check_viewer, document, render
    from .spellbook import SpellbookNotFound, load_spellbook, validate
    names = [a.strip().lower() for a in agents.split(",")]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2:
        _fail(as_json, f"--agents takes two names, got {agents!r}", EXIT_USAGE)
    for n in names:
        if n not in AGENT_NAMES:
            _fail(as_json, f"unknown agent {n!r}; agents: {', '.join(AGENT_NAMES)}", EXIT_USAGE)
    try:
        corpus = load_corpus()
    except CorpusError:
        _fail(as_json, "the shipped card corpus has errors; run `magewars lint`")
    books = []
    for what in (book_a, book_b):
        try:
            book = load_spellbook(what, corpus)
        except SpellbookNotFound as exc:
            _fail(as_json, str(exc), EXIT_USAGE)
        errors = [d for d in validate(book) if d.severity == "error"]
        if errors:
            _fail(as_json, f"spellbook {what} is not legal", EXIT_FAIL,
                  diagnostics=[d.format() for d in errors])
        books.append(book)
    game = start_game(corpus, books, seed, {f"P{i + 1}": make_agent(n, seed + i) for i, n in enumerate(names)})
    try:
        who = check_viewer(game, viewer)
    except UnknownViewer as exc:
        _fail(as_json, str(exc), EXIT_USAGE)
    try:
        result = game.play(max_rounds=max_rounds)
    except EngineError as exc:
        _fail(as_json, f"engine error: {exc}")
    if as_json:
        doc = {"result": result.to_dict(), **document(game, who)}
        click.echo(json.dumps(doc, indent=1, sort_keys=True))
    else:
        click.echo(render(game, who))
        click.echo("")
        click.echo(f"result: {'draw' if result.winner is None else result.winner + ' wins'} — {result.reason} "
                   f"(round {result.rounds}, seed {result.seed})")
    sys.exit(EXIT_OK)


def main(argv: Optional[list] = None):  # pragma: no cover - `python -m magewars.play`
    play(argv)
