"""Scenario keys for the game round (docs/scenarios.md, "Rounds and phases").

* a player's ``spellbook:`` (shipped name or file) becomes their library; ``planned:`` the spells
  they planned this round; the top-level ``initiative:`` names the player who goes first;
* ``phase: upkeep`` runs that one phase of the round (engine/round.py ROUND_PHASES, by key or name);
* ``round:`` runs the phases from where the round stands to its End Phase (``round: {to: planning}``
  stops after the named phase);
* ``activate: ID`` runs one creature's action phase (its choices come from ``choices:``, kind
  ``action``: the option's label, e.g. "Grizzly [g] attacks ...", or its start);
* ``offered: {object: ID, includes: [...], excludes: [...], only: [attack, pass]}`` checks which
  actions the creature would be offered if it activated now (mandatory actions, conditions).
"""
from __future__ import annotations

from collections import Counter
from typing import Optional

from ..engine import actions as ACT
from ..engine import activation as AV
from ..engine import round as R

KINDS = {ACT.MoveChoice: "move", ACT.AttackChoice: "attack", ACT.CastChoice: "cast", ACT.GuardChoice: "guard",
         ACT.AbilityChoice: "ability", ACT.PassChoice: "pass"}


def setup(game, v, players: list, data, at) -> None:
    """After the objects exist: libraries, planned spells, initiative, quickcast markers."""
    rs = R.state_of(game)
    for i, m in enumerate(players):
        if not isinstance(m, dict) or "name" not in m:
            continue
        name = str(m["name"])
        if m.get("spellbook") is not None:
            from ..spellbook import SpellbookNotFound, load_spellbook
            try:
                book = load_spellbook(str(m["spellbook"]), game.corpus)
            except SpellbookNotFound as exc:
                v.err(at(m, "spellbook"), "S004", str(exc))
                continue
            rs.library[name] = Counter({card.name: n for card, n in book.cards})
        planned = m.get("planned") or []
        for j, card in enumerate(planned):
            try:
                game.card(str(card))
            except KeyError:
                v.err(at(m, "planned"), "S004", f"unknown card {card!r} in `planned`")
        rs.planned[name] = [game.card(str(c)).name for c in planned if _known(game, c)]
    rs.quickcast_ready = {p for p in game.state.players if game.state.mage_of(p) is not None}
    first = data.get("initiative")
    if first is not None:
        if str(first) not in game.state.players:
            v.err(at(data, "initiative"), "S005", f"unknown player {first!r}; players: "
                                                  f"{', '.join(game.state.order)}")
            return
        rs.initiative = str(first)
        ps = list(game.state.players)
        k = ps.index(rs.initiative)
        game.state.order = ps[k:] + ps[:k]


def _known(game, name) -> bool:
    try:
        game.card(str(name))
        return True
    except KeyError:
        return False


def run(game, v, kind: str, body, where, obj_of, result, check_cls) -> None:
    """One round action of a scenario."""
    rs = R.state_of(game)
    if kind == "phase":
        try:
            rs.next_phase = R.phase_index(str(body))
        except KeyError as exc:
            v.err(where, "S005", str(exc).strip("'\""))
            return
        R.run_phase(game)
    elif kind == "round":
        to = body.get("to") if isinstance(body, dict) else None
        try:
            stop = R.phase_index(str(to)) if to is not None else len(R.ROUND_PHASES) - 1
        except KeyError as exc:
            v.err(where, "S005", str(exc).strip("'\""))
            return
        for _ in range(len(R.ROUND_PHASES)):
            ph = R.run_phase(game)
            if rs.result is not None or R.ROUND_PHASES.index(ph) == stop:
                break
    elif kind == "activate":
        o = obj_of(body)
        if o is not None:
            R.activate(game, o)
            R.check_victory(game)
    elif kind == "offered":
        o = obj_of(body.get("object"))
        if o is None:
            return
        notes: list = []
        choices = AV.legal_actions(game, o, ACT.Activation(o.id), rs.planned.get(o.controller, []),
                                    o.controller in rs.quickcast_ready, notes)
        for text in notes:  # the step stands for the offer being made: what narrows it is said, as in a round
            game.emit("rule", text)
        labels = [op.label for op in ACT.options_of(choices, game)]
        low = [lb.lower() for lb in labels]

        def offered(text: str) -> bool:
            t = str(text).lower()
            return any(lb == t or lb.startswith(t) for lb in low)
        for text in body.get("includes") or []:
            result.checks.append(check_cls(f"{where[0]}:{where[1]}", f"{o.id} is offered {text!r}", True,
                                           offered(text) or labels))
        for text in body.get("excludes") or []:
            result.checks.append(check_cls(f"{where[0]}:{where[1]}", f"{o.id} is not offered {text!r}", False,
                                           [lb for lb in labels if lb.lower().startswith(str(text).lower())] or False))
        if body.get("only") is not None:
            kinds = sorted({KINDS[type(c)] for c in choices})
            allowed = set(body.get("only"))
            result.checks.append(check_cls(f"{where[0]}:{where[1]}", f"{o.id} is offered only {sorted(allowed)}",
                                           True, set(kinds) <= allowed or kinds))
