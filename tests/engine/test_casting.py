"""The casting sequence (engine/casting.py) on shipped cards: refusals change nothing, every choice
legal_casts offers can be cast, placement, face-down enchantments, line of sight from walls."""
from __future__ import annotations

import copy

import pytest

from magewars.engine import Game
from magewars.engine.actions import CastChoice
from magewars.engine.casting import CAST_STEPS, IllegalCast, cast_spell, legal_casts
from magewars.engine.phrases import Ctx
from magewars.engine import placement as P


def board(corpus, mana=20):
    """Alice's Wizard in B2 with her Timber Wolf; Bob's Priestess in B4 with his wolf in B3."""
    g = Game(corpus)
    g.state.add_player("Alice", mana=mana)
    g.state.add_player("Bob", mana=mana)
    g.create("Wizard", "wiz", "Alice", zone="B2")
    g.create("Timber Wolf", "wolf", "Alice", zone="B2")
    g.create("Priestess", "pri", "Bob", zone="B4")
    g.create("Timber Wolf", "fang", "Bob", zone="B3")
    return g


def snapshot(g):
    return (copy.deepcopy(g.view()), {p.name: p.mana for p in g.state.players.values()}, len(g.state.objects))


@pytest.mark.parametrize("spell,target,zone,rule,words", [
    ("Heal", "wiz", None, "mana", "not enough mana (needs 9, has 5)"),
    ("Minor Heal", "pri", None, "range", "out of range: 2 zone(s)"),
    ("Minor Heal", None, None, "target", "needs one target"),
    ("Bear Strength", "wiz", "B2", "target", "illegal target"),  # a target and a zone: the zone is no target
    ("Timber Wolf", None, "B3", "range", "range is 0-0"),
    ("Wall of Stone", None, "B2", "target", "zone border"),
    ("Staff of Beasts", "wiz", None, "mage-only", "Beastmaster Only"),
])
def test_a_refused_cast_names_its_rule_and_changes_nothing(corpus, spell, target, zone, rule, words):
    g = board(corpus, mana=5)
    before = snapshot(g)
    events = len(g.log.events)
    targets = [g.state.get(target)] if target else []
    with pytest.raises(IllegalCast) as err:
        cast_spell(g, g.state.get("wiz"), spell, targets, zone=zone)
    assert err.value.rule == rule
    assert words in str(err.value) and str(err.value).startswith("Casting: ")
    assert snapshot(g) == before
    assert len(g.log.events) == events  # not even a log line


def test_line_of_sight_is_blocked_by_a_wall_that_blocks_it(corpus):
    g = board(corpus)
    assert P.zone_los(g, "B2", "B4") and P.zone_los(g, "A1", "C4")
    g.create("Wall of Stone", "wall", "Bob", zone="B3").border = frozenset(("B2", "B3"))
    g.state.touch()
    assert not P.zone_los(g, "B2", "B3") and not P.zone_los(g, "B2", "B4")
    assert P.zone_los(g, "B2", "C3")  # round the end of the wall
    assert P.zone_los(g, "A2", "C2")  # along it
    with pytest.raises(IllegalCast) as err:
        cast_spell(g, g.state.get("wiz"), "Bear Strength", [g.state.get("fang")])
    assert err.value.rule == "line-of-sight"
    g.create("Wall of Thorns", "thorns", "Bob", zone="A2").border = frozenset(("A2", "A3"))
    g.state.touch()
    # a line through a corner is blocked only when both ways round are blocked
    assert P.zone_los(g, "A2", "B3") is False


def test_the_sequence_runs_its_steps_in_order_with_a_window_after_each(corpus):
    g = board(corpus)
    wolf = cast_spell(g, g.state.get("wiz"), "Timber Wolf", zone="B2")
    steps = [e.data.get("step") for e in g.log.events if e.kind == "step"]
    assert steps == list(CAST_STEPS)
    windows = [e.data.get("step") for e in g.log.events if e.kind == "window"]
    assert windows == list(CAST_STEPS)
    assert wolf is not None and wolf.zone == "B2" and wolf.in_play and wolf.action_marker == "used"
    assert g.state.players["Alice"].mana == 11


def test_enchantments_are_cast_face_down_and_pay_the_reveal_cost_later(corpus):
    g = board(corpus)
    bs = cast_spell(g, g.state.get("wiz"), "Bear Strength", [g.state.get("wolf")])
    assert bs.hidden and bs.attached_to == "wolf"
    assert g.state.players["Alice"].mana == 18  # casting cost 2 only
    before = g.d(g.state.get("wolf")).trait_names()
    g.reveals.reveal(bs)
    assert g.state.players["Alice"].mana == 15  # reveal cost 3 now
    assert not bs.hidden and g.d(g.state.get("wolf")).trait_names() != before


def test_a_wall_goes_on_a_border_and_equipment_on_a_mage(corpus):
    g = board(corpus)
    wall = cast_spell(g, g.state.get("wiz"), "Wall of Stone", zone="B2/C2")
    assert wall.border == frozenset(("B2", "C2"))
    gloves = cast_spell(g, g.state.get("wiz"), "Leather Gloves", [g.state.get("wiz")])
    assert gloves.attached_to == "wiz" and not gloves.hidden


