"""Templates of cards (engine/effects.py, Effects._keep_template / Effects._from_template).

The values an object is derived to while nothing applies to it but its card and the codex are kept
per card and copied for the next object of that card.  A copy must equal what working the values
out in full gives, for every shipped card alone in play, whatever the object's timestamp; and it
must never be used in a game whose codex holds other entries (or other names by nature) than those
it was worked out from."""
import dataclasses

import pytest

from magewars.dsl import ast as A
from magewars.duel.runner import corpus as load_corpus
from magewars.engine import FirstLegalAgent, Game, SeededDice
from magewars.engine import effects as E

#: kinds of cards put in play on their own in a zone
ZONE_KINDS = ("creature", "conjuration", "wall")


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


@pytest.fixture
def counted(monkeypatch):
    """How many derivations were copied from a template."""
    used = [0]
    real = E.Effects._from_template  # (asked only once a template of the card is kept)

    def spy(obj, full):
        used[0] += 1
        return real(obj, full)
    monkeypatch.setattr(E.Effects, "_from_template", staticmethod(spy))
    return used


def _game(corpus, edit=None):
    g = Game(corpus, SeededDice(0), FirstLegalAgent())
    if edit is not None:  # a game whose codex differs from its corpus's (a scenario, a test)
        edit(g.codex)
    g.state.add_player("A", mana=100)
    g.state.add_player("B", mana=100)
    return g


def _derive(corpus, name, before=0, edit=None):
    """The derived values of an object of card `name` alone in play (after `before` other objects came
    into play: a later timestamp)."""
    g = _game(corpus, edit)
    for i in range(before):
        g.create("Timber Wolf", f"w{i}", "B", zone="A1")
    obj = g.create(name, "x", "A", zone="B2")
    return g.d(obj)


def _full(corpus, name, before=0, edit=None):
    """The same, worked out in full: no template kept."""
    E._TEMPLATES.clear()
    return _derive(corpus, name, before, edit)


def test_a_copied_template_equals_the_values_worked_out_in_full(corpus, counted):
    names = sorted(n for n, c in corpus.cards.items() if c.kind in ZONE_KINDS)
    for name in names:
        E._TEMPLATES.clear()
        _derive(corpus, name)  # worked out in full: the template is kept (when it may be)
        copied = counted[0]
        got = _derive(corpus, name, before=2)  # another game, another timestamp
        if counted[0] == copied:
            continue  # its values read more than the card and the codex: worked out in full again
        assert got == _full(corpus, name, before=2), name
    # most shipped creatures and conjurations alone in play are copied: the comparison said something
    assert counted[0] > len(names) // 2, (counted[0], len(names))


def test_mods_carry_the_timestamp_of_the_object_copied_to(corpus, counted):
    _full(corpus, "Iron Golem")
    got = _derive(corpus, "Iron Golem", before=3)
    assert counted[0] == 1
    assert got.mods and {m.timestamp for m in got.mods} == {4}
    assert got == _full(corpus, "Iron Golem", before=3)


def test_no_template_in_a_game_whose_codex_holds_another_entry(corpus, counted):
    shipped = _full(corpus, "Iron Golem")
    # an entry the template read that states no name by nature (those are checked apart: the next test)
    key = next(k for k in shipped.immune_by.values() if not any(
        isinstance(ab, A.StaticAbility) and getattr(ab.effect, "name", None) == "innate"
        for ab in corpus.codex[k].abilities))

    def strip(codex):
        codex[key] = dataclasses.replace(codex[key], abilities=())
    got = _derive(corpus, "Iron Golem", edit=strip)  # the shipped template is kept: not for this game
    assert counted[0] == 0
    assert key not in got.immune_by.values()
    assert got == _full(corpus, "Iron Golem", edit=strip)
    # the entry changed once the game has derived values (its names by nature are read by then): the
    # template is checked entry by entry
    _full(corpus, "Iron Golem")
    g = _game(corpus)
    g.d(g.create("Timber Wolf", "w", "B", zone="A1"))
    strip(g.codex)
    copied = counted[0]
    got = g.d(g.create("Iron Golem", "x", "A", zone="B2"))
    assert counted[0] == copied
    assert key not in got.immune_by.values()
    # and the shipped codex again: not the template of the other game
    assert _derive(corpus, "Iron Golem") == shipped


