"""Events nobody hears (Game.unheard): whenever the engine answers "nobody hears this event" without
looking for listeners, looking for them must find none.  Checked on shipped cards: the armored
matchup of the engine benchmark (an Iron Golem whose codex entries answer one attack step only) and
whole seeded duels between shipped spellbooks."""
from __future__ import annotations

import pytest

from magewars.duel import runner as R
from magewars.engine import Game, SeededDice
from magewars.engine.decisions import FirstLegalAgent
from magewars.engine.game import STEP_EVENT, _step_of


@pytest.fixture
def checked(monkeypatch):
    """Every 'nobody hears it' answer, each checked against the full listener lookup at that moment:
    (event, step) of each answer."""
    answers: list[tuple[str, object]] = []
    plain = Game.unheard

    def unheard(self, event, subject, atk, exclude=(), step=None):
        got = plain(self, event, subject, atk, exclude, step)
        if got:
            rules, pending = self._listening(event, subject, exclude)
            found = [*rules, *pending, *self.attack_listeners(atk, event)]
            if event == STEP_EVENT and step is not None:
                found = [r for r in found if _step_of(r[2]) in (None, step)]
            assert not found, f"{event} at {step} was answered unheard, but {len(found)} listener(s) hear it"
            answers.append((event, step))
        return got

    monkeypatch.setattr(Game, "unheard", unheard)
    return answers


def test_a_step_listener_is_asked_at_its_step_only(corpus, checked):
    g = Game(corpus, SeededDice(3), FirstLegalAgent())
    g.state.add_player("A", mana=100)
    g.state.add_player("B", mana=100)
    wolf = g.create("Timber Wolf", "a", "A", zone="B2")
    golem = g.create("Iron Golem", "d", "B", zone="B2")
    g.create("Rhino Hide", "e0", "B", attached_to="d")
    g.create("Circle of Lightning", "e1", "B", attached_to="d")
    g.attacks.make_attack(wolf, "Bite", [golem])
    steps = {step for event, step in checked if event == STEP_EVENT}
    # the golem carries a listener of one attack step: the other steps are answered unheard, that one is not
    assert steps and "declare_attack" in steps
    heard_steps = {e.data["step"] for e in g.log.events if e.kind == "step"} - steps
    assert heard_steps, "every step was answered unheard: the golem's step listener was never asked"


@pytest.mark.parametrize("books,seed", [(("beastmaster", "wizard"), 5), (("druid", "necromancer"), 7)])
def test_no_event_answered_unheard_is_heard_in_a_duel(books, seed, checked):
    cfg = R.DuelConfig(books, ("random", "random"), seed=seed, max_rounds=12)
    R.play_game(cfg, 0)
    assert {event for event, _ in checked} >= {"casting", STEP_EVENT}  # (spells cast and attacks made)
