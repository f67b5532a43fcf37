"""A new game's objects are made as the dataclasses would make them.

GameObject and Player are built by hand-written constructors (their light fields' stores set
directly, empty Counters made without Counter.__init__), the GameState and the Game set their
properties' stores directly, and every game starts from one shared "no attack kept" record.  These
tests hold the hand-written code to what the generated code did: the same fields, in the same order,
with the same defaults, a new container for each object, counted reads, and a shared record that no
game writes."""
import dataclasses
from collections import Counter

import pytest

from magewars.engine import FirstLegalAgent, Game, SeededDice
from magewars.engine.state import DAMAGE_READS, LIGHT_FIELDS, LIGHT_READS, GameObject, GameState, LightList, Player
from magewars.scenario.runner import base_corpus


@pytest.fixture(scope="module")
def corpus():
    return base_corpus()


def _default(f: dataclasses.Field):
    return f.default_factory() if f.default is dataclasses.MISSING else f.default


def test_game_object_fields_take_their_declared_defaults(corpus):
    card = corpus.cards["Timber Wolf"]
    a = GameObject("a", card, "A", "A")
    b = GameObject("b", card, "A", "A")
    for f in dataclasses.fields(GameObject)[4:]:
        got = getattr(a, f.name)
        want = _default(f)
        assert type(got) is type(want) and got == want, f.name
        if isinstance(want, (dict, set, list)):
            assert getattr(b, f.name) is not got, f"{f.name} shared between two objects"
    a.markers["x"] += 2  # a Counter: a missing key counts 0
    assert a.markers == Counter(x=2) and not b.markers


def test_game_object_takes_every_field_in_the_fields_order(corpus):
    card = corpus.cards["Timber Wolf"]
    names = [f.name for f in dataclasses.fields(GameObject)]
    values = [object() for _ in names]
    by_position = GameObject(*values)
    by_keyword = GameObject(**dict(zip(names, values)))
    for name, v in zip(names, values):
        assert getattr(by_position, name) is v, name
        assert getattr(by_keyword, name) is v, name
    kept = Counter(y=1)
    assert GameObject("c", card, "A", "A", markers=kept).markers is kept


def test_light_fields_count_their_reads_and_keep_what_is_written(corpus):
    o = GameObject("a", corpus.cards["Timber Wolf"], "A", "A", damage=3)
    for name in LIGHT_FIELDS:
        before = LIGHT_READS[0]
        getattr(o, name)
        assert LIGHT_READS[0] == before + 1, name
    before = DAMAGE_READS[0]
    assert o.damage == 3 and DAMAGE_READS[0] == before + 1
    o.damage = 5
    o.guard = True
    assert (o.damage, o.guard) == (5, True)
    p = Player("A", 7, 2)
    before = LIGHT_READS[0]
    assert (p.mana, p.channeling, p.mage_id) == (7, 2, None) and LIGHT_READS[0] == before + 1
    p.mana = 9
    assert p.mana == 9 and p == Player("A", 9, 2)


def test_a_new_state_reads_as_before():
    s = GameState()
    assert type(s.order) is LightList and s.order == [] and s.round == 1
    before = LIGHT_READS[0]
    assert s.round == 1 and LIGHT_READS[0] == before + 1
    s.add_player("A")
    s.order = ["A"]
    assert type(s.order) is LightList and s.order == ["A"]


def _game(corpus, seed):
    g = Game(corpus, SeededDice(seed), FirstLegalAgent())
    g.state.add_player("A", mana=100)
    g.state.add_player("B", mana=100)
    a = g.create("Timber Wolf", "a", "A", zone="B2")
    d = g.create("Timber Wolf", "d", "B", zone="B2")
    return g, a, d


def test_games_share_the_empty_attack_record_and_never_write_it(corpus):
    g1, a, d = _game(corpus, 1)
    g2, _, _ = _game(corpus, 2)
    start = g2._attack_listening
    assert g1._attack_listening is start and start.atk is None and g2.current_attack is None
    g1.attacks.make_attack(a, "Bite", [d])
    assert g1._attack_listening is not start  # the attack worked out a record of its own
    assert all(getattr(start, k) is None for k in type(start).__slots__)
    assert g2._attack_listening is start
    # the kept answers of Game.held and Game._heard start shared too, as of no version (-1): never written
    held, heard = g2._held, g2._heard_cache
    assert g1._held is held and g1._heard_cache is not heard  # the attack asked what may be heard
    assert held == (-1, {}) and heard == (-1, frozenset())
    assert g2.held(g2.state.objects["a"]) == [] and g2._held is not held and held == (-1, {})


