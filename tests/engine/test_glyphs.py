"""Glyphs (engine/glyphs.py) as the Elementalist and the Elemental Drake state them: the Glyphs an object owns
(`static glyphs(...)`), one placed on another object (`move_glyph`) and which schools each holds
(`glyph_schools`, read by the Drake's `cast_only(..., school_of:)`)."""
from __future__ import annotations

from magewars.engine import Game
from magewars.engine import glyphs as G
from magewars.engine import placement as P
from magewars.engine.decisions import FirstLegalAgent


def _game(corpus):
    g = Game(corpus, agents=FirstLegalAgent())
    g.state.add_player("Alice", mana=40)
    g.state.add_player("Bob", mana=0)
    ele = g.create("Elementalist Stats", "ele", "Alice", zone="A1")
    drake = g.create("Elemental Drake", "drake", "Alice", zone="A1")
    return g, ele, drake


def _run(g, this):
    """The object's `when cast(this)` abilities, run as it is cast."""
    from magewars.engine.phrases import Ctx
    for ab in this.card.abilities:
        if getattr(getattr(ab, "event", None), "name", None) == "cast":
            g.run_effects(ab.effects, Ctx(this=this, it=this))


def _refusals(g, caster, name):
    return [r for r, _ in P.restrictions(g, caster, g.card(name))]


def test_the_drake_holds_one_glyph_and_casts_only_its_school_until_it_leaves_play(corpus):
    g, ele, drake = _game(corpus)
    assert G.owned(g, ele) == ["Air", "Earth", "Fire", "Water"] and G.owned(g, drake) is None
    assert G.held_schools(g, drake) == [] and _refusals(g, drake, "Fireball") == ["cast-only"]
    _run(g, drake)  # its `when cast(this)`: the first Glyph offered (FirstLegalAgent): Air
    assert G.held_schools(g, drake) == ["Air"]
    assert G.held_schools(g, ele) == ["Earth", "Fire", "Water"]
    assert _refusals(g, drake, "Lightning Bolt") == [] and _refusals(g, drake, "Fireball") == ["cast-only"]
    assert _refusals(g, drake, "Stormfront Elemental") == ["cast-only"]  # an Air creature: not a Non-Creature spell
    # the Drake leaves play: the Glyph is back on the Elementalist
    g.state.remove_from_play(drake)
    assert G.held_schools(g, ele) == ["Air", "Earth", "Fire", "Water"]


def test_a_glyph_of_a_school_not_owned_does_nothing(corpus):
    g, ele, _ = _game(corpus)
    from magewars.dsl import ast as A
    from magewars.engine.phrases import Ctx
    call = A.Call("glyph", (A.Arg(None, A.Phrase((A.Word("this", "word"),))),
                            A.Arg(None, A.Phrase((A.Word("Holy", "name"),))), A.Arg(None, A.StringLit("active"))))
    G.p_glyph(g, call, Ctx(this=ele, it=ele))
    assert "Elementalist Stats [ele] has no Holy Glyph" in g.log.render()
    assert not G.v_glyph_active(g, A.Call("glyph_active", call.args[:2]), Ctx(this=ele, it=ele))
