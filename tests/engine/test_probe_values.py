"""A spell not yet cast, asked about through a probe (engine/placement.py), has the derived values of
its own zone and attachment: the derived-value cache (engine/effects.py), kept by object id, never
answers one probe with the value worked out for another probe of the same caster and card."""
from __future__ import annotations

import pytest

from magewars.engine import Game
from magewars.engine import placement as P
from magewars.engine.phrases import has_name


def _game(corpus):
    g = Game(corpus)
    g.state.add_player("Alice", mana=20)
    g.state.add_player("Bob", mana=20)
    g.create("Druid", "mage", "Alice", zone="A1")
    g.create("Necromancer", "other", "Bob", zone="C4")
    # each object in its zone loses one trait and gains another (a static about its own zone)
    g.create("Voltaric Veil", "veil", "Bob", zone="B2")
    return g


def _zone_traits(g):
    """(the trait the Veil's zone takes away, the one it gives), read from the card's statics."""
    veil = g.card("Voltaric Veil")
    lost = gained = None
    for ab in veil.abilities:
        eff = getattr(ab, "effect", None)
        kind = type(eff).__name__
        if kind in ("Gain", "Lose"):
            name = eff.traits.traits[0].name.text if hasattr(eff.traits, "traits") else None
            if kind == "Lose":
                lost = name
            else:
                gained = name
    assert lost and gained
    return lost, gained


@pytest.mark.parametrize("first", ["B2", "A1"])
def test_probes_in_two_zones_keep_their_own_derived_values(corpus, first):
    g = _game(corpus)
    lost, gained = _zone_traits(g)
    mage, wolf = g.state.objects["mage"], g.card("Timber Wolf")
    zones = [first, "A1" if first == "B2" else "B2"]
    got = {}
    for z in zones:
        spell = P.probe(g, mage, wolf, z)
        got[z] = (has_name(g, spell, lost), has_name(g, spell, gained))
    assert got["B2"] == (False, True)  # in the Veil's zone
    assert got["A1"] == (True, False)  # elsewhere


def _host_gift(g, host):
    """The trait a creature's printed traits give each enchantment attached to it, read from the codex."""
    for t in g.card(host).traits:
        entry = g.codex.get(t.key)
        for ab in entry.abilities if entry is not None else ():
            eff = getattr(ab, "effect", None)
            subject = " ".join(w.text for w in getattr(eff, "subject", None).words) if hasattr(eff, "subject") else ""
            if type(eff).__name__ == "Gain" and subject.startswith("each enchantment attached to this"):
                return eff.traits.traits[0].name.text
    raise AssertionError(f"nothing of {host} gives what is attached to it a trait")


@pytest.mark.parametrize("held_first", [True, False])
def test_an_attached_probe_and_an_unattached_one_keep_their_own_values(corpus, held_first):
    g = _game(corpus)
    mage = g.state.objects["mage"]
    g.create(HOST, "host", "Bob", zone="C3")
    gift = _host_gift(g, HOST)
    card = g.card("Rhino Hide")
    # as x_from_card makes it: attached to the creature it will enchant
    held = P.fresh_probe(mage, card, "A1", attached_to="host")
    loose = P.probe(g, mage, card, "A1")
    got = {}
    order = [("held", held), ("loose", loose)] if held_first else [("loose", loose), ("held", held)]
    for name, spell in order:
        got[name] = has_name(g, spell, gift)
    assert got == {"held": True, "loose": False}


#: a creature whose printed trait gives what is attached to it a trait of its own
HOST = "Invisible Stalker"


def test_no_two_probes_share_an_id_in_a_seeded_duel(monkeypatch):
    """Every object not in the game that reaches the derived-value cache (a probe) has an id of its own:
    two with the same id are the same in every field a derived value may read."""
    from magewars.duel.runner import DuelConfig, setup_game
    from magewars.engine.effects import Effects

    seen: dict = {}
    clash: list = []
    derived = Effects.derived

    def watched(self, obj):
        if dict.get(self.game.state.objects, obj.id) is not obj:
            fields = (obj.controller, obj.owner, id(obj.card), obj.zone, obj.attached_to, obj.attached_zone,
                      obj.border, obj.hidden, obj.in_play, tuple(obj.markers.items()))
            if seen.setdefault(obj.id, fields) != fields:
                clash.append(obj.id)
        return derived(self, obj)

    monkeypatch.setattr(Effects, "derived", watched)
    game, _, _, _ = setup_game(DuelConfig(("beastmaster", "wizard"), seed=3, max_rounds=4), 0)
    game.play(max_rounds=4)
    assert len(seen) > 10  # probes were asked about
    assert not clash, f"probes sharing an id: {sorted(set(clash))}"
