"""cast_forbidden's pooled checks (engine/restrictions.py): before its `cannot` queries and its two
obligation (`must`) queries it asks once whether anything states any of their actions among all their
parties.  On shipped cards whose statements it reads (Galaxxus, V'Tarrian Healing Song, the Magecast
entry Huginn carries), each candidate's answer and the log are the same as when every query is asked."""
from __future__ import annotations

import pytest

from magewars.engine import Game
from magewars.engine import placement as P
from magewars.engine import restrictions as R
from magewars.engine.casting import legal_casts


def orb_board(corpus):
    """Alice's Warlord in B3 with her Timber Wolf, her V'Tar Orb in B2 with her Steelclaw Grizzly; Bob's
    Wizard in A1; Alice's Warlock in C2 with Huginn."""
    g = Game(corpus)
    g.state.add_player("Alice", mana=30)
    g.state.add_player("Bob", mana=30)
    g.create("Warlord", "lord", "Alice", zone="B3")
    orb = g.create("V'Tar Orb Off", "orb", "Alice", zone="B2")
    g.state.add_marker(orb, "V'Tar Orb")
    g.create("Timber Wolf", "wolf", "Alice", zone="B3")
    g.create("Steelclaw Grizzly", "grizzly", "Alice", zone="B2")
    g.create("Wizard", "wiz", "Bob", zone="A1")
    g.create("Warlock", "lock", "Alice", zone="C2")
    g.create("Huginn, Raven Familiar", "huginn", "Alice", zone="C2")
    return g


def answers(g, caster, card):
    """cast_forbidden of every object and every zone as the spell's target or zone, as (text, rule)."""
    card = g.card(card)
    probe = P.probe(g, caster, card, g.state.zone_of(caster))
    got = []
    for o in list(g.state.in_play()):
        why = R.cast_forbidden(g, caster, probe, (o,), None)
        got.append((o.id, str(why) if why else None, getattr(why, "rule", None)))
    for z in g.state.arena.zones():
        why = R.cast_forbidden(g, caster, probe, (), z)
        got.append((z, str(why) if why else None, getattr(why, "rule", None)))
    return got


def log_of(g):
    return [(e.kind, e.text) for e in g.log.events]


def _ask_every_query(monkeypatch):
    """No pooled check rules a query out: every query of cast_forbidden and attack_forbidden is asked
    (the pooled checks answer "nothing stated" and, for the actions it may be about, "all of them")."""
    monkeypatch.setattr(R, "_nothing_states_any", lambda *a, **k: False)
    monkeypatch.setattr(R, "_stated_any", lambda game, name, acts, *a, **k: R._query_keys(name, acts))


CASES = [("lord", "V'Tarrian Healing Song"), ("lord", "Galaxxus"), ("huginn", "Weapon Strike"),
         ("lord", "Minor Heal"), ("lock", "Timber Wolf")]


@pytest.mark.parametrize("caster,card", CASES)
def test_pooled_answers_are_the_answers_of_every_query(corpus, monkeypatch, caster, card):
    g = orb_board(corpus)
    pooled = answers(g, g.state.objects[caster], card)
    pooled_log = log_of(g)
    h = orb_board(corpus)
    _ask_every_query(monkeypatch)
    assert answers(h, h.state.objects[caster], card) == pooled
    assert log_of(h) == pooled_log


def test_an_obligation_is_seen_by_the_pooled_check(corpus):
    # Galaxxus's `must(this, "be cast", into: ...)` and the Song's `must(target, "be in a zone", at: ...)` are
    # what the `must` side pools: the check must not answer "nothing states it" past them
    g = orb_board(corpus)
    lord, wolf = g.state.objects["lord"], g.state.objects["wolf"]
    song = P.probe(g, lord, g.card("V'Tarrian Healing Song"), "B3")
    assert not R._nothing_states_any(g, R.MUST, R._CAST_DUTIES, (lord, song, wolf, wolf))
    why = R.cast_forbidden(g, lord, song, (wolf,))
    assert why and why.rule == "Card: V'Tarrian Healing Song" and why.action == "be in a zone"
    gal = P.probe(g, lord, g.card("Galaxxus"), "B3")
    assert not R._nothing_states_any(g, R.MUST, R._CAST_DUTIES, (lord, gal, "C3"))
    why = R.cast_forbidden(g, lord, gal, (), "C3")
    assert why and why.rule == "Card: Galaxxus" and why.action == "be cast"
    # a spell no statement is about, cast by a caster carrying none: both pooled checks answer "nothing"
    heal = P.probe(g, lord, g.card("Minor Heal"), "B3")
    assert R._nothing_states_any(g, "cannot", R._CAST_ACTIONS, (lord, heal, wolf, wolf))
    assert R._nothing_states_any(g, R.MUST, R._CAST_DUTIES, (lord, heal, wolf, wolf))


def test_legal_casts_offer_the_same_choices_pooled_or_not(corpus, monkeypatch):
    g = orb_board(corpus)
    pooled = [legal_casts(g, g.state.objects[c], card) for c, card in CASES]
    h = orb_board(corpus)
    _ask_every_query(monkeypatch)
    assert [legal_casts(h, h.state.objects[c], card) for c, card in CASES] == pooled
    assert any(pooled) and not all(pooled)
