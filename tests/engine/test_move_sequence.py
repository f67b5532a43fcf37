"""The move sequence as the rulebook's steps (Rules: Move Action, engine/movement.py MOVE_STEPS): a move
action runs them in order, and one whose costs cannot be paid stops at Pay Costs, canceled, its move action
lost (R.move.cost-unpaid) -- a move, or a teleport made in place of one.  Shipped cards charge the costs
(a conjuration charging every move action of non-Mage creatures; an undead that pays for each teleport it
makes instead of moving).  The whole rulings are scenarios (tests/scenarios/rulings/move_cost_unpaid.yaml)."""
import pytest

from magewars.engine import Game
from magewars.engine import movement as M


def _game(corpus, bob_mana):
    g = Game(corpus)
    g.state.add_player("Ann")
    g.state.add_player("Bob")
    g.state.order = ["Ann", "Bob"]
    g.state.players["Bob"].mana = bob_mana
    g.create("Suppression Orb", "orb", "Ann", zone="A1")
    return g


@pytest.fixture
def steps_run(monkeypatch):
    """The names of the move sequence's steps, as they run."""
    ran = []
    for name in M.MOVE_STEPS:
        real = getattr(M, name)

        def step(*a, _real=real, _name=name, **kw):
            ran.append(_name)
            return _real(*a, **kw)
        monkeypatch.setattr(M, name, step)
    return ran


def test_a_paid_move_runs_the_six_steps_in_order(corpus, steps_run):
    g = _game(corpus, 1)
    wolf = g.create("Timber Wolf", "w", "Bob", zone="B2")
    assert M.move(g, wolf, "B3") is True
    assert steps_run == list(M.MOVE_STEPS)
    assert steps_run == ["declare_move", "pay_costs", "leaving_zone", "walls", "move_to_zone", "entering_zone"]
    assert wolf.zone == "B3" and wolf.moves_taken == 1 and g.state.players["Bob"].mana == 0


def test_an_unpaid_move_is_canceled_at_pay_costs_and_its_action_lost(corpus, steps_run):
    g = _game(corpus, 0)
    wolf = g.create("Timber Wolf", "w", "Bob", zone="B2")
    assert M.legal_moves(g, wolf) == []  # not offered (movement.legal_moves says why)
    steps_run.clear()
    start = len(g.log.events)
    assert M.move(g, wolf, "B3") is False  # declared anyway: no refusal, the rulebook's outcome
    assert steps_run == ["declare_move", "pay_costs"]  # nothing after Pay Costs
    assert wolf.zone == "B2" and wolf.moves_taken == 1 and g.state.players["Bob"].mana == 0
    events = g.log.events[start:]
    lost = [e for e in events if e.kind == "canceled"]
    assert len(lost) == 1 and lost[0].data["step"] == "pay_costs" and lost[0].data["target"] == "w"
    assert "costs 1 mana" in lost[0].text and "move action is lost" in lost[0].text
    assert [e.kind for e in events if e.kind in ("move", "mana")] == []


def test_the_declaration_is_heard_before_the_costs_are_found_unpaid(corpus):
    # a curse answering a declared move (damage as the move is declared) strikes though the move is canceled
    g = _game(corpus, 0)
    wolf = g.create("Timber Wolf", "w", "Bob", zone="B2")
    g.create("Chains of Agony", "ch", "Ann", attached_to="w")
    assert M.move(g, wolf, "B3") is False
    assert wolf.damage == 1 and wolf.zone == "B2" and wolf.moves_taken == 1


def test_a_teleport_in_place_of_a_move_unpaid_is_canceled_and_its_action_lost(corpus):
    g = _game(corpus, 0)
    wraith = g.create("Grey Wraith", "gw", "Bob", zone="B2")
    assert M.teleport_moves(g, wraith) == []  # not offered unpaid
    assert "B3" in M.teleport_moves(g, wraith, costs=False)
    assert M.teleport_move(g, wraith, "B3") is False
    assert wraith.zone == "B2" and wraith.moves_taken == 1
    assert any(e.kind == "canceled" and e.data.get("step") == "pay_costs" for e in g.log.events)
    g.state.players["Bob"].mana = 1
    assert M.teleport_move(g, wraith, "B3") is True
    assert wraith.zone == "B3" and wraith.moves_taken == 2 and g.state.players["Bob"].mana == 0
