"""The `magewars` command line.

Every command turns bad input into a located diagnostic or a clear message
and an exit status; none lets a Python traceback reach the user.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import click

from . import __version__
from .bounds import MAX_ATTACHED, MAX_ATTACKS, MAX_DEFENDER_DAMAGE, click_range, click_text
from .limits import MAX_CLI_NUMBER  # noqa: F401  (every CLI number is capped)

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class Group(click.Group):
    """Click group that converts unexpected exceptions into a short error (exit 2), and loads the
    commands of LAZY_COMMANDS when they are asked for."""

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def get_command(self, ctx, name):
        cmd = super().get_command(ctx, name)
        if cmd is None and name in LAZY_COMMANDS:
            import importlib
            module, attr = LAZY_COMMANDS[name].split(":")
            cmd = getattr(importlib.import_module(module), attr)
            self.add_command(cmd, name)
        return cmd

    def main(self, args=None, *rest, **kwargs):
        self.argv = list(args) if args is not None else sys.argv[1:]  # (for _json_usage_error)
        return super().main(args, *rest, **kwargs)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            _json_usage_error(exc, getattr(self, "argv", None) or [])  # (exits when JSON was asked for)
            raise
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except Exception as exc:  # last line of defence: never show a traceback
            click.echo(f"magewars: internal error: {exc.__class__.__name__}: {exc}", err=True)
            click.echo("please report this with the command you ran", err=True)
            sys.exit(EXIT_USAGE)


def _read_stdin() -> bytes:
    """Standard input's bytes, never more than one past the card-file limit (lint decodes and
    bounds them as it does a file's)."""
    from .limits import MAX_SOURCE_BYTES
    return sys.stdin.buffer.read(MAX_SOURCE_BYTES + 1)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="magewars")
def main():
    """magewars: the Mage Wars Arena rules language and reference interpreter.

    Every command that prints data takes --json (errors too, as JSON).  Shell completion of
    commands, options, rules terms and card names: eval "$(magewars completion bash)".
    """
    from .console import make_safe
    make_safe(sys.stdout)  # never die on a console that cannot show a character (cp1252)
    make_safe(sys.stderr)


# ---------------------------------------------------------------- lint
@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text",
              show_default=True, help="Output format.")
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--no-source", is_flag=True, help="Text format: do not echo the source line and caret.")
@click.option("--warnings/--no-warnings", default=False, show_default=True,
              help="Also report clauses marked unsupported (W601).")
def lint(paths, fmt, as_json, no_source, warnings):
    """Check card, trait and condition files (default: the shipped codex and spells).

    `-` reads a file from standard input (reported as `-:line:col`).
    Exit status: 0 clean, 1 findings, 2 usage or I/O error.
    """
    from .lint import collect_warnings, given_paths, lint_inputs, to_sarif

    if as_json:
        fmt = "json"
    corpus, diags = lint_inputs(paths, _read_stdin)
    if warnings:
        diags = diags + collect_warnings(corpus, given_paths(paths))
    io_errors = [d for d in diags if d.code == "E004"]
    if fmt == "json":
        click.echo(json.dumps({"diagnostics": [d.to_json() for d in diags],
                               "summary": {"cards": len(corpus.cards), "codex": len(corpus.codex),
                                           "errors": sum(d.severity == "error" for d in diags),
                                           "warnings": sum(d.severity == "warning" for d in diags)}},
                              indent=2))
    elif fmt == "sarif":
        click.echo(json.dumps(to_sarif(diags), indent=2))
    else:
        for d in diags:
            click.echo(d.format(with_source=not no_source))
        errors = sum(d.severity == "error" for d in diags)
        warns = len(diags) - errors
        click.echo(f"{len(corpus.cards)} cards, {len(corpus.codex)} codex entries: "
                   f"{errors} error(s), {warns} warning(s)", err=True)
    if io_errors and len(io_errors) == len([d for d in diags if d.severity == "error"]):
        sys.exit(EXIT_USAGE)
    sys.exit(EXIT_FINDINGS if any(d.severity == "error" for d in diags) else EXIT_OK)


