"""`magewars duel` and `magewars replay` (registered in magewars/cli.py)."""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import click

from ..limits import MAX_CLI_NUMBER

MAX_GAMES = 1_000_000
MAX_WORKERS = 256
MAX_ROUNDS = 1000
MAX_SEARCH = 10_000


def _die(message: str, code: int = 2, as_json: bool = False):
    if as_json:
        click.echo(json.dumps({"error": message, "exit": code}, indent=2))
    else:
        click.echo(f"magewars: {message}", err=True)
    sys.exit(code)


def _agents(value: str) -> tuple[str, str]:
    from .roster import agent_names
    names = [v.strip().lower() for v in value.split(",")]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2 or not all(names):
        raise click.BadParameter("give two agents, side A then side B: e.g. greedy,random")
    for n in names:
        if n not in agent_names():
            raise click.BadParameter(f"unknown agent {n!r}; agents: {', '.join(agent_names())}")
    return names[0], names[1]


@click.command()
@click.argument("book_a")
@click.argument("book_b")
@click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=20, show_default=True, help="Games to play.")
@click.option("--seed", type=click.IntRange(0, MAX_CLI_NUMBER), default=0, show_default=True,
              help="Seed of the run; game I's seed is derived from it and I.")
@click.option("--agents", "agents", default="random,random", show_default=True, metavar="A,B",
              help="Agents of side A and side B: random, greedy, search.")
@click.option("--workers", "-j", type=click.IntRange(1, MAX_WORKERS), default=1, show_default=True,
              help="Local processes playing games at once.")
@click.option("--cluster", metavar="ADDRESS", default=None,
              help='Run on a Ray cluster (ADDRESS, "auto", or "local" to start one here); needs the '
                   '"cluster" extra.')
@click.option("--max-rounds", type=click.IntRange(1, MAX_ROUNDS), default=None, metavar="N",
              help="Rounds before a game is a draw (default 40).")
@click.option("--search-iterations", type=click.IntRange(1, MAX_SEARCH), default=None, metavar="N",
              help="The search agent's budget: simulated games per decision.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write the results document (config, summary, every game) as JSON; - for stdout.")
@click.option("--csv", "csv_out", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write one row per game as CSV.")
@click.option("--chart", "chart_out", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write the win rate as games accumulate: FILE.png or a self-contained FILE.html.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def duel(book_a, book_b, games, seed, agents, workers, cluster, max_rounds, search_iterations, json_out, csv_out,
         chart_out, quiet):
    """Play GAMES duels between two spellbooks (shipped names or files) and report who wins.

    Sides alternate the first round's initiative; every game can be re-played alone from the
    results file (magewars replay).  The results are the same for any --workers or --cluster.
    """
    from ..console import echo_table, make_table
    from .runner import DEFAULT_MAX_ROUNDS, DuelConfig, DuelError, book, csv_rows, document, dumps
    from .stats import summarize

    as_json = json_out is not None and str(json_out) == "-"
    try:
        pair = _agents(agents)
    except click.BadParameter as e:
        _die(f"--agents: {e.message}", 2, as_json)
    if chart_out is not None and chart_out.suffix.lower() not in (".png", ".html", ".htm"):
        _die(f"--chart: {chart_out}: the chart is written as .png or .html", 2, as_json)
    opts = (("iterations", search_iterations),) if search_iterations else ()
    cfg = DuelConfig((book_a, book_b), pair, seed, max_rounds or DEFAULT_MAX_ROUNDS, opts)
    try:
        for b in cfg.books:
            book(b)
    except DuelError as e:
        _die(str(e), 2, as_json)
    if cluster:  # a missing extra is a setup problem (exit 2), found before any game is played
        from .cluster import ray_module
        try:
            ray_module()
        except DuelError as e:
            _die(str(e), 2, as_json)
    try:
        records = _run_with_progress(cfg, games, workers, cluster, quiet or as_json)
    except DuelError as e:
        _die(str(e), 1, as_json)
    doc = document(cfg, records)
    summary = summarize(records, cfg.books, cfg.agents)
    if json_out is not None:
        if as_json:
            click.echo(dumps(doc), nl=False)
        else:
            _write(json_out, dumps(doc))
    if csv_out is not None:
        rows = csv_rows(records)
        try:
            with open(csv_out, "w", newline="", encoding="utf-8") as f:
                w = csv.DictWriter(f, fieldnames=list(rows[0]))
                w.writeheader()
                w.writerows(rows)
        except OSError as e:
            _die(f"{csv_out}: cannot write: {e.strerror or e}", 2)
    if chart_out is not None:
        from .chart import write_chart
        try:
            write_chart(chart_out, records, summary, cfg)
        except OSError as e:
            _die(f"{chart_out}: cannot write: {e.strerror or e}", 2)
    if as_json:
        return
    t = make_table("side", "book", "agent", "wins", "win rate", "95% interval",
                   title=f"{summary.games} games, seed {seed}", right=("wins", "win rate", "95% interval"))
    for s in summary.sides:
        t.add_row(s.side, s.book, s.agent, str(s.wins), f"{100 * s.win_rate:.1f}%",
                  f"{100 * s.low:.1f}–{100 * s.high:.1f}%")
    echo_table(t)
    first = (f"first player won {summary.first_player_wins} of {summary.decided} decided games "
             f"({100 * summary.first_player_rate:.1f}%, 95% {100 * summary.first_low:.1f}–"
             f"{100 * summary.first_high:.1f}%)") if summary.decided else \
        "first player advantage: no game was decided"  # a rate of 0 of 0 games says nothing
    click.echo(f"draws: {summary.draws}   mean rounds: {summary.mean_rounds:.1f}   {first}")
    click.echo("endings: " + ", ".join(f"{k} {v}" for k, v in summary.reasons.items()))


def _write(path: Path, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        _die(f"{path}: cannot write: {e.strerror or e}", 2)


def _run_with_progress(cfg, games, workers, cluster, quiet):
    from .backend import run
    if quiet:
        return run(cfg, games, workers, cluster)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
        TimeRemainingColumn
    from ..console import console
    with Progress(TextColumn("duels"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("ETA"), TimeRemainingColumn(), console=console(stderr=True), transient=True) as bar:
        task = bar.add_task("duels", total=games)
        return run(cfg, games, workers, cluster, progress=lambda k: bar.advance(task, k))


@click.command()
@click.argument("result", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--game", "index", type=click.IntRange(0, MAX_GAMES), required=True, metavar="I",
              help="Which game of the results file (its index, from 0).")
@click.option("--as", "viewer", metavar="PLAYER", help="Show only what this player could see (a player "
                                                        "name, or side A / B).")
@click.option("--json", "as_json", is_flag=True, help="Print the events, attacks and final state as JSON.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, path_type=Path), metavar="OUT.html",
              help="Write a self-contained page: the board at every step, a step slider, the log in sync.")
def replay(result, index, viewer, as_json, html_out):
    """Re-play one game of a duel results file from its recorded seed and print its log."""
    from .replay import ReplayError, replay_game
    try:
        out = replay_game(result, index, viewer, frames=html_out is not None)
    except ReplayError as e:
        _die(str(e), 2, as_json)
    if html_out is not None:
        from .replay_page import render_replay_html
        title = out.text.splitlines()[0]
        _write(html_out, render_replay_html(out, out.recorder, title))
        click.echo(f"wrote {html_out}: {len(out.recorder.frames)} steps, {len(out.recorder.events)} events", err=True)
        return
    if as_json:
        click.echo(json.dumps(out.document, indent=2, ensure_ascii=False))
    else:
        click.echo(out.text)
