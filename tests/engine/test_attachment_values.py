"""An attachment's derived value reads its host apart (engine/effects.py, Effects._host_read): when no
trait of the host states statics about what is attached to it, a change of the host (it moves, gets a
marker, its own value is worked out again) sets the attachment's value aside instead of dropping it, and
the value is taken back only while the host still states none.  Each dependency is tested here: the host
gaining such a trait (Invisible, on a shipped creature), the host leaving play, and a change of the
attachment itself or of another object it read while its value is set aside."""
from __future__ import annotations

from magewars.engine import Game
from magewars.engine.effects import Effects
from magewars.engine.phrases import has_name

#: a shipped creature whose printed Invisible gives each enchantment attached to it Invisible (codex), and
#: which loses it for a while when it attacks (a lasting effect)
HOST = "Invisible Stalker"
TRAIT = "Invisible"
ENCHANTMENT = "Rhino Hide"


def _game(corpus):
    g = Game(corpus)
    g.state.add_player("Alice", mana=20)
    g.state.add_player("Bob", mana=20)
    g.create("Forcemaster", "mage", "Alice", zone="A1")
    g.create("Wizard", "other", "Bob", zone="C4")
    host = g.create(HOST, "host", "Alice", zone="B2")
    hide = g.create(ENCHANTMENT, "hide", "Alice", attached_to="host")
    return g, host, hide


def _fresh(g, obj):
    """The object's value worked out from nothing (a new, empty cache)."""
    new = Effects(g)
    new.temporary = g.effects.temporary
    kept, g.effects = g.effects, new
    try:
        return sorted(new.derived(obj).trait_names())
    finally:
        g.effects = kept


def _lose_for_a_while(g, host):
    """The host loses TRAIT until the end of the round: its card's own `lose_until(...)`, which it runs when
    it declares an attack, run here."""
    from magewars.dsl import ast as A
    from magewars.engine.phrases import Ctx
    call = next(e for ab in host.card.abilities if isinstance(ab, A.TriggeredAbility)
                for e in ab.effects if isinstance(e, A.Call) and e.name == "lose_until")
    g.run_effects([call], Ctx(this=host, it=host))
    assert not has_name(g, host, TRAIT)


def test_the_host_moving_sets_the_value_aside_and_takes_it_back(corpus):
    g, host, hide = _game(corpus)
    _lose_for_a_while(g, host)
    before = g.effects.derived(hide)
    assert not has_name(g, hide, TRAIT)
    assert hide.id in g.effects._quiet  # (read apart: the host carries no Invisible now)
    g.state.move_to_zone(host, "B3")
    g.effects.current_epoch()  # (the change is seen: the value is set aside)
    assert hide.id not in g.effects._cache and g.effects._quiet[hide.id][2] is before
    assert g.effects.derived(hide) is before  # taken back: the host still states nothing about it
    assert sorted(before.trait_names()) == _fresh(g, hide)


def test_the_host_getting_back_a_trait_about_what_is_attached_drops_the_value(corpus):
    g, host, hide = _game(corpus)
    _lose_for_a_while(g, host)
    before = g.effects.derived(hide)
    assert not has_name(g, hide, TRAIT) and hide.id in g.effects._quiet
    from magewars.engine.round import expire
    expire(g, "round")  # the host is Invisible again: so is what is attached to it (codex, Invisible)
    after = g.effects.derived(hide)
    assert after is not before
    assert TRAIT in after.trait_names()
    assert sorted(after.trait_names()) == _fresh(g, hide)


def test_a_value_read_with_the_host_stating_something_depends_on_all_of_it(corpus):
    g, host, hide = _game(corpus)
    before = g.effects.derived(hide)
    assert TRAIT in before.trait_names() and hide.id not in g.effects._quiet
    g.state.move_to_zone(host, "B3")
    g.effects.current_epoch()
    assert hide.id not in g.effects._quiet  # (dropped as before, not set aside)
    assert g.effects.derived(hide) is not before


def test_the_host_leaving_play_or_the_attachment_changing_while_set_aside(corpus):
    g, host, hide = _game(corpus)
    _lose_for_a_while(g, host)
    before = g.effects.derived(hide)
    g.state.move_to_zone(host, "B3")
    g.effects.current_epoch()
    assert g.effects._quiet[hide.id][2] is before
    g.state.add_marker(hide, "Corrode")  # the attachment itself changed while set aside: its value goes
    g.effects.current_epoch()
    assert hide.id not in g.effects._quiet
    again = g.effects.derived(hide)
    assert again is not before and sorted(again.trait_names()) == _fresh(g, hide)
    g.state.remove_from_play(host)  # gone: nothing of it is read, the value may be taken back
    g.effects.current_epoch()
    assert g.effects.derived(hide) is again


def test_a_value_reading_an_attachment_goes_with_its_host(corpus):
    """What a computation read of an attachment's value includes its host: a value reading the
    attachment is dropped when the host changes, as before (only the attachment's own value is set aside)."""
    g, host, hide = _game(corpus)
    _lose_for_a_while(g, host)
    g.effects.derived(hide)
    assert host.id in g.effects._deps[hide.id]  # (what a reader of it depends on)
    assert host.id not in g.effects._quiet[hide.id][1]  # (what it is set aside by)