def _json_usage_error(exc: click.UsageError, argv: list) -> None:
    """A usage error (a bad option value, a missing argument, an unknown option) of a command run
    with its --json: reported as that command's other errors are, JSON on stdout, with the usage
    line, and exit 2.  JSON is asked for by `--json` where it is a flag, and by `--json -` (or
    `--json=-`) where it names the file to write (duel); any other run gets click's text on stderr."""
    cmd = exc.ctx.command if exc.ctx is not None else None
    opt = next((p for p in getattr(cmd, "params", ()) if isinstance(p, click.Option) and "--json" in p.opts), None)
    if opt is None:
        return
    words = argv[:argv.index("--")] if "--" in argv else argv
    if opt.is_flag:
        asked = "--json" in words
    else:
        asked = "--json=-" in words or any(w == "--json" and words[i + 1:i + 2] == ["-"] for i, w in enumerate(words))
    if not asked:
        return
    doc = {"error": exc.format_message(), "exit": exc.exit_code}
    if exc.ctx is not None:
        doc["usage"] = exc.ctx.get_usage()
    click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
    sys.exit(exc.exit_code)


def _fail(as_json: bool, message: str, code: int):
    """Report an error as text on stderr, or as JSON on stdout with --json; exit with code."""
    if as_json:
        click.echo(json.dumps({"error": message, "exit": code}, indent=2, ensure_ascii=False))
    else:
        click.echo(f"magewars: {message}", err=True)
    sys.exit(code)


# ---------------------------------------------------------------- corpus views
def _corpus_or_exit():
    from .dsl import CorpusError, load_corpus
    try:
        return load_corpus()
    except CorpusError as exc:
        click.echo("magewars: the shipped card corpus has errors; run `magewars lint`:", err=True)
        for d in exc.diags[:10]:
            click.echo(d.format(with_source=False), err=True)
        sys.exit(EXIT_USAGE)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--by", type=click.Choice(["set", "type", "both"]), default="both", show_default=True)
@click.option("--silent", is_flag=True, help="List the constructs the engine drops silently (allow-list format).")
def coverage(as_json, by, silent):
    """How much of the card pool the language states and the engine runs: parsed, checked, fully
    expressed, executes."""
    from .coverage import compute_coverage, render_coverage, render_silent
    if silent:
        click.echo(render_silent(_corpus_or_exit()))
        return
    report = compute_coverage(_corpus_or_exit())
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo(render_coverage(report, by))


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Export as JSON (the only format; accepted for uniformity).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file.")
def export(as_json, output):
    """Export the compiled corpus as data (schema: docs/export.md)."""
    from .export import export_corpus
    data = export_corpus(_corpus_or_exit())
    text = json.dumps(data, indent=2, ensure_ascii=False)
    if output:
        try:
            output.write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            raise click.ClickException(f"cannot write {output}: {exc}")
    else:
        click.echo(text)


@main.command()
@click.argument("name", nargs=-1, required=True, shell_complete=lambda c, p, i: _complete_cards(i),
                callback=click_text())
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--from", "sources", multiple=True, type=click.Path(path_type=Path),
              help="Read cards from these .mw files or folders instead of the shipped corpus.")
@click.option("--compare", is_flag=True, help="Show the published text beside the generated text (read at run time).")
@click.option("--shared", "shared", type=click.Path(path_type=Path), default=None,
              help="Reference folder holding cards/cards.json (default: $MAGEWARS_SHARED or ../shared).")
def card(name, as_json, sources, compare, shared):
    """Show a card (fuzzy name match), as text generated from its definition."""
    from .render import find_cards, render_card, card_to_json
    if sources:
        from .dsl import compile_paths
        corpus, diags = compile_paths(sources)
        errors = [d for d in diags if d.severity == "error"]
        if errors:
            for d in errors:
                click.echo(d.format(), err=True)
            click.echo("fix these first (`magewars lint`)", err=True)
            sys.exit(EXIT_FINDINGS)
    else:
        corpus = _corpus_or_exit()
    query = " ".join(name)
    hits = find_cards(corpus, query)
    if not hits:
        _fail(as_json, f"no card matches '{query}'", EXIT_FINDINGS)
    if len(hits) > 1 and hits[0].lower() != query.lower():
        if as_json:
            click.echo(json.dumps({"error": f"'{query}' matches several cards", "exit": EXIT_FINDINGS,
                                   "candidates": hits[:10]}, indent=2, ensure_ascii=False))
            sys.exit(EXIT_FINDINGS)
        click.echo(f"'{query}' matches several cards:", err=True)
        for h in hits[:10]:
            click.echo(f"  {h}", err=True)
        sys.exit(EXIT_FINDINGS)
    c = corpus.cards[hits[0]]
    from .pages import card_notes, notes_text
    notes = card_notes(c.name)
    if compare:
        from .compare import CompareError, find_shared, published_texts, render_compare
        folder = find_shared(shared)
        if folder is None:
            click.echo("no reference folder found: pass --shared PATH or set MAGEWARS_SHARED", err=True)
            sys.exit(2)
        try:
            pub = published_texts(folder, c.name)
        except CompareError as e:
            click.echo(str(e), err=True)
            sys.exit(2)
        click.echo(render_compare(c.name, render_card(c, corpus), pub))
    elif as_json:
        rec = card_to_json(c)
        rec.update(notes)
        click.echo(json.dumps(rec, indent=2, ensure_ascii=False))
    else:
        click.echo(render_card(c, corpus) + notes_text(notes))


