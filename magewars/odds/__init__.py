"""Exact odds of an attack (`magewars odds`), computed by the rules engine itself.

    from magewars.odds import odds
    report = odds(corpus, attacker_name, defender_name, defender_damage=3)

See docs/odds.md.  The engine functions it relies on are listed in probe.py.
"""
from __future__ import annotations

from typing import Iterable, Optional

from ..dsl.model import CardDefinition, Corpus
from .exact import AttackOdds, OddsReport, attack_odds, compute, signatures
from .probe import OddsError, ProbeDice, Spec, build, defender_view, probe, run
from .render import render_json, render_text

__all__ = ["odds", "make_spec", "resolve_card", "compute", "attack_odds", "signatures", "OddsError",
           "OddsReport", "AttackOdds", "Spec", "ProbeDice", "build", "run", "probe", "defender_view",
           "render_text", "render_json"]

ATTACKER_KINDS = ("creature", "magestats", "conjuration", "attack", "equipment", "mage", "wall")


def resolve_card(corpus: Corpus, name: str, role: str) -> CardDefinition:
    """A card by exact, case-insensitive, unique partial or close name; OddsError (exit 1) otherwise."""
    from ..render import find_cards
    q = name.strip()
    hits = [q] if q in corpus.cards else find_cards(corpus, q)
    if hits and hits[0].lower() == q.lower():
        cd = corpus.cards[hits[0]]
    elif hits and not any(q.lower() in h.lower() for h in hits):
        raise OddsError(f"no card named '{name}' ({role}); did you mean "
                        + " or ".join(repr(h) for h in hits[:3]) + "?", 1)
    elif len(hits) == 1:
        cd = corpus.cards[hits[0]]
    elif hits:
        raise OddsError(f"{role} '{name}' matches several cards: {', '.join(hits[:8])}"
                        + (" …" if len(hits) > 8 else "") + "; give the full name", 1)
    else:
        from ..matching import closest
        close = closest(q, corpus.cards)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise OddsError(f"no card named '{name}' ({role}){hint}", 1)
    if cd.kind == "mage":  # a mage's numbers are on its stats card
        stats = corpus.cards.get(f"{cd.name} Stats")
        if stats is not None:
            return stats
    return cd


def default_caster(corpus: Corpus, spell: CardDefinition) -> CardDefinition:
    """A mage to cast a spell when none is named: the first (by name) whose training
    covers the spell's schools, else the first mage of all.  Chosen from data."""
    mages = sorted((c for c in corpus.cards.values() if c.kind == "magestats"), key=lambda c: c.name)
    if not mages:
        raise OddsError("no mage statistics card is defined to cast the spell; use --caster", 2)
    schools = {s for s, _ in spell.schools}
    trained = [m for m in mages if schools and schools <= set(m.training)]
    return (trained or mages)[0]


def make_spec(corpus: Corpus, attacker: str, defender: str, attack: Optional[str] = None,
              attacker_with: Iterable[str] = (), defender_with: Iterable[str] = (), defender_damage: int = 0,
              caster: Optional[str] = None, charge: bool = False, defender_hidden: Iterable[str] = ()) -> Spec:
    a = resolve_card(corpus, attacker, "attacker")
    d = resolve_card(corpus, defender, "defender")
    aw = [resolve_card(corpus, n, "--with card") for n in attacker_with]
    dw = [resolve_card(corpus, n, "--defender-with card") for n in defender_with]
    dh = [resolve_card(corpus, n, "--defender-hidden card") for n in defender_hidden]
    for c in dh:
        if c.kind != "enchantment":
            raise OddsError(f"--defender-hidden {c.name!r} is a {c.kind}: only an enchantment is placed face down", 2)
    cast = None
    if a.kind in ("attack", "equipment"):
        cast = resolve_card(corpus, caster, "--caster") if caster else default_caster(corpus, a)
        if cast.kind not in ("magestats", "creature"):
            raise OddsError(f"--caster {caster!r} is a {cast.kind}, not a mage", 2)
    if not a.attacks and a.kind != "attack":
        raise OddsError(f"{a.name} ({a.kind}) has no attack", 1)
    if a.kind == "attack" and not a.attacks:
        raise OddsError(f"{a.name} has no attack bar", 1)
    if a.kind == "attack" and attack and attack.lower() != a.attacks[0].name.lower():
        raise OddsError(f"{a.name} is an attack spell; its only attack is {a.attacks[0].name!r}", 2)
    names = [x.name for x in a.attacks]
    if a.kind == "equipment":  # a weapon: its bearer (the caster) attacks with it
        aw = [a] + aw
        attack = attack or names[0]
        a = cast
        names = names + [x.name for x in a.attacks]
    if attack and a.kind != "attack":
        match = [n for n in names if n.lower() == attack.lower()]
        extra = [x.name for c in aw if c.kind == "equipment" for x in c.attacks]
        match += [n for n in extra if n.lower() == attack.lower()]
        if not match:
            raise OddsError(f"{a.name} has no attack named {attack!r}; its attacks: "
                            f"{', '.join(names + extra) or 'none'}", 1)
        attack = match[0]
    if d.life is None:
        raise OddsError(f"{d.name} ({d.kind}) has no life: it cannot be attacked for damage", 1)
    if defender_damage < 0:
        raise OddsError("--defender-damage must be 0 or more", 2)
    return Spec(corpus, a, d, attack, tuple(aw), tuple(dw), defender_damage, cast, charge, tuple(dh))


def odds(corpus: Corpus, attacker: str, defender: str, cap: int = 10, **kw) -> OddsReport:
    from ..bounds import MAX_ATTACHED, MAX_ATTACKS, MAX_DEFENDER_DAMAGE, check_int
    try:
        check_int(cap, 1, MAX_ATTACKS, "--max-attacks")
        check_int(kw.get("defender_damage", 0), 0, MAX_DEFENDER_DAMAGE, "--defender-damage")
        for opt in ("attacker_with", "defender_with", "defender_hidden"):
            check_int(len(tuple(kw.get(opt) or ())), 0, MAX_ATTACHED, f"the number of {opt} cards")
    except ValueError as exc:
        raise OddsError(str(exc), 2) from None
    spec = make_spec(corpus, attacker, defender, **kw)
    return compute(spec, cap)  # OddsError (exit 1) for a defender the damage already destroys