def test_every_choice_legal_casts_offers_can_be_cast(corpus):
    names = ["Heal", "Minor Heal", "Timber Wolf", "Bear Strength", "Wall of Stone", "Leather Gloves",
             "Mana Crystal", "Dispel", "Lightning Bolt", "Force Push", "Nullify", "Staff of Beasts"]
    g0 = board(corpus)
    g0.create("Bear Strength", "bs", "Bob", attached_to="fang")
    offered = 0
    for name in names:
        choices = legal_casts(g0, g0.state.get("wiz"), name)
        assert all(isinstance(c, CastChoice) and c.card_name == name for c in choices)
        assert all(c.face_down == (g0.card(name).kind == "enchantment") for c in choices)
        for c in choices:
            g = board(corpus)
            g.create("Bear Strength", "bs", "Bob", attached_to="fang")
            cast_spell(g, g.state.get(c.caster_id), c.card_name, [g.state.get(t) for t in c.target_ids],
                       zone=c.zone, face_down=c.face_down)
            offered += 1
    assert offered > 30
    # and what it leaves out is refused
    assert legal_casts(g0, g0.state.get("wiz"), "Staff of Beasts") == []
    assert {c.target_ids for c in legal_casts(g0, g0.state.get("wiz"), "Minor Heal")} == {("wiz",), ("wolf",),
                                                                                         ("fang",)}
    assert [c.target_ids for c in legal_casts(g0, g0.state.get("wiz"), "Dispel")] == [("bs",)]


def test_a_spell_records_its_caster_for_phrases(corpus):
    from magewars.engine.phrases import matches
    g = board(corpus)
    spell = cast_spell(g, g.state.get("wiz"), "Timber Wolf", zone="B2")
    wiz, pri = g.state.get("wiz"), g.state.get("pri")
    assert matches(g, spell, "creature by your mage", Ctx(this=wiz))
    assert not matches(g, spell, "creature by your mage", Ctx(this=pri))


def test_a_countered_spell_keeps_its_cost_and_has_no_effect(corpus):
    g = board(corpus)
    g.create("Nullify", "null", "Bob", attached_to="fang", hidden=True)
    cast_spell(g, g.state.get("wiz"), "Force Push", [g.state.get("fang")])
    assert g.last_cast.status == "countered"
    assert g.state.players["Alice"].mana == 17 and g.state.get("fang").zone == "B3"
    assert not g.state.get("null").in_play


def test_a_caster_that_casts_only_some_spells(corpus):
    """Goblin Builder's card states `cast_only(this, Corporeal conjuration spells)`."""
    g = board(corpus)
    g.create("Goblin Builder", "gob", "Alice", zone="B2")
    with pytest.raises(IllegalCast) as err:
        cast_spell(g, g.state.get("gob"), "Bear Strength", [g.state.get("wolf")])
    assert err.value.rule == "cast-only" and "Corporeal conjuration spells" in str(err.value)
    crystal = cast_spell(g, g.state.get("gob"), "Mana Crystal", zone="B2")
    assert crystal is not None and crystal.zone == "B2"
    # the Wizard is not restricted by the Goblin's card
    assert cast_spell(g, g.state.get("wiz"), "Bear Strength", [g.state.get("wolf")]).hidden


def test_casting_scenarios_cite_real_rulings(shared_dir):
    """Every supplement ruling id a casting scenario cites exists in the reference list."""
    import csv
    import re
    from pathlib import Path
    with open(shared_dir / "reference" / "supplement-rulings.tsv", encoding="utf-8") as f:
        known = {r["id"] for r in csv.DictReader(f, delimiter="\t")}
    folder = Path(__file__).resolve().parents[1] / "scenarios" / "casting"
    cited = set()
    for p in sorted(folder.glob("*.yaml")):
        cite = next((ln for ln in p.read_text(encoding="utf-8").splitlines() if ln.startswith("cite:")), "")
        ids = set(re.findall(r"\b[RCAS]\.[a-z0-9-]+(?:\.[a-z0-9-]+)*", cite))
        assert ids <= known, f"{p.name} cites unknown rulings {sorted(ids - known)}"
        cited |= ids
    assert len(cited) >= 11


def test_gain_control_honours_mage_restrictions(corpus):
    """R.restrict.steal-forcefield: a Mage takes control of an unrestricted object; a spell restricted
    to another kind of Mage stays with its controller (succeeded() is false)."""
    from magewars.dsl import ast as A
    from magewars.engine.primitives import run_effect
    g = board(corpus)
    ff = g.create("Forcefield", "ff", "Bob", attached_to="pri")
    gloves = g.create("Leather Gloves", "gloves", "Bob", attached_to="pri")
    for obj, owner_after in ((gloves, "Alice"), (ff, "Bob")):
        call = A.Call("gain_control", (A.Arg(None, A.Phrase((A.Word("you", "word"),))),
                                       A.Arg(None, A.Phrase((A.Word("it", "word"),)))))
        ctx = Ctx(this=g.state.get("wiz"), it=obj)
        run_effect(g, call, ctx)
        assert obj.controller == owner_after
        assert ctx.extra["succeeded"] is (owner_after == "Alice")
    assert any("cannot take control of Forcefield" in e.text for e in g.log.events)
