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
from .limits import MAX_CLI_NUMBER

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class Group(click.Group):
    """Click group that converts unexpected exceptions into a short error (exit 2)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except Exception as exc:  # last line of defence: never show a traceback
            click.echo(f"magewars: internal error: {exc.__class__.__name__}: {exc}", err=True)
            click.echo("please report this with the command you ran", err=True)
            sys.exit(EXIT_USAGE)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="magewars")
def main():
    """magewars: the Mage Wars Arena rules language and reference interpreter."""


# ---------------------------------------------------------------- lint
@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text",
              show_default=True, help="Output format.")
@click.option("--no-source", is_flag=True, help="Text format: do not echo the source line and caret.")
@click.option("--warnings/--no-warnings", default=False, show_default=True,
              help="Also report clauses marked unsupported (W601).")
def lint(paths, fmt, no_source, warnings):
    """Check card, trait and condition files (default: the shipped codex and spells).

    Exit status: 0 clean, 1 findings, 2 usage or I/O error.
    """
    from .dsl import compile_paths
    from .lint import collect_warnings, to_sarif
    from .resources import shipped_sources

    if paths:
        corpus, diags = compile_paths(paths)
    else:
        corpus, diags = compile_paths(shipped_sources(), with_codex=False)
    if warnings:
        diags = diags + collect_warnings(corpus)
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
def coverage(as_json, by):
    """How much of the card pool the language states: parsed, checked, fully expressed."""
    from .coverage import compute_coverage, render_coverage
    report = compute_coverage(_corpus_or_exit())
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo(render_coverage(report, by))


@main.command()
@click.option("--json", "as_json", is_flag=True, required=True, help="Export as JSON (the only format).")
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
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--from", "sources", multiple=True, type=click.Path(path_type=Path),
              help="Read cards from these .mw files or folders instead of the shipped corpus.")
def card(name, as_json, sources):
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
        click.echo(f"no card matches '{query}'", err=True)
        sys.exit(EXIT_FINDINGS)
    if len(hits) > 1 and hits[0].lower() != query.lower():
        click.echo(f"'{query}' matches several cards:", err=True)
        for h in hits[:10]:
            click.echo(f"  {h}", err=True)
        sys.exit(EXIT_FINDINGS)
    c = corpus.cards[hits[0]]
    from .pages import card_notes, notes_text
    notes = card_notes(c.name)
    if as_json:
        rec = card_to_json(c)
        rec.update(notes)
        click.echo(json.dumps(rec, indent=2, ensure_ascii=False))
    else:
        click.echo(render_card(c, corpus) + notes_text(notes))


# ---------------------------------------------------------------- lookup and rules
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
@click.argument("query", nargs=-1, required=True, shell_complete=_complete_terms)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def lookup(query, as_json):
    """Look up a rules term, a rule number (6.2) or a card, with clarifications and errata.

    Exact, alias and fuzzy matches; an ambiguous query lists the candidates;
    no match exits 1.  Shell completion: see `magewars completion --help`.
    """
    from .pages import lookup_page
    text, data, code = lookup_page(" ".join(query), _corpus_or_exit())
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(text, err=(code != 0))
    sys.exit(code)


@main.command()
@click.argument("section", required=False)
def rules(section):
    """Print the numbered rules document, or one section of it (e.g. `magewars rules 5.2`)."""
    from .lookup import render_rules
    try:
        click.echo(render_rules(section))
    except KeyError:
        click.echo(f"no rules section '{section}'; `magewars rules` lists them all", err=True)
        sys.exit(EXIT_FINDINGS)


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
@click.argument("attacker", shell_complete=_complete_terms)
@click.argument("defender", shell_complete=_complete_terms)
@click.option("--attack", "attack", metavar="NAME", help="Which of the attacker's attacks (default: its first).")
@click.option("--with", "attacker_with", multiple=True, metavar="CARD",
              help="Attach an enchantment or equipment to the attacker (or the caster); repeatable.")
@click.option("--defender-with", "defender_with", multiple=True, metavar="CARD",
              help="Attach an enchantment or equipment to the defender; repeatable.")
@click.option("--defender-damage", type=click.IntRange(0, MAX_CLI_NUMBER), default=0, show_default=True, metavar="N",
              help="Damage already on the defender.")
@click.option("--caster", default=None, metavar="MAGE",
              help="The mage who casts an attack spell or bears a weapon "
                   "(default: the first mage trained in the spell's school).")
@click.option("--charge", is_flag=True, help="The attacker charged (Charge +X applies).")
@click.option("--max-attacks", type=click.IntRange(max=100), default=10, show_default=True, metavar="N",
              help="Cap for the attacks-needed distribution.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def odds(attacker, defender, attack, attacker_with, defender_with, defender_damage, caster, charge,
         max_attacks, as_json):
    """Exact odds of ATTACKER's attack on DEFENDER, computed by the rules engine (docs/odds.md).

    ATTACKER is a creature, a mage, an attack spell or a weapon.  Unknown names exit 1.
    """
    from .odds import OddsError, odds as compute_odds, render_json, render_text
    try:
        report = compute_odds(_corpus_or_exit(), attacker, defender, cap=max_attacks, attack=attack,
                              attacker_with=attacker_with, defender_with=defender_with,
                              defender_damage=defender_damage, caster=caster, charge=charge)
    except OddsError as exc:
        click.echo(f"magewars odds: {exc}", err=True)
        sys.exit(exc.code)
    if as_json:
        click.echo(json.dumps(render_json(report), indent=2, ensure_ascii=False))
    else:
        click.echo(render_text(report))


# ---------------------------------------------------------------- simulate
@main.group()
def simulate():
    """Run scenarios on the rules engine."""


@simulate.command("scenario")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the structured event log and final state.")
@click.option("--cards-root", "cards_roots", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="Also allow the scenario's `cards:` from this folder (default: only its own folder).")
@click.option("--as", "viewer", metavar="PLAYER", help="Show only what this player may see.")
def simulate_scenario(file, as_json, cards_roots, viewer):
    """Run a YAML scenario and print its step-by-step log (docs/scenarios.md)."""
    try:
        from .scenario import run_cli
    except ImportError as exc:
        raise click.ClickException(f"the scenario runner is not available: {exc}")
    sys.exit(run_cli(str(file), as_json, cards_roots=tuple(cards_roots), viewer=viewer))


def run():  # pragma: no cover - console entry point alias
    main()


if __name__ == "__main__":  # pragma: no cover
    main()
