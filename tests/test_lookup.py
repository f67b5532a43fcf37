"""Tests of the rules lookup engine (magewars.lookup) over the packaged content."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from magewars.lookup import (CATEGORIES, LookupResult, RulesBook, complete, load_rules, render_rules,
                             render_text, to_json)

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared reference material is absent")


@pytest.fixture(scope="module")
def book() -> RulesBook:
    return load_rules()


def test_load_is_cached(book):
    assert load_rules() is book
    assert len(book.entries) > 200 and len(book.sections) > 50


def test_categories_valid(book):
    assert {e.category for e in book.entries} <= set(CATEGORIES)


def test_ids_unique(book):
    ids = [e.id for e in book.entries]
    assert len(ids) == len(set(ids))


def test_rule_numbers_unique_and_well_formed(book):
    numbers = [s.number for s in book.sections]
    assert len(numbers) == len(set(numbers))
    for n in numbers:
        assert re.fullmatch(r"\d+(\.\d+)*", n)
        if "." in n:
            assert n.rsplit(".", 1)[0] in book.section_map, f"{n} has no parent"
        assert book.section_map[n].title


def test_every_rule_reference_exists(book):
    bad = [(e.id, e.rule) for e in book.entries if e.rule and e.rule not in book.section_map]
    assert not bad


def test_every_see_also_target_exists(book):
    targets = set(book.by_id) | set(book.section_map)
    bad = [(e.id, s) for e in book.entries for s in e.see_also if s not in targets]
    bad += [(s.number, x) for s in book.sections for x in s.see_also if x not in targets]
    assert not bad, bad


def test_attack_procedure_has_ten_steps(book):
    steps = book.children("5.2")
    assert [s.title for s in steps] == [
        "Declare Attack", "Pay Costs", "Roll to Miss", "Avoid Attack", "Roll Dice",
        "Damage and Effects", "Additional Strikes", "Damage Barrier", "Counterstrike", "Attack Ends"]


@needs_shared
def test_every_glossary_term_resolves(book):
    glossary = json.loads((SHARED / "reference" / "codex-glossary.json").read_text())
    assert len(glossary) == 203
    bad = []
    for g in glossary:
        r = book.lookup(g["name"])
        if r.kind not in ("exact", "alias"):
            bad.append((g["name"], r.kind))
    assert not bad, bad


@needs_shared
def test_card_traits_and_conditions_resolve(book):
    """Every object/attack trait and effect-die condition printed in the card data finds an entry."""
    cards = json.loads((SHARED / "cards" / "cards.json").read_text())["cards"]
    names = set()
    for c in cards:
        names.update(t for t in c.get("traits") or [] if len(t) < 40 and "[" not in t)
        for a in c.get("attacks") or []:
            names.update(t for t in a.get("traits") or [] if t and len(t.split()) <= 6 and "=" not in t)
            for e in a.get("effects") or []:
                if isinstance(e, dict):
                    for k in e.get("conditions") or []:
                        names.update(x.strip() for x in k.split(";")[0].split("+"))
    skip = {"Once per round", "Spell", "No Damage", "Heal", "Zone",  # parsing debris in the source data
            "Can only target Corporeal Conjurations", "Destroy target Level 1 revealed enchantment"}
    bad = []
    for n in sorted(names - skip):
        r = book.lookup(n)
        if r.kind in ("none", "ambiguous"):
            bad.append((n, r.kind, r.candidates[:3]))
    assert not bad, bad


@pytest.mark.parametrize("query,kind,name", [
    ("Aegis X", "exact", "Aegis X"),
    ("aegis x", "exact", "Aegis X"),
    ("burn", "exact", "Burn"),
    ("piercing-x", "exact", "Piercing +X"),          # by id
    ("Aegis", "alias", "Aegis X"),
    ("LoS", "alias", "LoS (Line of Sight)"),
    ("Thorg's Taunt", "exact", "Thorg’s Taunt"),     # quote normalisation
    ("aegis 2", "fuzzy", "Aegis X"),
    ("Piercing +2", "fuzzy", "Piercing +X"),
    ("bloodthirsty +1", "fuzzy", "Bloodthirsty +X"),
    ("Flame +3", "fuzzy", "Flame +/-X"),
    ("flame -2", "fuzzy", "Flame +/-X"),
    ("regenerate 2", "fuzzy", "Regenerate X"),
    ("peircing", "fuzzy", "Piercing +X"),           # typo
    ("incorporal", "fuzzy", "Incorporeal"),
    ("counterstrik", "fuzzy", "Counterstrike"),
])
def test_lookup_kinds(book, query, kind, name):
    r = book.lookup(query)
    assert r.kind == kind, (r.kind, [e.name for e in r.entries], r.candidates)
    assert r.entries[0].name == name


def test_rule_number_lookup(book):
    r = book.lookup("5.2")
    assert r.kind == "rule" and r.section.number == "5.2" and r.section.title == "Attack procedure"
    r = book.lookup("5.2.3")
    assert r.kind == "rule" and r.section.title == "Roll to Miss"
    assert book.lookup("rule 4.2").section.title == "Hindering"
    r = book.lookup("99.9")
    assert r.kind == "none"


def test_section_title_lookup(book):
    r = book.lookup("Hindering")  # also an alias of Hinder: the entry wins over the section
    assert r.entries[0].id == "hinder"
    r = book.lookup("Move to New Zone")
    assert r.kind == "rule" and r.section.number == "4.1.5"


def test_ambiguous(book):
    r = book.lookup("passage")
    assert r.kind == "ambiguous"
    assert {"Passage Attacks", "Passage Blocked"} <= set(r.candidates)


def test_none(book):
    r = book.lookup("xyzzy plugh")
    assert r.kind == "none" and not r.entries
    assert book.lookup("   ").kind == "none"


def test_none_gives_suggestions(book):
    r = book.lookup("zzflying")
    assert r.kind in ("none", "fuzzy")
    if r.kind == "none":
        assert "Flying" in r.candidates


def test_extra_names_card_hit(book):
    extra = {"Iron Golem": "MW1C01", "Block": "MW1J05"}
    r = book.lookup("iron golem", extra_names=extra)
    assert r.kind == "card" and r.entries[0].name == "Iron Golem" and r.entries[0].card_id == "MW1C01"
    r = book.lookup("Block", extra_names=extra)   # card with clarifications
    assert r.kind == "card" and r.entries[0].clarifications and r.entries[0].card_id == "MW1J05"
    r = book.lookup("iron gollem", extra_names=extra)
    assert r.kind == "card" and r.entries[0].name == "Iron Golem"
    assert book.lookup("iron golem").kind == "none"


def test_card_clarification_without_extra_names(book):
    r = book.lookup("Force Push")
    assert r.kind == "card" and r.entries[0].errata


def test_term_and_card_same_name(book):
    r = book.lookup("Teleport")
    cats = [e.category for e in r.entries]
    assert r.kind == "exact" and cats[0] != "card" and "card" in cats


def test_render_text_and_json(book):
    e = book.get("aegis-x")
    text = render_text(e)
    assert text.startswith("Aegis X  [trait]") and "rule 5.7" in text
    data = to_json(e)
    json.dumps(data)
    assert data["id"] == "aegis-x" and data["aliases"] == ["Aegis"]
    e = book.get("extendable")
    assert "Errata:" in render_text(e) and "[Supplement 2016" in render_text(e)
    assert to_json(book.section("5.2"))["title"] == "Attack procedure"


def test_render_rules(book):
    whole = render_rules()
    assert "5.2.10 Attack Ends" in whole and whole.index("1. Game concepts") < whole.index("2. Round structure")
    one = render_rules("5.2")
    assert "5.2.1 Declare Attack" in one and "5.3 Kinds" not in one and "4.1" not in one
    with pytest.raises(KeyError):
        render_rules("98.1")


def test_rendered_lines_fit(book):
    for line in render_rules().splitlines():
        assert len(line) <= 100 or "See also" in line, line


def test_complete():
    assert "Flying" in complete("fly")
    assert all(c.lower().startswith("pie") for c in complete("pie"))
    assert "Piercing +X" in complete("Pie")
    assert complete("zzz") == []


def test_result_type(book):
    assert isinstance(book.lookup("burn"), LookupResult)
    assert book.lookup("burn") and not book.lookup("xyzzy")


# Names the brief requires the lookup to know (traits and conditions seen in the card data).
REQUIRED = """Flying, Elusive, Incorporeal, Corporeal, Living, Nonliving, Unavoidable, Ethereal, Piercing +X,
Aegis X, Tough -X, Acid +2, Flame -1, Frost +X, Hydro -2, Light +1, Lightning +2, Poison +1, Psychic +1,
Wind -3, Acid Immunity, Flame Immunity, Frost Immunity, Hydro Immunity, Light Immunity,
Lightning Immunity, Poison Immunity, Psychic Immunity, Wind Immunity, Regenerate X, Upkeep +X, Fast,
Slow, Lumbering, Unmovable, Uncontainable, Rooted, Finite Life, Bloodthirsty +X, Rage +X, Charge +X,
Melee +X, Ranged +X, Counterstrike, Doublestrike, Triplestrike, Sweeping, Reach, Defrost, Extinguish,
Vampiric, Intercept, Cantrip, Spellbind, Magebind +X, Extendable, Zone Exclusive, Unique, Epic,
Legendary, Novice, Passage Attacks, Passage Blocked, Blocks LoS, Indestructible, Invisible, Resilient,
Dissipate X, Burnproof, Pest, Familiar, Spawnpoint, Magecast, Warlock Only, Melting X, Formation,
Unstoppable, Climbing, Vigilant, Stance, Ki X, Drain, Uproot X, Autonomous, Swarm, Armor +X, Armor -X,
Mana Drain +X, Critical Damage, Zone Attack, Trample, Devour, +2 vs. Flying, Burn, Corrode, Cripple,
Daze, Rot, Sleep, Slam, Stun, Stagger, Weak, Bleed, Tainted, Stuck, Disable, Grapple, Suffocate,
Freeze, Growth, Zombie, Ichthellid Larva, Taunt, Snatch, Push, Incapacitated, Restrained, Guard"""


@pytest.mark.parametrize("name", [n.strip() for n in REQUIRED.replace("\n", " ").split(",")])
def test_required_names_resolve(book, name):
    r = book.lookup(name)
    assert r.kind in ("exact", "alias", "fuzzy"), (name, r.kind, r.candidates)
    assert r.entries[0].category in ("trait", "condition", "term")


def test_supplement_topics_have_sections(book):
    titles = {s.title.lower() for s in book.sections}
    for topic in ["attack actions", "attack procedure", "kinds of attacks", "modifying attack dice",
                  "guarding", "hindering", "mandatory actions", "the move sequence", "order of effects",
                  "revealing an enchantment", "replacing equipment", "destroyed and discarded",
                  "targeting", "teleporting", "walls and movement", "mage death", "damage barriers",
                  "traps", "duplicate enchantments", "spell restrictions"]:
        assert topic in titles, topic


def test_card_entry_and_extra_name_merge(book):
    """A card with a clarification entry and the same name in extra_names is one hit, with its id."""
    r = book.lookup("forcefeild", extra_names={"Forcefield": "FWE05", "Forcemaster": "X1"})
    assert r.kind == "card" and r.entries[0].card_id == "FWE05" and r.entries[0].clarifications
    r = book.lookup("force", extra_names={"Forcefield": "FWE05", "Forcemaster": "X1"})
    assert len(r.candidates) == len(set(r.candidates))


def test_every_term_links_to_a_rule(book):
    unlinked = [e.id for e in book.entries if e.category not in ("card", "ability") and not e.rule]
    assert not unlinked, unlinked


# Published rule numbers: they must never disappear or move (append new sections instead).
STABLE_NUMBERS = """
    1 1.1 1.2 1.3 1.4 1.5 1.6 1.7 1.8 2 2.1 2.2 2.3 2.4 2.5 2.6 2.7 2.8 2.9 3 3.1 3.2 3.3 3.4 3.5
    3.5.1 4 4.1 4.1.1 4.1.2 4.1.3 4.1.4 4.1.5 4.1.6 4.2 4.3 4.4 4.5 4.6 4.7 5 5.1 5.2 5.2.1 5.2.2
    5.2.3 5.2.4 5.2.5 5.2.6 5.2.7 5.2.8 5.2.9 5.2.10 5.3 5.4 5.5 5.6 5.7 5.7.1 5.8 5.9 5.10 5.11
    5.12 5.13 5.14 5.15 6 6.1 6.2 6.3 6.4 6.5 6.6 7 7.1 7.2 7.3 7.4 7.5 7.6 8 8.1 8.2 9 9.1 9.2 9.3
    9.4 10 10.1 10.2 10.3 10.4 11 11.1 11.2 11.3 12 12.1 13 13.1 13.2 13.3 13.4 13.5 13.6 14 14.1
    14.2 14.3 14.4 14.5
""".split()


def test_rule_numbers_are_stable(book):
    gone = [n for n in STABLE_NUMBERS if n not in book.section_map]
    assert not gone, f"rule numbers removed or renumbered: {gone}"
    assert book.section_map["5.2"].title == "Attack procedure"
    assert book.section_map["4.1"].title == "The move sequence"
