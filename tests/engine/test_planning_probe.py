"""What Planning asks of every spellbook card for an object given spells, read once where it depends on
the cards alone (engine/othercasters.py, engine/placement.py): the same answers as reading it afresh."""
from __future__ import annotations

import dataclasses
from collections import Counter

from magewars.dsl import ast as A
from magewars.engine import Game
from magewars.engine import othercasters as OC
from magewars.engine import placement as P
from magewars.engine import round as R
from magewars.engine.cardindex import index as card_index
from magewars.engine.casting import SPELL_KINDS
from magewars.engine.decisions import Agent
from magewars.engine.phrases import has_name
from magewars.engine.spellstatics import CAST_ONLY, COSTS, SPELLBOOK_ONLY
from magewars.spellbook import load_spellbook


class First(Agent):
    def __init__(self):
        self.asked = []

    def decide(self, d):
        self.asked.append(d)
        return d.options[0]


def _game(corpus, mage="Druid", other="Necromancer", agent=None):
    g = Game(corpus, agents=agent or First())
    g.state.add_player("Alice", mana=20)
    g.state.add_player("Bob", mana=20)
    g.create(mage, "mage", "Alice", zone="A1")
    g.create(other, "other", "Bob", zone="C4")
    return g


def _old_words_fit(src, words, kind, has, controller, level=None) -> bool:
    """The reading of plain words as it was, word after word (the reference for the plans)."""
    skip = -1
    for i, w in enumerate(words):
        if i == skip:
            continue
        low = w.text.lower()
        if low in ("spell", "spells", "card", "cards", "a", "an", "each", "object", "objects"):
            continue
        if low in ("your", "friendly"):
            if controller != src.controller:
                return False
            continue
        if low == "enemy":
            if controller == src.controller:
                return False
            continue
        stem = low[:-1] if low.endswith("s") and low[:-1] in P._KINDS else low
        if stem in P._KINDS:
            if kind != stem and not (stem == "creature" and kind in ("mage", "magestats")):
                return False
            continue
        if low == "level" and i + 1 < len(words) and words[i + 1].text.isdigit():
            skip = i + 1
            if level is None or level != int(words[i + 1].text):
                return False
            continue
        if w.kind != "name":
            return False
        neg = w.text.startswith("Non-")
        base = w.text[4:] if neg else w.text
        if has(base) == neg:
            return False
    return True


def _old_spell_fits(game, src, spell, phrase) -> bool:
    words = list(phrase.words)
    if any(w.text.lower() == "on" for w in words):
        return False  # (no targets: nothing after "on" fits)
    return _old_words_fit(src, words, spell.card.kind, lambda n: has_name(game, spell, n), spell.controller,
                          spell.card.level)


def _spell_phrases(corpus) -> list:
    """The phrases naming spells the engine reads with _spell_fits: what spawnpoints and familiars cast,
    cost changes, cast_only."""
    out = {}
    for card in corpus.cards.values():
        for ph in OC.own_casts(card)[0]:
            out.setdefault(ph.text, ph)
        ix = card_index(card)
        for name in (COSTS, CAST_ONLY):
            for inner, _once in ix.static_calls.get(name, ()):
                for a in inner.effect.args:
                    if isinstance(a.value, A.Phrase) and a.value.text != "this" and not a.key:
                        out.setdefault(a.value.text, a.value)
    return sorted(out.values(), key=lambda ph: ph.text)


def test_the_phrase_plans_answer_as_the_word_by_word_reading(corpus):
    """Every spell card of two books against every phrase naming spells in the corpus, for the spell's
    controller and an enemy: the kind/level/ownership checks before the names change no answer, and
    may_fit refuses only what does not fit."""
    g = _game(corpus)
    me, enemy = g.state.objects["mage"], g.state.objects["other"]
    cards = {c.name: c for book in ("druid", "necromancer", "wizard", "warlord")
             for c, _n in load_spellbook(book, corpus).cards}
    phrases = _spell_phrases(corpus)
    assert len(phrases) > 20 and any(" on " in f" {ph.text} " for ph in phrases)
    fits = refused_early = 0
    for card in cards.values():
        spell = P.probe(g, me, card, "A1")
        for src in (me, enemy):
            for ph in phrases:
                old = _old_spell_fits(g, src, spell, ph)
                assert P._spell_fits(g, src, spell, ph) == old, (card.name, ph.text, src.id)
                if not P.may_fit(src, card, me.controller, ph):
                    assert not old, (card.name, ph.text, src.id)
                    refused_early += 1
                fits += old
    assert fits and refused_early  # both answers occur