def test_no_template_in_a_game_whose_codex_gives_other_names_by_nature(corpus, counted):
    shipped = _full(corpus, "Timber Wolf")
    assert "Living" in shipped.traits
    game = Game(corpus)  # (its sub-engines point back at it weakly: keep it while they are used)
    rules = game.effects.innate_rules()
    name = next(n for n, kinds, _ in rules if "creature" in kinds and n in shipped.traits)

    def no_innate(codex):  # the entry no longer states that creatures have it by nature
        codex[name] = dataclasses.replace(codex[name], abilities=tuple(
            ab for ab in codex[name].abilities
            if not (isinstance(ab, A.StaticAbility) and getattr(ab.effect, "name", None) == "innate")))
    got = _derive(corpus, "Timber Wolf", edit=no_innate)
    assert counted[0] == 0
    assert name not in got.traits
    assert got == _full(corpus, "Timber Wolf", edit=no_innate)


def test_the_life_an_object_keeps_is_read_from_the_object_not_the_template(corpus, counted):
    # Iron Golem cannot gain life (a trait its Nonliving brings): the Life it keeps is written on each
    # object when it is derived (Effects._finish), copied or not
    _full(corpus, "Iron Golem")
    g = _game(corpus)
    obj = g.create("Iron Golem", "x", "A", zone="B2")
    d = g.d(obj)
    assert counted[0] == 1
    assert "gain life" in d.cannot_do and obj.life_when_barred == d.life


@pytest.fixture
def prefixed(monkeypatch):
    """How many derivations started from a kept prefix (Effects._from_prefix)."""
    used = [0]
    real = E.Effects._from_prefix

    def spy(self, *a):
        used[0] += 1
        return real(self, *a)
    monkeypatch.setattr(E.Effects, "_from_prefix", spy)
    return used


def _derive_enchanted(corpus, name, enchantment, before=0, full=False):
    """The derived values of an object of card `name` with `enchantment` attached (effects apply to it)."""
    if full:
        E._TEMPLATES.clear()
    g = _game(corpus)
    for i in range(before):
        g.create("Timber Wolf", f"w{i}", "B", zone="A1")
    obj = g.create(name, "x", "A", zone="B2")
    g.create(enchantment, "e", "A", attached_to="x")
    return g.d(obj)


def test_a_derivation_started_from_a_kept_prefix_equals_one_worked_out_in_full(corpus, prefixed):
    # an enchantment whose statics reach the creature it is attached to: effects apply on top of the prefix
    names = sorted(n for n, c in corpus.cards.items() if c.kind == "creature")
    for name in names:
        E._TEMPLATES.clear()
        _derive_enchanted(corpus, name, "Rhino Hide")
        started = prefixed[0]
        got = _derive_enchanted(corpus, name, "Rhino Hide", before=2)
        if prefixed[0] == started:
            continue  # its values read more than the card and the codex
        assert got == _derive_enchanted(corpus, name, "Rhino Hide", before=2, full=True), name
    assert prefixed[0] > len(names) // 2, (prefixed[0], len(names))


def test_no_prefix_when_an_effect_makes_it_lose_a_trait_for_good(corpus, prefixed):
    # `enchanted loses [...] and cannot gain`: what it may gain is known only from the effects on it
    enchantment = next(n for n, c in corpus.cards.items() if c.kind == "enchantment" and any(
        isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Lose) and ab.effect.cannot_gain
        for ab in c.abilities))
    E._TEMPLATES.clear()
    _derive_enchanted(corpus, "Iron Golem", "Rhino Hide")  # a prefix kept
    got = _derive_enchanted(corpus, "Iron Golem", enchantment)
    assert prefixed[0] == 0 and got.cannot_gain
    assert got == _derive_enchanted(corpus, "Iron Golem", enchantment, full=True)


def test_what_is_attached_is_read_as_of_the_state_version(corpus):
    # Effects._sources gathers what is attached to each host once per state version (Effects._finish
    # reads it): an enchantment attached later is read at the next derivation, one that leaves play is not
    barrier = next(n for n, c in corpus.cards.items() if c.kind == "enchantment"
                   and any("barrier" in a.special for a in c.attacks))
    g = _game(corpus)
    golem = g.create("Iron Golem", "x", "A", zone="B2")
    assert g.d(golem).barrier is None
    ench = g.create(barrier, "e", "A", attached_to="x")
    assert g.d(golem).barrier is not None and g.d(golem).barrier[1] == "e"
    g.state.remove_from_play(ench)
    assert g.d(golem).barrier is None