# ---------------------------------------------------------------- lookup and rules
def _complete_cards(incomplete):
    """Card names for shell completion: prefix matches first, then names containing the text."""
    from click.shell_completion import CompletionItem
    try:
        from .dsl import load_corpus
        low = incomplete.lower()
        names = list(load_corpus().cards)
    except Exception:  # completion must never break the shell
        return []
    first = sorted(n for n in names if n.lower().startswith(low))
    more = sorted(n for n in names if low in n.lower() and n not in first)
    return [CompletionItem(n) for n in (first + more)[:200]]


def _complete_terms(ctx, param, incomplete):
    from click.shell_completion import CompletionItem
    try:
        from .lookup import complete
        from .dsl import load_corpus
        names = list(complete(incomplete))
        low = incomplete.lower()
        names += [n for n in load_corpus().cards if n.lower().startswith(low)]
    except Exception:  # completion must never break the shell
        return []
    return [CompletionItem(n) for n in sorted(set(names))[:200]]


@main.command()
@click.argument("query", nargs=-1, required=False, shell_complete=_complete_terms, callback=click_text())
@click.option("--search", "search", metavar="TEXT", callback=click_text(),
              help="Find TEXT inside entries, rulings and card text.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def lookup(query, search, as_json):
    """Look up a rules term, a rule number (6.2), a card, or ask a question in plain words
    ("guard vs flying", "what is aegis", "can a guarding creature fly").

    Shows the rule number, summary, rules, clarifications and errata; a question also shows the
    rulings that mention its terms together.  An ambiguous query lists the candidates; no match
    exits 1.  Shell completion: see `magewars completion --help`.
    """
    from .console import echo_page
    from .pages import lookup_page, search_page
    if search is not None and query:
        search = " ".join((search, *query))
    if search is None and not query:
        _fail(as_json, "give a term, a rule number, a card, a question, or --search TEXT", EXIT_USAGE)
    if search is not None:
        text, data, code = search_page(search, _corpus_or_exit())
    else:
        text, data, code = lookup_page(" ".join(query), _corpus_or_exit())
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        echo_page(text, err=(code != 0), emphasise=(search or "").split())
    sys.exit(code)


@main.command()
@click.argument("section", required=False, callback=click_text())
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def rules(section, as_json):
    """Print the numbered rules document, or one section of it (e.g. `magewars rules 5.2`)."""
    from .console import echo_page
    from .lookup import load_rules, render_rules
    try:
        text = render_rules(section)
    except KeyError:
        _fail(as_json, f"no rules section '{section}'; `magewars rules` lists them all", EXIT_FINDINGS)
    if as_json:
        from .lookup import to_json
        book = load_rules()
        key = (section or "").strip().rstrip(".")
        chosen = [s for s in book.sections if not key or s.number == key or s.number.startswith(key + ".")]
        click.echo(json.dumps({"sections": [to_json(s) for s in chosen]}, indent=2, ensure_ascii=False))
    else:
        echo_page(text)


@main.command()
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion(shell):
    """Print the shell-completion script (e.g. `eval "$(magewars completion bash)"`)."""
    from click.shell_completion import get_completion_class
    cls = get_completion_class(shell)
    comp = cls(main, {}, "magewars", "_MAGEWARS_COMPLETE")
    click.echo(comp.source())


# ---------------------------------------------------------------- odds
@main.command()
@click.argument("attacker", shell_complete=_complete_terms, callback=click_text())
@click.argument("defender", shell_complete=_complete_terms, callback=click_text())
@click.option("--attack", "attack", metavar="NAME", callback=click_text(), help="Which of the attacker's attacks (default: its first).")
@click.option("--with", "attacker_with", multiple=True, metavar="CARD", callback=click_text(count=MAX_ATTACHED),
              help="Attach an enchantment or equipment to the attacker (or the caster); repeatable.")
@click.option("--defender-with", "defender_with", multiple=True, metavar="CARD", callback=click_text(count=MAX_ATTACHED),
              help="Attach an enchantment or equipment to the defender; repeatable.")
@click.option("--defender-hidden", "defender_hidden", multiple=True, metavar="CARD", callback=click_text(count=MAX_ATTACHED),
              help="Attach an enchantment to the defender face down, revealed when its reveal rule allows.")
@click.option("--defender-damage", type=int, default=0, show_default=True, metavar="N",
              callback=click_range(0, MAX_DEFENDER_DAMAGE),
              help="Damage already on the defender.")
@click.option("--caster", default=None, metavar="MAGE", callback=click_text(),
              help="The mage who casts an attack spell or bears a weapon "
                   "(default: the first mage trained in the spell's school).")
@click.option("--charge", is_flag=True, help="The attacker charged (Charge +X applies).")
@click.option("--max-attacks", type=int, default=10, show_default=True, metavar="N",
              callback=click_range(1, MAX_ATTACKS),
              help=f"Cap for the attacks-needed distribution (1-{MAX_ATTACKS}).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def odds(attacker, defender, attack, attacker_with, defender_with, defender_hidden, defender_damage, caster,
         charge, max_attacks, as_json):
    """Exact odds of ATTACKER's attack on DEFENDER, computed by the rules engine (docs/odds.md).

    ATTACKER is a creature, a mage, an attack spell or a weapon.  Unknown names exit 1.
    """
    from .odds import OddsError, odds as compute_odds, render_json, render_text
    try:
        report = compute_odds(_corpus_or_exit(), attacker, defender, cap=max_attacks, attack=attack,
                              attacker_with=attacker_with, defender_with=defender_with,
                              defender_hidden=defender_hidden, defender_damage=defender_damage, caster=caster,
                              charge=charge)
    except OddsError as exc:
        if as_json:
            _fail(True, str(exc), exc.code)
        click.echo(f"magewars odds: {exc}", err=True)
        sys.exit(exc.code)
    if as_json:
        click.echo(json.dumps(render_json(report), indent=2, ensure_ascii=False))
    else:
        click.echo(render_text(report))


# ---------------------------------------------------------------- language server
@main.command()
def lsp():
    """Run the language server over stdio (diagnostics, hover, completion, definitions; editors/README.md)."""
    from .lsp import serve
    serve()


# ---------------------------------------------------------------- simulate
@main.group()
def simulate():
    """Run scenarios on the rules engine."""


@simulate.command("scenario")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the structured event log and final state.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a self-contained page of the final board and the event log (magewars/site/); "
                   "one scenario file only.")