def test_own_casts_is_the_cards_reading(corpus):
    for card in corpus.cards.values():
        assert OC.own_casts(card) == OC._read_own_casts(card)
        assert OC.own_casts(card) is OC.own_casts(card)


def test_statics_follow_the_games_codex_entries(corpus):
    """A card's statics through its traits are kept, but a game whose codex holds another entry for a
    trait reads that one."""
    card = next(c for c in corpus.cards.values() if c.kind in SPELL_KINDS and not any(
        isinstance(ab, A.StaticAbility) and getattr(ab.effect, "name", None) == SPELLBOOK_ONLY
        for ab in c.abilities) and P._statics(_game(corpus), c, SPELLBOOK_ONLY))
    g = _game(corpus)
    assert P._statics(g, card, SPELLBOOK_ONLY)
    key = next(t.key for t in card.traits if g.codex_statics(t.key, SPELLBOOK_ONLY))
    g.codex[key] = dataclasses.replace(g.codex[key], abilities=())
    assert not P._statics(g, card, SPELLBOOK_ONLY)
    assert P._statics(_game(corpus), card, SPELLBOOK_ONLY)  # another game, the shipped entry


def test_mage_only_answers_per_mage_and_names_the_player_asked(corpus):
    """"X Mage Only": kept per Mage card, so a Druid and a Necromancer get their own answers; a player
    with no Mage is named in the message whoever asked first."""
    druid_only = next(c for c in corpus.cards.values() if c.kind in SPELL_KINDS
                      and any(t.text == "Druid Only" for t in c.traits))
    g = _game(corpus)
    assert list(P.mage_only(g, "Alice", druid_only)) == []
    why = list(P.mage_only(g, "Bob", druid_only))
    assert len(why) == 1 and "Necromancer cannot cast it" in why[0]
    assert list(P.mage_only(g, "Bob", druid_only)) == why
    g.state.add_player("Carol", mana=0)
    g.state.add_player("Dave", mana=0)
    assert [w for w in P.mage_only(g, "Carol", druid_only)] == \
        [f"{druid_only.name} is restricted to a kind of Mage, and Carol has no Mage the rules can read"]
    assert "Dave has no Mage" in next(P.mage_only(g, "Dave", druid_only))
    corpus._mage_only.clear()
    assert list(P.mage_only(g, "Bob", druid_only)) == why


def test_planning_offers_a_spawnpoint_what_may_be_given_says(corpus):
    """The names offered at Planning are those may_be_given lets through, read afresh for each card."""
    agent = First()
    g = _game(corpus, "Necromancer", "Druid", agent)
    rs = R.state_of(g)
    rs.library["Alice"] = Counter({c.name: n for c, n in load_spellbook("necromancer", corpus).cards})
    rs.library["Bob"] = Counter()
    g.create("Graveyard", "yard", "Alice", zone="A2")
    yard = g.state.objects["yard"]
    expect = sorted(n for n in rs.library["Alice"]
                    if OC.may_be_given(g, yard, corpus.cards[n]) is None)
    assert expect and len(expect) < len(rs.library["Alice"])
    assert all(corpus.cards[n].kind == "creature" for n in expect)
    rs.next_phase = R.phase_index("planning")
    R.run_phase(g)
    asked = [d for d in agent.asked if d.kind == "plan" and d.context.get("caster") == "yard"]
    assert [o.label for o in asked[0].options][:-1] == expect


def test_marker_cards_are_the_corpus_cards_of_those_kinds_with_no_cost(corpus):
    """Kept on the corpus; a corpus whose table of cards grows reads it again."""
    from magewars.dsl.corpus import Corpus
    kinds = frozenset(k for c in corpus.cards.values() if c.cast_cost is None and c.kind not in
                      ("mage", "magestats") for k in (c.kind,))
    assert kinds
    fresh = sorted((c for c in corpus.cards.values() if c.kind in kinds and c.cast_cost is None),
                   key=lambda c: c.name)
    assert fresh and OC._marker_cards(corpus, kinds) == fresh
    mine = Corpus(dict(corpus.cards), dict(corpus.codex))
    assert OC._marker_cards(mine, kinds) == fresh
    extra = dataclasses.replace(fresh[0], name="Aaa " + fresh[0].name)
    mine.cards[extra.name] = extra
    assert OC._marker_cards(mine, kinds) == [extra] + fresh
    assert OC._marker_cards(corpus, kinds) == fresh
