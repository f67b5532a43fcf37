"""The movement procedure (engine/movement.py) on shipped cards: legal moves, refusals naming the rule,
line of sight from walls, hindering read from the codex, push directions and the events it fires.
Whole rulings live as scenarios under tests/scenarios/movement/."""
import pytest

from magewars.engine import Game, ScriptedDice
from magewars.engine import movement as M
from magewars.engine.state import Arena


def _game(corpus, arena=None, dice=None):
    g = Game(corpus, dice=dice, arena=arena)
    g.state.add_player("Ann")
    g.state.add_player("Bob")
    g.state.order = ["Ann", "Bob"]
    return g


def test_legal_moves_are_the_orthogonal_neighbours(corpus):
    g = _game(corpus)
    wolf = g.create("Timber Wolf", "w", "Ann", zone="B2")
    assert sorted(M.legal_moves(g, wolf)) == ["A2", "B1", "B3", "C2"]
    corner = g.create("Timber Wolf", "c", "Ann", zone="A1")
    assert sorted(M.legal_moves(g, corner)) == ["A2", "B1"]


def test_a_multi_zone_move_is_refused_before_anything_changes(corpus):
    g = _game(corpus)
    wolf = g.create("Timber Wolf", "w", "Ann", zone="A1")
    version = g.state.version
    with pytest.raises(M.IllegalMove) as e:
        M.move(g, wolf, "C4")
    assert e.value.rule == M.RULE_MOVE and "5 zones away" in str(e.value)
    assert wolf.zone == "A1" and wolf.moves_taken == 0 and g.state.version == version
    with pytest.raises(M.IllegalMove):
        M.move(g, wolf, "Z9")


def test_restrictions_come_from_the_codex_entries_carried(corpus):
    g = _game(corpus)
    wolf = g.create("Timber Wolf", "w", "Ann", zone="B2")
    g.create("Tanglevine", "v", "Bob", attached_to="w")
    assert M.legal_moves(g, wolf) == []
    with pytest.raises(M.IllegalMove) as e:
        M.move(g, wolf, "B3")
    assert e.value.rule.startswith("Codex: ")  # the entry that forbids it, whatever its name
    assert M.restriction(g, wolf, M.CANNOT_PUSHED)
    assert M.push(g, wolf, "B1", "Ann") is False and wolf.zone == "B2"


def test_fast_moves_twice_before_its_quick_action(corpus):
    g = _game(corpus)
    fox = g.create("Bitterwood Fox", "f", "Ann", zone="B2")
    wolf = g.create("Timber Wolf", "w", "Ann", zone="B3")
    assert M.moves_before_quick(g, fox) == 2 and M.moves_before_quick(g, wolf) == 1
    M.move(g, wolf, "B4")
    assert M.move_uses_quick_action(g, wolf) and not M.move_uses_quick_action(g, fox)


def test_hindering_reads_who_hinders_whom(corpus):
    g = _game(corpus)
    wolf = g.create("Timber Wolf", "w", "Ann", zone="B2")
    foe = g.create("Timber Wolf", "f", "Bob", zone="B2")
    friend = g.create("Timber Wolf", "x", "Ann", zone="B2")
    assert M.hinderers(g, wolf, "B2") == [foe]
    bat = g.create("Darkfenne Bat", "b", "Bob", zone="B2")
    assert bat not in M.hinderers(g, wolf, "B2") and M.hinderers(g, bat, "B2") == []
    assert friend not in M.hinderers(g, wolf, "B2")
    assert M.hindered(g, wolf, "B2", "B3")
    M.move(g, wolf, "B3")
    assert wolf.move_stopped and M.legal_moves(g, wolf) == []


def test_passage_blocked_wall_refuses_a_walker_not_a_flyer(corpus):
    g = _game(corpus)
    g.create("Wall of Stone", "s", "Bob")
    g.state.objects["s"].border = frozenset(("B2", "B3"))
    wolf = g.create("Timber Wolf", "w", "Ann", zone="B2")
    bat = g.create("Darkfenne Bat", "b", "Ann", zone="B2")
    assert "B3" not in M.legal_moves(g, wolf) and "B3" in M.legal_moves(g, bat)


def _wall(g, card, oid, a, b):
    w = g.create(card, oid, "Bob")
    w.border = frozenset((a, b))
    return w


def test_line_of_sight_from_walls(corpus):
    g = _game(corpus, arena=Arena(3, 4))
    assert M.in_los(g, "A1", "C4")  # nothing stands in the way
    _wall(g, "Wall of Stone", "s", "A1", "A2")
    assert not M.in_los(g, "A1", "A2") and not M.in_los(g, "A2", "A1")
    assert not M.in_los(g, "A1", "A4")  # straight along the row, through the wall
    assert M.in_los(g, "A1", "B1") and M.in_los(g, "B1", "B4")
    # a wall that does not block line of sight (Wall of Pikes) lets it through, and blocks no walker
    g2 = _game(corpus)
    _wall(g2, "Wall of Pikes", "p", "A1", "A2")
    assert M.in_los(g2, "A1", "A2") and M.in_los(g2, "A1", "A4")
    # a line ending at a wall is traced to the middle of its border, the wall itself no obstacle
    assert M.in_los(g, "A1", g.state.objects["s"])


