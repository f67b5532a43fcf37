"""The general restriction query (engine/restrictions.py) on shipped cards: every action its HOOKS table
names is asked somewhere in the engine, refusals name the card or codex entry, and the options offered
to agents (legal_casts) honour the same query as cast_spell."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from magewars.dsl import ast as A
from magewars.engine import Game
from magewars.engine import restrictions as R
from magewars.engine.casting import IllegalCast, cast_spell, legal_casts

ENGINE = Path(R.__file__).resolve().parent


def _asked_actions() -> set[str]:
    """Every action string passed to the query in the engine source (forbids/forbidden/permits/unmet
    calls, and the attack actions of ATTACK_ACTIONS)."""
    got = set(R.ATTACK_ACTIONS)
    call = re.compile(r"\b(?:forbids|forbidden|permits|unmet)\((?:[^()]|\([^()]*\))*\)", re.S)
    for path in ENGINE.glob("*.py"):
        for m in call.finditer(path.read_text(encoding="utf-8")):
            got.update(re.findall(r'"([a-z_ ]+)"', m.group(0)))
    got.update({R.BE_REVEALED, R.RECEIVE_DAMAGE})  # named by constant in reveal_forbidden / deal_damage
    return {R._norm(a) for a in got}


def test_every_hooked_action_is_asked_by_some_procedure():
    asked = _asked_actions()
    missing = sorted(a for a in R.HOOKS if R._norm(a) not in asked)
    assert not missing, f"HOOKS names actions no procedure asks about: {missing}"
    missing = sorted(a for a in R.PERMISSION_HOOKS if R._norm(a) not in asked)
    assert not missing, f"PERMISSION_HOOKS names actions no procedure asks about: {missing}"


def test_a_statement_about_an_unasked_action_is_not_read(corpus):
    # a homebrew card's `cannot(this, "juggle")`: no procedure asks "juggle", so the query must not claim
    # the statement (the continuous-effects layer refuses it loudly instead).  Every shipped card's
    # cannot(...) is now about an action some procedure asks (Dancing Scimitar's "defend" was the last).
    from magewars.dsl import compile_sources
    from magewars.resources import data_dir
    base = sorted(data_dir("codex").rglob("*.mw"))
    text = 'creature "Juggling Imp" {\n  armor 0 life 3\n  static cannot(this, "juggle")\n}\n'
    brew, diags = compile_sources([("imp.mw", text)], base=base)
    assert not [d for d in diags if d.severity == "error"], diags
    calls = [ab.effect for ab in brew.cards["Juggling Imp"].abilities
             if getattr(getattr(ab, "effect", None), "name", "") == "cannot"]
    assert calls and R.action_of(calls[0]) == "juggle" and not R.is_restriction(calls[0])
    assert R.is_restriction(next(ab.effect for ab in corpus.cards["Dancing Scimitar"].abilities
                                 if getattr(getattr(ab, "effect", None), "name", "") == "cannot"))


def board(corpus):
    g = Game(corpus)
    g.state.add_player("Alice", mana=30)
    g.state.add_player("Bob", mana=10)
    g.create("Warlock", "lock", "Alice", zone="B2")
    g.create("Huginn, Raven Familiar", "huginn", "Alice", zone="B2")
    g.create("Wizard", "wiz", "Bob", zone="B3")
    return g


def test_magecast_refusal_names_the_codex_entry_and_agents_are_not_offered_it(corpus):
    g = board(corpus)
    huginn, lock = g.state.objects["huginn"], g.state.objects["lock"]
    with pytest.raises(IllegalCast) as e:
        cast_spell(g, huginn, "Weapon Strike", [g.state.objects["wiz"]])
    assert e.value.rule == "Codex: Magecast"
    assert g.state.players["Alice"].mana == 30
    assert legal_casts(g, huginn, "Weapon Strike") == []
    offered = legal_casts(g, lock, "Weapon Strike")
    assert [c.target_ids for c in offered] and all(c.caster_id == "lock" for c in offered)


def test_obscured_exception_is_read_from_the_one_targeting(corpus):
    g = Game(corpus)
    g.state.add_player("Alice", mana=20)
    g.state.add_player("Bob", mana=20)
    wiz = g.create("Wizard", "wiz", "Alice", zone="B1")
    necro = g.create("Necromancer", "necro", "Bob", zone="B3")
    g.create("Cloak of Shadows", "cloak", "Bob", attached_to="necro")
    why = R.forbids(g, "be targeted", necro, by=wiz)
    assert why and why.rule == "Codex: Obscured" and why.source is necro
    assert not [c for c in legal_casts(g, wiz, "Stumble") if c.target_ids == ("necro",)]
    g.state.move_to_zone(wiz, "B2")
    assert R.forbids(g, "be targeted", necro, by=wiz) is None
    assert [c for c in legal_casts(g, wiz, "Stumble") if c.target_ids == ("necro",)]


def test_an_ignore_only_counts_when_the_query_reads_every_rule_of_the_entry(corpus):
    by_card = {name: [ab.effect for ab in corpus.cards[name].abilities
                      if getattr(getattr(ab, "effect", None), "name", "") == "ignore"]
               for name in ("Artemis, Dawnbreaker's Eye", "Bind Spirit")}
    assert all(R.ignore_honoured(c, corpus.codex) for c in by_card["Artemis, Dawnbreaker's Eye"])
    # Uncontainable's rules are immunities the continuous-effects layer applies: ignoring it is not run
    assert not any(R.ignore_honoured(c, corpus.codex) for c in by_card["Bind Spirit"])


class _First:
    """Takes the first option (the first spell offered, not the default "no spell")."""

    def decide(self, decision):
        return decision.options[0]


def test_a_spell_bound_to_thoughtspore_cannot_be_changed(corpus):
    # no shipped effect rebinds a Thoughtspore, so the Helm of Command's own rebinding effect
    # (`bind_spell(a Non-Epic Command incantation, to: this)`) is run with each object as `this`:
    # the Helm changes its bound spell, the Thoughtspore's `cannot(this, "rebind")` keeps its own
    from collections import Counter

    from magewars.engine import round as RD
    from magewars.engine.phrases import Ctx
    g = Game(corpus)
    g.state.add_player("Alice", mana=20)
    g.state.add_player("Bob", mana=20)
    g.create("Warlord", "lord", "Alice", zone="A1")
    spore = g.create("Thoughtspore", "spore", "Alice", zone="A1")
    helm = g.create("Helm of Command", "helm", "Alice", attached_to="lord")
    RD.state_of(g).library["Alice"] = Counter({"Battle Fury": 1, "Defend": 1})
    spore.bound_spell = helm.bound_spell = "Sniper Shot"
    rebind = next(e for ab in helm.card.abilities if isinstance(ab, A.ActivatedAbility) for e in ab.effects)
    g.agents = {"*": _First()}
    g.run_effects([rebind], Ctx(this=spore, it=spore))
    assert spore.bound_spell == "Sniper Shot"
    assert any("keeps Sniper Shot bound" in ln for ln in g.log.render().splitlines())
    g.run_effects([rebind], Ctx(this=helm, it=helm))
    assert helm.bound_spell == "Battle Fury"


def _wolves(corpus):
    g = Game(corpus)
    g.state.add_player("Alice", mana=10)
    g.state.add_player("Bob", mana=10)
    return g, g.create("Timber Wolf", "wolf", "Alice", zone="B2"), g.create("Timber Wolf", "fang", "Bob", zone="B2")


def test_a_condition_placed_or_removed_between_two_queries_is_read_at_the_second(corpus):
    # what a party carries is kept per derived epoch: a Stagger marker placed on a derived wolf (a Minor
    # creature: it may not guard) must be read at the next query, and its removal too
    g, wolf, fang = _wolves(corpus)
    g.d(wolf)
    assert R.forbids(g, "guard", wolf) is None
    g.state.add_marker(wolf, "Stagger")
    why = R.forbids(g, "guard", wolf)
    assert why and why.rule == "Codex: Stagger" and why.source is wolf
    assert R.forbids(g, "guard", fang) is None
    g.state.remove_marker(wolf, "Stagger", 1)
    assert R.forbids(g, "guard", wolf) is None


def test_a_party_not_derived_yet_is_read_through_the_codex(corpus):
    # the first query of a game about a party nobody derived yet: the codex says some entry states the
    # action, so what the party carries is read (and it is derived then)
    g, wolf, fang = _wolves(corpus)
    g.state.add_marker(fang, "Stagger")
    why = R.forbids(g, "guard", fang)
    assert why and why.rule == "Codex: Stagger"


def test_a_game_whose_codex_differs_from_its_corpus_is_read_from_its_own(corpus):
    # the codex union is kept per corpus; a game that changed an entry (a scenario, a test) must not be
    # answered from the corpus's: with Stagger stating nothing, a Staggered wolf may guard
    import dataclasses
    g, wolf, fang = _wolves(corpus)
    g.state.add_marker(fang, "Stagger")
    assert R.forbids(g, "guard", fang)  # (the corpus's union is kept now)
    g2, wolf2, fang2 = _wolves(corpus)
    g2.codex["Stagger"] = dataclasses.replace(g2.codex["Stagger"], abilities=())
    g2.state.add_marker(fang2, "Stagger")
    assert R.forbids(g2, "guard", fang2) is None


def test_what_a_party_card_states_covers_every_statement_read_of_it(corpus):
    # the shortcut "nothing states this action" reads a party's own card through _card_stated: it must
    # count every statement _gather would read of that card (a party not in play or face down), those in
    # a `static for each` body included (Alluring Orchid's `cannot(it, "attack", except: this)`, Siren
    # Stats' `must`/`cannot` about `it` are written there), else a query whose party is such a card not in
    # play (a spell being cast) could answer "nothing states it" past a statement of that card
    missed = []
    for card in corpus.cards.values():
        read = {k for _ab, call in R.card_statements(card) for k in (R._stated(call),) if k is not None}
        if not read <= R._card_stated(card):
            missed.append(card.name)
    assert not missed, missed[:5]