def test_light_containers_are_made_when_first_read_and_kept(corpus):
    card = corpus.cards["Timber Wolf"]
    a = GameObject("a", card, "A", "A")
    b = GameObject("b", card, "A", "A")
    for name, kind in (("fresh", Counter), ("defense_uses", Counter), ("uses", set)):
        assert getattr(a, "_" + name) is None, f"{name} made before it was read"
        got = getattr(a, name)
        assert type(got) is kind and not got and getattr(a, name) is got
        assert getattr(b, name) is not got
    a.defense_uses[0] += 1
    a.uses.add(("once", 1))
    a.fresh["x"] += 1
    assert (a.defense_uses, a.uses, a.fresh) == (Counter({0: 1}), {("once", 1)}, Counter(x=1))
    assert (b.defense_uses, b.uses, b.fresh) == (Counter(), set(), Counter())
    given = Counter(y=2)
    c = GameObject("c", card, "A", "A", fresh=given)
    assert c.fresh is given
    c.fresh = Counter()
    assert c.fresh == Counter() and c.fresh is not given


def test_a_marker_placed_fresh_reads_back_through_the_lazy_container(corpus):
    g, a, d = _game(corpus, 3)
    g.state.add_marker(d, "Burn", 2, fresh=True)
    assert d.fresh == Counter(Burn=2) and d.markers["Burn"] == 2
    g.state.remove_marker(d, "Burn", 1)
    assert d.fresh == Counter(Burn=1)
    g.state.remove_marker(a, "Burn")  # nothing to remove: a's fresh markers stay empty
    assert a.fresh == Counter()


def test_a_new_game_keeps_what_it_sets_up_in_its_slots(corpus):
    g, a, d = _game(corpus, 4)
    # everything Game.__init__ (and the parts it makes) sets is a slot: an attribute added there without
    # its slot lands in the instance dict (and this test names it)
    assert vars(g) == {}
    for name in type(g).__slots__:
        if name != "__dict__":
            getattr(g, name)  # set (an unset slot raises AttributeError)
    # a module's own attribute on a game still has a place (restrictions' and movement's memos...)
    g._memo_of_some_module = {"k": 1}
    assert vars(g) == {"_memo_of_some_module": {"k": 1}} and g.__dict__.get("_memo_of_some_module") == {"k": 1}
    g.attacks.make_attack(a, "Bite", [d])
    assert g.log.events and g.current_attack is None


def test_create_puts_each_argument_in_its_field(corpus):
    g, a, d = _game(corpus, 5)
    assert (a.zone, a.attached_to, a.attached_zone, a.hidden, a.owner, a.border, a.facing) == \
        ("B2", None, None, False, "A", None, None)
    e = g.create("Rhino Hide", "e", "B", owner="A", attached_to="d", hidden=True)
    assert (e.zone, e.attached_to, e.attached_zone, e.hidden, e.controller, e.owner) == (None, "d", None, True, "B", "A")
    z = g.create("Rhino Hide", "z", "A", attached_zone="C1")
    assert (z.zone, z.attached_to, z.attached_zone, z.hidden, z.owner) == (None, None, "C1", False, "A")
    assert g.state.zone_of(e) == "B2" and g.state.zone_of(z) == "C1"


def test_adding_players_and_objects_changes_the_state_as_touch_and_next_timestamp_did(corpus):
    s = GameState()
    s.add_player("A")
    assert (s.version, s.shape_version, list(s.order)) == (1, 1, ["A"])
    card = corpus.cards["Timber Wolf"]
    a = s.add_object(GameObject("a", card, "A", "A", zone="A1"))
    stamp = s.next_timestamp()  # the clock goes on from the objects added
    b = s.add_object(GameObject("b", card, "A", "A", zone="A1"))
    assert (a.timestamp, stamp, b.timestamp) == (1, 2, 3)
    assert (s.version, s.shape_version) == (3, 3) and list(s.objects) == ["a", "b"]
    with pytest.raises(ValueError):
        s.add_object(GameObject("a", card, "A", "A"))
    assert (s.version, s._clock) == (3, 3)  # a refused object changes nothing
