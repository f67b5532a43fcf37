"""The compiled corpus as plain data (schema documented in docs/export.md)."""
from __future__ import annotations

from .dsl import ast as A
from .dsl import printer
from .dsl.model import AttackDefinition, CardDefinition, CodexDefinition, Corpus, TraitInstance

SCHEMA_VERSION = 1


def _amount(v):
    if isinstance(v, A.XValue):
        return "X" if v.coef == 1 else f"{v.coef}X"
    return v


def trait_record(t: TraitInstance) -> dict:
    rec = {"key": t.key, "text": t.text or t.key}
    if t.value is not None:
        rec["value"] = _amount(t.value)
    if t.arg is not None:
        rec["arg"] = t.arg
    if t.versus:
        rec["versus"] = list(t.versus)
    return rec


def attack_record(a: AttackDefinition) -> dict:
    return {
        "name": a.name,
        "action": a.action,
        "kind": a.kind,
        "special": list(a.special),
        "zone": a.is_zone,
        "range": list(a.range) if a.range else None,
        "damage_type": a.damage_type,
        "dice": _amount(a.dice),
        "effect_die": [{"min": r.low, "max": r.high,
                        "outcomes": [{"name": k, "count": n} for k, n in r.outcomes]} for r in a.effect_die],
        "traits": [trait_record(t) for t in a.traits],
        "alternatives": [[trait_record(t) for t in g] for g in a.alternatives],
        "cost": _amount(a.cost),
        "abilities": [printer.ability(ab) for ab in a.abilities],
        "unsupported": [{"reason": u.reason, "clause": u.clause} for u in a.unsupported],
    }


def card_record(c: CardDefinition) -> dict:
    return {
        "name": c.name,
        "kind": c.kind,
        "subtypes": list(c.subtypes),
        "school": {"combine": c.school_join, "schools": [{"school": s, "level": lvl} for s, lvl in c.schools]},
        "level": c.level,
        "cost": {"cast": _amount(c.cast_cost), "reveal": _amount(c.reveal_cost)},
        "action": c.action,
        "range": list(c.range) if c.range else None,
        "targets": list(c.targets),
        "target_join": c.target_join,
        "stats": {"armor": c.armor, "life": c.life, "channeling": _amount(c.channeling),
                  "spellbook": c.spellbook, "starting_mana": c.starting_mana,
                  "defenses": [{"roll": d.roll, "uses": d.uses, "limit": d.limit} for d in c.defenses],
                  "slot": list(c.slot), "slot_combine": c.slot_join},
        "training": list(c.training),
        "school_costs": [{"school": s, "multiplier": n} for s, n in c.school_costs],
        "traits": [trait_record(t) for t in c.traits],
        "attacks": [attack_record(a) for a in c.attacks],
        "abilities": [printer.ability(ab) for ab in c.abilities],
        "unsupported": [{"reason": u.reason, "clause": u.clause} for u in c.unsupported],
        "fully_expressed": c.fully_expressed,
        "printings": [{"set": s, "card_id": cid} for s, cid in c.printings],
        "errata": list(c.errata),
        "source": {"path": c.span.path, "line": c.span.line},
    }


def codex_record(d: CodexDefinition) -> dict:
    return {
        "name": d.name,
        "display": d.display,
        "kind": d.kind,
        "param": d.param,
        "categories": list(d.categories),
        "stacking": d.stacking,
        "removal_cost": _amount(d.removal),
        "removable": d.removable,
        "marker": d.marker,
        "summary": d.summary,
        "abilities": [printer.ability(ab) for ab in d.abilities],
        "unsupported": [{"reason": u.reason, "clause": u.clause} for u in d.unsupported],
    }


def export_corpus(corpus: Corpus) -> dict:
    return {
        "schema": SCHEMA_VERSION,
        "cards": [card_record(c) for c in sorted(corpus.cards.values(), key=lambda c: c.name)],
        "codex": [codex_record(d) for d in sorted(corpus.codex.values(), key=lambda d: d.name)],
    }
