"""Asking what may be done writes nothing: enumerating a creature's options (activation.legal_actions,
the casting checks under it, Planning's may_be_given) leaves the game's log as it was.  What an offer
means to the players is said where it is made (engine/round.py), what a cast means when it is cast."""
from __future__ import annotations

import pytest

from magewars.duel.runner import DuelConfig, setup_game
from magewars.engine import Game
from magewars.engine import activation as AV
from magewars.engine import casting as C
from magewars.engine import othercasters as OC
from magewars.engine import round as R


def _priest(corpus):
    g = Game(corpus)
    g.state.add_player("A", mana=30)
    g.state.add_player("B", mana=30)
    g.state.order = ["A", "B"]
    priest = g.create("Priest Stats", "priest", "A", zone="A1")
    g.create("Wizard", "wiz", "B", zone="C3")
    return g, priest


def test_a_spell_a_card_lets_the_mage_cast_is_noted_when_cast_not_when_offered(corpus):
    """The Priest may cast Priestess Only spells (his own `can(this, "cast", ...)`): offering the Staff
    of Asyra says nothing; casting it says once why it may be cast."""
    g, priest = _priest(corpus)
    before = len(g.log.events)
    offered = AV.cast_options(g, priest, ["Staff of Asyra"], ("quick", "full"), False)
    assert offered and C.legal_casts(g, priest, g.card("Staff of Asyra"))
    OC.may_be_given(g, priest, g.card("Staff of Asyra"))  # Planning's question for a spell given: silent too
    assert len(g.log.events) == before
    C.cast_spell(g, priest, "Staff of Asyra", [priest])
    said = [e.text for e in g.log.events[before:] if "restricted to another kind of Mage" in e.text]
    assert len(said) == 1 and "[priest] may cast Staff of Asyra" in said[0]


@pytest.mark.parametrize("books,seed", [(("priest", "druid"), 124), (("necromancer", "warlock"), 105)])
def test_enumerating_options_during_a_duel_writes_nothing(corpus, books, seed):
    """At every decision of seeded duels, listing each creature's actions again changes no log line."""
    game, _, _, _ = setup_game(DuelConfig(books, seed=seed, max_rounds=5), 0)
    asked = [0]
    real_decide = game.decide

    def decide(kind, player, *a, **kw):
        rs = R.state_of(game)
        for obj in [o for o in game.state.in_play() if o.kind in ("creature", "mage", "magestats")][:6]:
            before = len(game.log.events)
            AV.legal_actions(game, obj, AV.Activation(obj.id), rs.planned.get(obj.controller, []), False)
            assert len(game.log.events) == before, game.log.events[before].text
            asked[0] += 1
        return real_decide(kind, player, *a, **kw)
    game.decide = decide
    game.play(max_rounds=5)
    assert asked[0] > 50
