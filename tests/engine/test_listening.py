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


def _entries_heard(g) -> set:
    """Every codex entry the game's listener index holds a triggered ability of, with the event."""
    return {(event, name) for event, entries in g._codex_index().items() for name in entries}


@pytest.mark.parametrize("changed_first", [False, True])
def test_a_game_whose_codex_changes_an_entry_reads_its_own_listeners(corpus, changed_first):
    """The listener index is shared by the games of a corpus only while a game's codex holds the
    corpus's very entries: a game that replaces an entry by one without abilities (same number of
    entries) hears nothing of it, and a later game of the corpus still hears it."""
    import dataclasses

    import magewars.dsl.ast as A
    name = next(n for n, cd in sorted(corpus.codex.items())
                if any(isinstance(getattr(ab, "ability", ab), A.TriggeredAbility) for ab in cd.abilities))
    if hasattr(corpus, "_codex_listeners"):
        del corpus._codex_listeners

    def plain():
        return _entries_heard(Game(corpus, SeededDice(0), FirstLegalAgent()))

    def changed():
        g = Game(corpus, SeededDice(0), FirstLegalAgent())
        g.codex[name] = dataclasses.replace(g.codex[name], abilities=())
        assert len(g.codex) == len(corpus.codex)
        return _entries_heard(g)

    first, second = (changed(), plain()) if changed_first else (plain(), changed())
    got_changed, got_plain = (first, second) if changed_first else (second, first)
    assert any(n == name for _e, n in got_plain)
    assert not any(n == name for _e, n in got_changed)
    assert got_changed == {(e, n) for e, n in got_plain if n != name}


def test_every_way_of_writing_a_games_codex_marks_it_changed(corpus):
    """Game.codex (CodexTable) answers copy_of(corpus.codex) only while nothing was written into it, by
    any of a dict's ways of writing; what is shared per corpus then stays with unchanged copies."""
    import dataclasses

    name = sorted(corpus.codex)[0]
    entry = corpus.codex[name]
    writes = {
        "set": lambda c: c.__setitem__(name, dataclasses.replace(entry, abilities=())),
        "del": lambda c: c.__delitem__(name),
        "pop": lambda c: c.pop(name),
        "popitem": lambda c: c.popitem(),
        "setdefault (new)": lambda c: c.setdefault("Homebrew Entry", entry),
        "update": lambda c: c.update({name: entry}),
        "|=": lambda c: c.__ior__({name: entry}),
        "clear": lambda c: c.clear(),
    }
    for how, write in writes.items():
        g = Game(corpus, SeededDice(0), FirstLegalAgent())
        assert g.codex.copy_of(corpus.codex) and dict(g.codex) == dict(corpus.codex)
        g.codex.setdefault(name, None)  # an entry it has: nothing written
        assert g.codex.copy_of(corpus.codex), how
        write(g.codex)
        assert not g.codex.copy_of(corpus.codex), how
    other = Game(corpus, SeededDice(0), FirstLegalAgent())
    assert not other.codex.copy_of(dict(corpus.codex))  # a copy of that corpus's table, not of another
