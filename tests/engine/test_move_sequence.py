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


# ---------------------------------------------------------------- a reveal window after each step
def _windows(g, start: int) -> list:
    """The steps the reveal windows opened since event `start` follow, in order."""
    return [e.data["step"] for e in g.log.events[start:] if e.kind == "window"]


def _hidden_on(g, obj, card="Force Hold", oid="hold", owner="Ann"):
    return g.create(card, oid, owner, attached_to=obj.id, hidden=True)


def test_the_step_names_are_the_languages():
    from magewars.dsl import vocab
    from magewars.engine import registry
    assert M.MOVE_STEPS is vocab.MOVE_STEPS and set(M.MOVE_STEPS) <= vocab.STEPS
    assert tuple(M.STEP_WORK) == M.MOVE_STEPS
    assert set(M.MOVE_STEPS) <= registry.REVEAL_AFTER_STEPS  # `reveal must ... after STEP` is checked there


def test_a_move_opens_a_window_after_each_of_its_six_steps(corpus, steps_run):
    g = _game(corpus, 1)
    wolf = g.create("Timber Wolf", "w", "Bob", zone="B2")
    start = len(g.log.events)
    assert M.move(g, wolf, "B3") is True
    assert _windows(g, start) == list(M.MOVE_STEPS) == steps_run
    # each window follows its step's work: the move is logged between the windows of steps 4 and 5
    kinds = [(e.kind, e.data.get("step")) for e in g.log.events[start:] if e.kind in ("window", "move")]
    assert kinds.index(("move", None)) == kinds.index(("window", "walls")) + 1
    assert kinds.index(("window", "move_to_zone")) == kinds.index(("move", None)) + 1


def test_an_unpaid_move_opens_no_window_after_pay_costs(corpus):
    g = _game(corpus, 0)
    wolf = g.create("Timber Wolf", "w", "Bob", zone="B2")
    start = len(g.log.events)
    assert M.move(g, wolf, "B3") is False
    assert _windows(g, start) == ["declare_move"]


def test_pushes_and_teleports_open_windows_after_the_steps_they_run(corpus):
    g = _game(corpus, 1)
    wolf = g.create("Timber Wolf", "w", "Bob", zone="B2")
    start = len(g.log.events)
    assert M.push(g, wolf, None, "Ann", "east") is True  # steps 3-6
    assert _windows(g, start) == ["leaving_zone", "walls", "move_to_zone", "entering_zone"]
    start = len(g.log.events)
    assert M.teleport(g, wolf, "C1") is True  # no Walls step
    assert _windows(g, start) == ["leaving_zone", "move_to_zone", "entering_zone"]
    wraith = g.create("Grey Wraith", "gw", "Bob", zone="B2")
    start = len(g.log.events)
    g.state.players["Bob"].mana = 1
    assert M.teleport_move(g, wraith, "B1") is True  # a teleport in place of a move action: all but Walls
    assert _windows(g, start) == ["declare_move", "pay_costs", "leaving_zone", "move_to_zone", "entering_zone"]
    assert wraith.zone == "B1" and wraith.moves_taken == 1 and g.state.players["Bob"].mana == 0


@pytest.mark.parametrize("step,arrives", [("declare_move", False), ("pay_costs", False), ("leaving_zone", False),
                                          ("walls", False), ("move_to_zone", True), ("entering_zone", True)])
def test_force_hold_revealed_after_a_step_stops_the_move_until_it_stands_in_the_new_zone(corpus, step, arrives):
    # Supplement: a reveal after any of the six steps; Force Crush / Force Hold revealed after the move is
    # declared cancel it, at the latest just before Move to New Zone (S.force-crush.latest)
    from magewars.engine.decisions import ScriptedAgent, ScriptedChoice
    g = _game(corpus, 1)
    g.state.players["Ann"].mana = 5
    wolf = g.create("Timber Wolf", "w", "Bob", zone="B2")
    hold = _hidden_on(g, wolf)
    passes = [ScriptedChoice("reveal", "pass", "Ann", s) for s in M.MOVE_STEPS[:M.MOVE_STEPS.index(step)]]
    g.agents = ScriptedAgent(passes + [ScriptedChoice("reveal", "Force Hold", "Ann", step)], lenient=False)
    start = len(g.log.events)
    assert M.move(g, wolf, "B3") is arrives
    assert not hold.hidden and g.state.players["Ann"].mana == 3
    # the Orb's mana is paid at Pay Costs: not when the move is stopped in the window after Declare Move
    assert g.state.players["Bob"].mana == (1 if step == "declare_move" else 0)
    assert wolf.zone == ("B3" if arrives else "B2") and wolf.moves_taken == 1
    done = M.MOVE_STEPS[:M.MOVE_STEPS.index(step) + 1]
    # a window after every step that ran: none after the one whose window canceled the move
    assert _windows(g, start) == [s for s in (M.MOVE_STEPS if arrives else done) if s != step]
    stopped = [e.text for e in g.log.events[start:] if "cannot complete its move" in e.text]
    assert stopped == ([] if arrives else ["Timber Wolf [w] cannot complete its move (now Restrained): it stays in B2"])


