"""Duel agents: who answers a player's decisions in a duel.

An agent sees a :class:`~magewars.engine.decisions.Decision` and its own player's view
(:class:`PlayerView`: the state as :meth:`Game.view` gives it to that player, so the
opponent's face-down enchantments are "hidden enchantment" and their planned spells are
absent).  It never gets the Game.  The :class:`Seat` adapter is the engine-facing
``Agent``: it builds the view, checks the decision is of a known kind and that the answer
is one of the options offered, and fails loudly (:class:`IllegalChoice`) otherwise.

Agents:

* ``random`` -- a uniformly random option, from its own seeded generator;
* ``greedy`` -- one step of look-ahead with a fixed heuristic (see :class:`GreedyAgent`);
* ``search`` -- Monte Carlo search over sampled copies of the game (see ``search.py``).

``roster.make_agent`` makes any of them by name.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..engine.decisions import Agent, Decision, Option, decision_kinds

# Every kind of decision the engine asks (engine/decisions.py lists them; Game.decide refuses others).
KNOWN_KINDS = frozenset(decision_kinds())


class IllegalChoice(Exception):
    """An agent answered with something that is not one of the options, or was asked
    a decision it cannot know (a kind outside the engine's vocabulary)."""


@dataclass
class PlayerView:
    """What one player may see when deciding: the engine's per-player state and their own name."""
    player: str
    state: dict  # Game.view(player): round, players' mana, objects (hidden names masked)
    extra: dict = field(default_factory=dict)

    @property
    def round(self) -> int:
        return self.state.get("round", 0)

    def mana(self, player: Optional[str] = None) -> int:
        return self.state["players"].get(player or self.player, {}).get("mana", 0)

    def objects(self) -> dict:
        return self.state["objects"]

    def opponents(self) -> list[str]:
        return [p for p in self.state["players"] if p != self.player]


class DuelAgent:
    """Answers decisions for one player.  Subclasses set `name` and implement `choose`."""
    name = "?"
    needs_view = False  # the seat builds a view only for agents that read it (building one costs time)
    view_kinds: Optional[frozenset] = None  # the decision kinds whose view it reads (None: every kind)

    def choose(self, decision: Decision, view: Optional[PlayerView]) -> Option:
        raise NotImplementedError


class RandomDuelAgent(DuelAgent):
    """A uniformly random option, from a generator seeded per game and side."""
    name = "random"

    def __init__(self, seed: int, corpus=None):
        self.rng = random.Random(seed)

    def choose(self, decision: Decision, view) -> Option:
        return self.rng.choice(decision.options)


class Seat(Agent):
    """The engine's agent for one player: view in, checked option out.

    `viewer` builds the player's view (bound by the runner once the game exists); the
    duel agent behind the seat never sees the game itself."""

    def __init__(self, player: str, agent: DuelAgent, viewer: Optional[Callable[[str], PlayerView]] = None):
        self.player = player
        self.agent = agent
        self.viewer = viewer
        self.decisions = 0
        self.choices: list[int] = []  # index of each option taken (the game's choice log, for this seat)

    def decide(self, decision: Decision) -> Option:
        if decision.kind not in KNOWN_KINDS:
            raise IllegalChoice(f"{self.agent.name} agent for {self.player}: unknown decision kind "
                                f"{decision.kind!r} ({decision.prompt})")
        if decision.player != self.player:
            raise IllegalChoice(f"{self.agent.name} agent for {self.player} was asked {decision.player}'s "
                                f"{decision.kind} decision")
        if not decision.options:
            raise IllegalChoice(f"{decision.kind} decision for {self.player} offers no option ({decision.prompt})")
        view = None
        if self.agent.needs_view and (self.agent.view_kinds is None or decision.kind in self.agent.view_kinds):
            if self.viewer is None:
                raise IllegalChoice(f"{self.agent.name} agent for {self.player} needs a view, and the seat "
                                    f"is not bound to a game yet ({decision.kind}: {decision.prompt})")
            view = self.viewer(self.player)
        choice = self.agent.choose(decision, view)
        for i, o in enumerate(decision.options):
            if o is choice:
                self.decisions += 1
                self.choices.append(i)
                return choice
        raise IllegalChoice(f"{self.agent.name} agent for {self.player} answered {choice!r}, which is not one "
                            f"of the {len(decision.options)} options of this {decision.kind} decision")


# ---------------------------------------------------------------- the greedy heuristic
MEAN_NORMAL = 0.5  # per attack die: faces -, -, 1, 2, 1*, 2* -> normal 3/6, critical 3/6
MEAN_CRITICAL = 0.5


def _int(amount: Any, default: int = 0) -> int:
    return amount if isinstance(amount, int) and not isinstance(amount, bool) else default


def expected_damage(dice: int, armor: int) -> float:
    """Expected damage of `dice` attack dice against `armor` (normal damage is reduced by armor,
    critical damage is not).  Uses the mean normal total, a slight underestimate of the spread."""
    return max(0.0, MEAN_NORMAL * dice - armor) + MEAN_CRITICAL * dice


class GreedyAgent(DuelAgent):
    """A one-step heuristic player.  Each option is scored and the best taken (ties: the first).

    * Attacks score the expected damage against the target's armor (critical dice ignore
      armor), doubled against the enemy mage (destroying it wins), plus a bonus equal to
      the target's remaining life when the expected damage would destroy it.
    * Casting scores value per mana: attack spells their expected damage; creatures their
      life plus attack dice (threat on the board); other spells a small flat value; all
      divided by the spell's cost plus one (mana efficiency).
    * Moving scores closing distance to the nearest enemy for a creature with no attack in
      reach; guarding a little; passing nothing.
    * Planning takes the affordable spells of best value per mana; defenses and
      counterstrikes are always used; reveals are taken when offered; every other decision
      takes the engine's default (or the first option).
    """
    name = "greedy"
    needs_view = True
    view_kinds = frozenset({"action", "plan", "target"})  # the others take a fixed rule or the default

    def __init__(self, seed: int = 0, corpus=None):
        if corpus is None:
            raise ValueError("the greedy agent reads card data: give it the corpus")
        self.corpus = corpus
        self.rng = random.Random(seed)  # only to break exact ties between equal options fairly

    # -- card facts (public: anyone may read a card named in the view)
    def card(self, name: Optional[str]):
        return self.corpus.cards.get(name) if name else None

    def obj(self, view: PlayerView, oid) -> dict:
        return view.objects().get(oid, {}) if oid is not None else {}

    def remaining(self, rec: dict) -> int:
        return max(0, _int(rec.get("life")) - _int(rec.get("damage")))

    def is_enemy_mage(self, view: PlayerView, oid) -> bool:
        rec = self.obj(view, oid)
        if not rec or rec.get("controller") == view.player:
            return False
        cd = self.card(rec.get("card"))
        return cd is not None and (cd.kind in ("mage", "magestats") or "Mage" in cd.subtypes)

    def attack_value(self, view: PlayerView, dice: int, target_ids) -> float:
        total = 0.0
        for tid in target_ids or ():
            rec = self.obj(view, tid)
            if not rec:
                continue
            sign = -1.0 if rec.get("controller") == view.player else 1.0
            exp = expected_damage(dice, _int(rec.get("armor")))
            v = exp * (2.0 if self.is_enemy_mage(view, tid) else 1.0)
            if rec.get("life") is not None and exp >= self.remaining(rec):
                v += self.remaining(rec)
            total += sign * v
        return total

    def spell_value(self, cd) -> float:
        if cd is None:
            return 0.0
        cost = _int(cd.cast_cost, 0)
        if cd.kind == "attack" and cd.attacks:
            v = max(expected_damage(_int(a.dice), 1) for a in cd.attacks)
        elif cd.kind == "creature":
            v = _int(cd.life) + max((_int(a.dice) for a in cd.attacks), default=0)
        else:
            v = 1.0
        return v / (cost + 1)

    def score_action(self, view: PlayerView, value) -> float:
        kind = type(value).__name__
        if kind == "AttackChoice":
            rec = self.obj(view, value.obj_id)
            cd = self.card(rec.get("card"))
            dice = 0
            if cd is not None:
                for a in cd.attacks:
                    if a.name == value.attack_name:
                        dice = _int(a.dice)
            return 1.0 + self.attack_value(view, dice, value.target_ids)
        if kind == "CastChoice":
            cd = self.card(value.card_name)
            base = self.spell_value(cd) * 3
            if cd is not None and cd.kind == "attack" and cd.attacks:
                base += self.attack_value(view, max(_int(a.dice) for a in cd.attacks), value.target_ids) / 2
            return 0.5 + base
        if kind == "MoveChoice":
            return self.move_value(view, value.obj_id, value.to_zone)
        if kind == "GuardChoice":
            return 0.3
        if kind == "AbilityChoice":
            return 0.4
        if kind == "PassChoice":
            return 0.0
        raise IllegalChoice(f"greedy agent: unknown action record {value!r}")

    def move_value(self, view: PlayerView, oid, to_zone) -> float:
        here = self.obj(view, oid).get("zone")
        enemies = [r.get("zone") for r in view.objects().values()
                   if r.get("in_play") and r.get("controller") != view.player and r.get("zone")
                   and r.get("life") is not None]
        if not here or not to_zone or not enemies:
            return 0.05
        before = min(_dist(here, z) for z in enemies)
        after = min(_dist(to_zone, z) for z in enemies)
        return 0.2 + 0.3 * (before - after)

    def choose(self, decision: Decision, view: PlayerView) -> Option:
        opts = decision.options
        if decision.kind == "action":
            return self._best(opts, lambda o: self.score_action(view, o.value))
        if decision.kind == "plan":
            mana = view.mana()
            return self._best(opts, lambda o: self._plan_value(o.value, mana))
        if decision.kind in ("defense", "counterstrike", "reveal"):
            for o in opts:  # use a defense, make the counterstrike, reveal when it is offered
                if o.value is not None and o.value is not False:
                    return o
            return opts[0]
        if decision.kind == "target":
            return self._best(opts, lambda o: self._target_value(view, o.value))
        if decision.default is not None:
            return opts[decision.default]
        return opts[0]

    def _plan_value(self, name, mana: int) -> float:
        cd = self.card(name) if isinstance(name, str) else None
        if cd is None:
            return -1.0  # a pass (None) or something that is not a card
        if _int(cd.cast_cost, 0) > mana + 10:
            return -0.5
        return self.spell_value(cd)

    def _target_value(self, view: PlayerView, value) -> float:
        oid = getattr(value, "id", value)
        rec = self.obj(view, oid) if isinstance(oid, str) else {}
        if not rec:
            return 0.0
        v = 10.0 if self.is_enemy_mage(view, oid) else 1.0
        return -v if rec.get("controller") == view.player else v

    def _best(self, opts, score) -> Option:
        best, best_v = [], None
        for o in opts:
            v = score(o)
            if best_v is None or v > best_v + 1e-9:
                best, best_v = [o], v
            elif abs(v - best_v) <= 1e-9:
                best.append(o)
        return best[0] if len(best) == 1 else self.rng.choice(best)


def _dist(a: str, b: str) -> int:
    try:
        return abs(ord(a[0].upper()) - ord(b[0].upper())) + abs(int(a[1:]) - int(b[1:]))
    except (ValueError, IndexError, TypeError):
        return 0
