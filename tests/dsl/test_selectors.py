"""Phrases compile to selectors: every shipped phrase, each selector part, the word vocabulary."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from magewars.dsl import ast as A
from magewars.dsl import selectors as S
from magewars.dsl import vocab as V
from magewars.dsl.checker import BASE_NAMES
from magewars.dsl.diagnostics import CODES
from magewars.dsl.parser import parse_file, parse_text
from magewars.resources import shipped_sources
from magewars.dsl import expand_paths

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def names(corpus):
    from magewars.dsl.checker import _named_trait_texts, _placed_token_names
    out = set(BASE_NAMES) | set(corpus.codex) | set(corpus.cards)
    for c in corpus.cards.values():
        out.update(c.subtypes)
    # tokens a card places are names other phrases may use, as the checker knows them
    files, _ = expand_paths(shipped_sources())
    for f in files:
        tree, _, _ = parse_file(f)
        for d in (tree.definitions if tree is not None else ()):
            out.update(_placed_token_names(d))
            out.update(_named_trait_texts(d))  # "Priestess Only", as the checker knows it
    return out


def phrase(text: str) -> A.Phrase:
    """The phrase as the parser reads it, from a one-line effect."""
    src = f'incantation "T" {{\n  effect: destroy({text})\n}}'
    tree, diags = parse_text(src, "t.mw")
    assert not diags, [d.format() for d in diags]
    return tree.definitions[0].items[0].effects[0].args[0].value


def comp(text: str, names) -> S.Selector:
    sel, diags = S.compile_phrase(phrase(text), names)
    assert sel is not None, [d.format() for d in diags]
    return sel


def _all_object_phrases():
    """Every phrase in an object position of the shipped corpus (targets, subjects, for each, obj args)."""
    files, _ = expand_paths(shipped_sources())
    out = {}
    funcs = V.EFFECT_FUNCS | V.VALUE_FUNCS | V.EVENT_FUNCS | V.TIMING_FUNCS

    def kind_of(call, i, arg):
        sig = funcs.get(call.name)
        if sig is None:
            return None
        if arg.key:
            return next((p.kind for p in sig.params if p.name == arg.key), None)
        fixed = [p for p in sig.params if not p.rest]
        if i < len(fixed):
            return fixed[i].kind
        return next((p.kind for p in sig.params if p.rest), None)

    def walk(x):
        if isinstance(x, A.Call):
            i = 0
            for a in x.args:
                k = kind_of(x, i, a)
                if not a.key:
                    i += 1
                if isinstance(a.value, A.Phrase):
                    if k == "obj":
                        out.setdefault(a.value, a.value.span)
                else:
                    walk(a.value)
            return
        if isinstance(x, A.Targets):
            for p in x.alternatives:
                out.setdefault(p, p.span)
            return
        if isinstance(x, (A.Gain, A.Lose, A.StatChange)):
            out.setdefault(x.subject, x.subject.span)
        if isinstance(x, A.ForEach):
            out.setdefault(x.over, x.over.span)
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            for f in dataclasses.fields(x):
                walk(getattr(x, f.name))
        elif isinstance(x, (list, tuple)):
            for y in x:
                walk(y)

    for f in files:
        tree, _, _ = parse_file(f)
        if tree is not None:
            walk(tree)
    return out


def test_every_shipped_object_phrase_compiles(corpus, names):
    phrases = _all_object_phrases()
    assert len(phrases) > 250  # the corpus has some 400 distinct ones
    bad = []
    for p, span in phrases.items():
        sel, diags = S.compile_phrase(p, names)
        if sel is None:
            bad.append(f"{span}: {p.text}: {[d.message for d in diags]}")
        # the checker kept the same selector for the engine
        assert corpus.selectors.get(p) == sel, p.text
    assert not bad, "\n".join(bad)


# ---------------------------------------------------------------- each selector part
def test_pronoun_and_possessive_forms(names):
    assert comp("this", names) == S.Pronoun("this", "this")
    assert comp("that creature", names) == S.Pronoun(word="that", kinds=V.CREATURE_KINDS)
    z = comp("this zone", names)
    assert isinstance(z, S.ZoneOf) and z.of == S.Pronoun(word="this")
    c = comp("controller of that spell", names)
    assert isinstance(c, S.ControllerOf) and c.of.word == "that" and not c.owner
    zo = comp("the zone of your Mage", names)
    assert isinstance(zo, S.ZoneOf) and zo.of.controller == "friendly" and zo.of.names == (S.NameTest("Mage"),)
    op = comp("Living objects controlled by its opponent", names)
    assert op.relations == (S.ControlledBy(S.OpponentOf(of=S.Pronoun(word="it"))),)


def test_quantifiers_and_adjectives(names):
    s = comp("each enemy Living creature in this zone", names)
    assert (s.quantifier, s.controller, s.kinds) == ("each", "enemy", V.CREATURE_KINDS)
    assert s.names == (S.NameTest("Living"),)
    assert s.relations == (S.InZone(S.ZoneOf(of=S.Pronoun(word="this"))),)
    assert comp("up to 2 other objects in the zone of target", names).count == 2
    assert comp("up to level 3 Holy spells", names).level_max is True
    t = comp("target level 1 revealed enchantment", names)
    assert (t.quantifier, t.level, t.visibility) == ("target", 1, "revealed")
    a = comp("another object", names)
    assert a.other and a.quantifier == "one"
    assert comp("a new target", names).new
    assert comp("a discarded Corporeal creature destroyed in the zone of this", names).state == "destroyed"


def test_negated_and_multiword_names(names):
    s = comp("Non-Flying Non-Aquatic Non-Uncontainable creature in this zone", names)
    assert s.names == (S.NameTest("Flying", True), S.NameTest("Aquatic", True), S.NameTest("Uncontainable", True))
    assert comp("each Psychic Immunity creature", names).names == (S.NameTest("Psychic Immunity"),)
    assert comp("each friendly creature in a zone with V'Tar Orb", names).relations == (
        S.InZone(S.Described(quantifier="one", domain="zone",
                             relations=(S.HasNames((S.NameTest("V'Tar Orb"),)),))),)


def test_relations(names):
    w = comp("target enemy creature within 2 zones of this", names)
    assert w.relations == (S.Within(2, S.Pronoun(word="this")),)
    assert comp("target zone within 1 zone", names).relations == (S.Within(1, S.THIS),)
    assert comp("equipment attached to target", names).relations == (S.AttachedTo(S.Pronoun(word="target")),)
    assert comp("enemy enchantments on enchanted", names).relations == (S.AttachedTo(S.Pronoun(word="enchanted")),)
    b = comp("a Corporeal wall on a border of this zone", names)
    assert b.relations == (S.OnBorderOf(S.ZoneOf(of=S.Pronoun(word="this"))),)
    assert comp("object with Burn", names).relations == (S.HasNames((S.NameTest("Burn"),)),)
    h = comp("target Non-Burn creature with a revealed friendly Curse enchantment", names)
    assert isinstance(h.relations[0], S.Holds) and h.relations[0].what.visibility == "revealed"
    assert comp("Familiar controlled by you", names).relations == (S.ControlledBy(S.Pronoun(word="you")),)
    assert isinstance(comp("a spell by enchanted", names).relations[0], S.CastBy)
    # "of" a player is control, "of" an object is attachment
    assert isinstance(comp("a destroyed creature of an opponent", names).relations[0], S.ControlledBy)
    assert isinstance(comp("each equipment of bearer", names).relations[0], S.AttachedTo)
    adj = comp("object in a zone adjacent to defender", names)
    assert adj.relations[0].zone.relations == (S.AdjacentTo(S.Pronoun(word="defender")),)


def test_zone_marker_player_and_border_domains(names):
    assert comp("the 2 adjacent zones", names).domain == "zone"
    assert comp("the 2 adjacent zones", names).adjacent
    assert comp("zone border", names).domain == "border"
    m = comp("Burn marker on this", names)
    assert (m.domain, m.names) == ("marker", (S.NameTest("Burn"),))
    assert comp("token on this", names).marker_kind == "token"
    assert comp("a vine marker", names).kinds == ("vine",)
    assert comp("opponent", names).opponent
    assert comp("your level 1 Animal creature spell", names).kinds == V.CREATURE_KINDS


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize("text, word", [
    ("creature melee", "melee"),
    ("creature from this", "from"),
    ("enemy creature in", None),  # nothing after 'in': the whole phrase is pointed at
    ("object within zones", "zones"),
    ("ranged creature", "ranged"),
    ("friendly creature Flying", "Flying"),
])
def test_words_not_understood_are_located(names, text, word):
    p = phrase(text)
    sel, diags = S.compile_phrase(p, names)
    assert sel is None
    assert [d.code for d in diags] == ["E106"]
    want = next(x.span for x in p.words if x.text == word) if word else p.span
    assert diags[0].span == want and (diags[0].span.line, diags[0].span.col) == (want.line, want.col)


def test_E106_reported_by_lint_with_location():
    from magewars.dsl import compile_sources
    src = 'incantation "T" {\n  effect: destroy(each creature from this)\n}\n'
    _, diags = compile_sources([("t.mw", src)])
    got = [d for d in diags if d.code == "E106"]
    assert got and (got[0].span.line, got[0].span.col) == (2, 33), [d.format() for d in diags]


def test_unknown_name_is_E103(names):
    sel, diags = S.compile_phrase(phrase("target Livng creature"), names)
    assert sel is None and diags[0].code == "E103" and "Living" in diags[0].hint


# ---------------------------------------------------------------- one vocabulary
def test_grammar_phrase_keywords_are_the_vocabulary():
    text = (ROOT / "grammar" / "magewars.lark").read_text()
    rule = re.search(r"^!pword:(.*?)(?=^\S|\n\n)", text, re.S | re.M).group(1)
    words = set(re.findall(r'"([a-z]+)"', rule))
    assert words == set(V.PHRASE_WORDS), (sorted(words - set(V.PHRASE_WORDS)), sorted(set(V.PHRASE_WORDS) - words))


def test_docs_phrase_word_lists_are_the_vocabulary():
    doc = (ROOT / "docs" / "dsl.md").read_text()
    section = doc.split("## Phrases", 1)[1].split("\n## ", 1)[0]
    listed = {}
    for m in re.finditer(r"^- (\w+): (.*)$", section, re.M):
        listed[m.group(1)] = {w.strip() for w in m.group(2).split(",")}
    plural = {"pronoun": "pronouns", "quantifier": "quantifiers", "adjective": "adjectives", "noun": "nouns",
              "relation": "relations", "attack": "attack words", "reserved": "reserved"}
    for role in V.PHRASE_ROLES:
        key = plural[role].split()[0]
        assert listed.get(key) == set(V.words_with_role(role)), role


def test_kind_groupings_and_implied_names_are_data(corpus):
    assert set(V.CREATURE_KINDS) | set(V.CONJURATION_KINDS) == set(V.OBJECT_KINDS)
    # names an object has by nature are stated by the codex (`static innate(...)`), never listed in Python
    innate = [(name, ab.effect) for name, e in corpus.codex.items() for ab in e.abilities
              if getattr(getattr(ab, "effect", None), "name", None) == "innate"]
    assert len(innate) >= 3
    for name, call in innate:
        unless = [a.value for a in call.args if a.key == "unless"]
        for group in unless:
            assert all(r.name.text in corpus.codex for r in group.traits), name
    for noun, (dom, kinds, _) in V.NOUN_MEANINGS.items():
        assert set(kinds) <= set(V.CARD_KINDS), noun


def test_E106_is_a_registered_code():
    assert "E106" in CODES


def test_a_name_argument_takes_only_capitalised_names():
    from magewars.dsl import compile_sources
    src = 'creature "A" {\n  armor 1 life 2\n  at upkeep: damage(this, tokens(this, creature))\n}\n'
    _, diags = compile_sources([("t.mw", src)])
    got = [d for d in diags if d.code == "E106"]
    assert got and (got[0].span.line, got[0].span.col) == (3, 40), [d.format() for d in diags]