@click.option("--cards-root", "cards_roots", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="Also allow the scenarios' `cards:` from this folder (default: only each one's own folder).")
@click.option("--as", "viewer", metavar="PLAYER", help="Show only what this player may see.")
@click.option("--seed", type=click.IntRange(0, MAX_CLI_NUMBER), default=None, metavar="S",
              help="Seed for the dice a scenario does not script (overrides its own `seed`).")
def simulate_scenario(files, as_json, html_out, cards_roots, viewer, seed):
    """Run YAML scenarios (files or folders) and print their step-by-step logs (docs/scenarios.md).

    With several scenarios, a summary table follows; the exit status is the worst one.
    """
    if html_out is not None:
        if len(files) != 1 or Path(files[0]).is_dir():
            raise click.UsageError("--html writes the page of one scenario file")
        from .site.scenario_page import write_cli
        sys.exit(write_cli(str(files[0]), html_out, cards_roots=tuple(cards_roots), seed=seed))
    from .batch import run_many
    sys.exit(run_many(files, as_json, click.echo, cards_roots=tuple(cards_roots), viewer=viewer, seed=seed))


# ---------------------------------------------------------------- commands in their own modules
# Registered by name and imported only when used (or listed by --help), so that a read command does
# not pay for importing every other command: `name: "module:attribute"`.
LAZY_COMMANDS = {
    "book": "magewars.spellbook.cli:book",  # magewars/spellbook/cli.py
    "site": "magewars.site.cli:site",  # the web codex (magewars/site/)
    "play": "magewars.play:play",  # one whole game (magewars/play.py)
    "duel": "magewars.duel.cli:duel",  # duels (magewars/duel/)
    "replay": "magewars.duel.cli:replay",
    "rulings": "magewars.rulings:rulings_cmd",  # magewars/rulings.py
}


if __name__ == "__main__":  # pragma: no cover
    main()