def test_a_trap_springs_in_entering_zone_between_the_last_two_windows(corpus):
    # R.move.traps-step6: the trap is revealed at step 6, after the window that follows Move to New Zone
    g = _game(corpus, 1)
    g.state.players["Ann"].mana = 5
    wolf = g.create("Timber Wolf", "w", "Bob", zone="B2")
    g.create("Hellfire Trap", "trap", "Ann", attached_zone="B3", hidden=True)
    start = len(g.log.events)
    M.move(g, wolf, "B3")
    order = [("window", e.data["step"]) if e.kind == "window" else (e.kind,) for e in g.log.events[start:]
             if e.kind in ("window", "reveal", "move")]
    assert order[:6] == [("window", "declare_move"), ("window", "pay_costs"), ("window", "leaving_zone"),
                         ("window", "walls"), ("move",), ("window", "move_to_zone")]
    assert order[6] == ("reveal",) and order[-1] == ("window", "entering_zone")
    assert not g.state.objects["trap"].in_play or not g.state.objects["trap"].hidden


def test_a_hidden_enchantment_stays_hidden_in_the_windows_log(corpus):
    # an enchantment offered and passed over in the move's windows is named to nobody
    g = _game(corpus, 1)
    wolf = g.create("Timber Wolf", "w", "Bob", zone="B2")
    _hidden_on(g, wolf)
    g.state.players["Ann"].mana = 5
    start = len(g.log.events)
    assert M.move(g, wolf, "B3") is True
    assert all("Force Hold" not in e.text for e in g.log.events[start:])


def _step_events(g, start):
    return [(e.data["step"], e.text, e.data["move"], e.data["target"]) for e in g.log.events[start:] if e.kind == "step"]


def test_each_step_that_runs_shows_its_rulebook_title_in_the_log(corpus):
    """The log shows the move sequence as the attack and casting sequences are shown: a `step` event with
    the rulebook's title before each step that runs, and none for a step skipped or never reached."""
    g = _game(corpus, 1)
    wolf = g.create("Timber Wolf", "w", "Bob", zone="B2")
    start = len(g.log.events)
    assert M.move(g, wolf, "B3") is True
    assert _step_events(g, start) == [
        ("declare_move", "Declare Move", "moves", "w"), ("pay_costs", "Pay Costs", "moves", "w"),
        ("leaving_zone", "Leaving Zone Effects", "moves", "w"), ("walls", "Walls", "moves", "w"),
        ("move_to_zone", "Move to New Zone", "moves", "w"), ("entering_zone", "Entering Zone Triggers", "moves", "w")]
    start = len(g.log.events)
    assert M.move(g, wolf, "B2") is False  # Bob's mana is spent: canceled at Pay Costs
    assert _step_events(g, start) == [("declare_move", "Declare Move", "moves", "w"),
                                      ("pay_costs", "Pay Costs", "moves", "w")]
    start = len(g.log.events)
    assert M.change_zone(g, wolf, "B2", "teleported", walls_step=False) is True  # an effect's teleport
    assert [s[0] for s in _step_events(g, start)] == ["leaving_zone", "move_to_zone", "entering_zone"]
    start = len(g.log.events)
    assert M.change_zone(g, wolf, "B3", "pushed") is True
    assert [s[:3] for s in _step_events(g, start)] == [
        ("leaving_zone", "Leaving Zone Effects", "pushed"), ("walls", "Walls", "pushed"),
        ("move_to_zone", "Move to New Zone", "pushed"), ("entering_zone", "Entering Zone Triggers", "pushed")]