def test_line_of_sight_through_a_corner_needs_both_ways_blocked(corpus):
    g = _game(corpus)
    _wall(g, "Wall of Stone", "s1", "A1", "A2")
    assert M.in_los(g, "A1", "B2")  # round the corner through B1
    _wall(g, "Wall of Stone", "s2", "A1", "B1")
    assert not M.in_los(g, "A1", "B2")  # both ways out of A1 walled
    # a line crossing a border away from any corner: A1 to B3 crosses A1|A2 first
    g3 = _game(corpus)
    _wall(g3, "Wall of Stone", "s3", "A1", "A2")
    assert not M.in_los(g3, "A1", "B3")


def test_objects_out_of_the_arena_are_out_of_sight(corpus):
    g = _game(corpus)
    wolf = g.create("Timber Wolf", "w", "Ann", zone="A1")
    gone = g.create("Timber Wolf", "g", "Bob", zone="A2")
    assert M.in_los(g, wolf, gone)
    g.destroy(gone)
    assert not M.in_los(g, wolf, gone)


def test_push_away_from_the_source_and_random_direction(corpus):
    g = _game(corpus, dice=ScriptedDice((), [5]))
    wolf = g.create("Timber Wolf", "w", "Ann", zone="B2")
    assert M.push_options(g, wolf, "B1") == ["east"]
    assert sorted(M.push_options(g, wolf, "A1")) == ["east", "south"]
    assert sorted(M.push_options(g, wolf, "B2")) == sorted(M.DIRECTIONS)
    assert M.push(g, wolf, None, "Ann", "random") and wolf.zone == "B3"  # 4-6: east


def test_moves_and_leaves_events_carry_the_places(corpus):
    g = _game(corpus)
    wolf = g.create("Timber Wolf", "w", "Ann", zone="B1")
    seen = []
    orig = g.fire

    def spy(event, subject, ctx, exclude=(), **info):
        seen.append((event, subject.id if subject else None, info.get("into"), info.get("zone")))
        return orig(event, subject, ctx, exclude, **info)
    g.fire = spy
    M.move(g, wolf, "B2")
    assert ("leaves", "w", "B2", "B1") in seen and ("moves", "w", "B2", None) in seen
    M.enter_zone(g, g.create("Timber Wolf", "n", "Ann"), "C1")
    assert ("enters", "n", None, "C1") in seen


def test_teleport_refused_for_what_cannot_be_teleported():
    # an entry stating `cannot(this, "be teleported")` (whatever its name) stops it
    from magewars.dsl import compile_sources
    from magewars.resources import data_dir
    base = sorted(data_dir("codex").rglob("*.mw"))
    plain, _ = compile_sources([], base=base)
    names = [n for n, d in plain.codex.items() if d.kind == "trait" and d.param is None
             and any(getattr(getattr(ab, "effect", None), "name", None) == "cannot"
                     and len(ab.effect.args) > 1 and getattr(ab.effect.args[1].value, "value", None)
                     == M.CANNOT_TELEPORTED for ab in d.abilities)]
    assert names
    text = f'creature "Probe Beast" {{\n  armor 1 life 5\n  traits {names[0]}\n}}\n'
    corpus, diags = compile_sources([("probe.mw", text)], base=base)
    assert not [d for d in diags if d.severity == "error"]
    g = _game(corpus)
    beast = g.create("Probe Beast", "p", "Ann", zone="B1")
    with pytest.raises(M.IllegalMove) as e:
        M.teleport(g, beast, "C4")
    assert e.value.rule == f"Codex: {names[0]}" and beast.zone == "B1"


def test_entering_play_runs_the_objects_own_enters_ability(corpus):
    # a shipped card whose own `when enters(this)` places a token on itself
    g = _game(corpus)
    card = next(c for c in corpus.cards.values() if c.kind in M.CONJURATION_KINDS and any(
        getattr(getattr(ab, "event", None), "name", None) == "enters"
        and any(getattr(e, "name", None) == "place_tokens" for e in ab.effects) for ab in c.abilities))
    obj = g.create(card.name, "o", "Ann")
    M.enter_zone(g, obj, "B2")
    assert obj.zone == "B2" and sum(obj.markers.values()) >= 1
    assert g.log.of_kind("trigger")


def test_a_moving_conjuration_never_enters_a_zone_with_one_of_its_name(corpus):
    g = _game(corpus)
    # Raincloud: a conjuration that moves itself one zone (R.conj-move.same-name)
    mover = g.create("Raincloud", "m", "Ann", zone="B2")
    g.create("Raincloud", "other", "Bob", zone="B3")
    with pytest.raises(M.IllegalMove) as e:
        M.move(g, mover, "B3", action=False)
    assert e.value.rule == M.RULE_CONJ and mover.zone == "B2"
    assert M.move(g, mover, "B1", action=False) and mover.zone == "B1"
