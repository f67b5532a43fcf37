"""The ``search`` agent: Monte Carlo look-ahead over sampled copies of the game.

At an action decision the agent keeps the few options the greedy heuristic likes best and,
for each, plays the game on several copies a few rounds ahead, then scores where each copy
ends up; it takes the option with the best mean.  Every other decision goes to the greedy
heuristic.

**How a copy is made.**  The engine asks its decisions from deep inside its own call stack
(a creature's activation, inside the action phase, inside the round), so a copy of the Game
object alone could not be resumed at the decision.  The agent copies the whole process
instead (``os.fork``): the child holds a copy of everything, the call stack included,
answers the decision with the option under test, and plays on.  Before it plays on, the
child *determinizes* what the searching player may not know:

* the opponent's face-down enchantments become enchantments drawn at random from the
  opponent's spellbook (their real names are overwritten, never read);
* the opponent's planned spells become spells drawn from their spellbook;
* the dice are re-seeded, so the copy cannot know the real game's coming rolls.

Both sides then play by the greedy heuristic (the rollout policy) until the horizon (by default
the end of the current round) or the end of the game.  The k-th copy of every candidate gets the
same guesses and dice (common random numbers), so candidates are compared on the same futures.  The child writes one number — the
searching player's score — to a pipe and exits; it never returns into the caller.  A copy
that takes longer than its time limit is stopped and scores as a draw.

Reproducible: the copies' dice and samples come from the agent's own seeded generator.
Needs ``os.fork`` (Linux, macOS); elsewhere the agent refuses to start.
"""
from __future__ import annotations

import os
import random
import select
import signal
import struct
from typing import Optional

from ..engine.decisions import Decision, Option
from .agents import DuelAgent, GreedyAgent, PlayerView, Seat

DEFAULT_ITERATIONS = 6  # copies played per action decision (spread over the candidates)
DEFAULT_CANDIDATES = 3  # options the greedy heuristic ranks highest, searched further
DEFAULT_HORIZON = 1  # rounds played ahead (1: to the end of the current round)
SWITCH_MARGIN = 0.01  # mean gain (in score_view's [0, 1]) another candidate needs over greedy's first choice
DEFAULT_GAME_BUDGET = 1500  # copies one agent may play in one game; then greedy answers alone
COPY_DECISIONS = 400  # decisions a copy may play before it is scored where it stands (deterministic bound)
CHILD_TIME_LIMIT = 120.0  # seconds a copy may take: a safety net only (a copy stopped by it scores as a draw,
# and that would depend on the machine's load; the decision bound above ends copies long before)


class SearchUnavailable(Exception):
    pass


# Set in a forked copy: what to do when the copy's game ends, reaches the horizon or fails.
_rollout: Optional["_Rollout"] = None


class _Rollout:
    def __init__(self, fd: int, player: str, game, horizon_round: int, evaluator):
        self.fd, self.player, self.game = fd, player, game
        self.horizon_round = horizon_round
        self.evaluate = evaluator
        self.decisions = 0

    def finish(self, value: float) -> None:
        try:
            os.write(self.fd, struct.pack("<d", float(value)))
        finally:
            os._exit(0)


def in_rollout() -> bool:
    return _rollout is not None


def rollout_ended(result=None, error: Optional[BaseException] = None) -> None:
    """Called by the runner when a game returns or fails: in a copy, report and exit; else nothing."""
    r = _rollout
    if r is None:
        return
    if error is not None:
        r.finish(0.5)  # a copy that fails says nothing about the option
    winner = getattr(result, "winner", None)
    if winner is None:
        r.finish(0.5)
    r.finish(1.0 if winner == r.player else 0.0)


class _RolloutAgent(GreedyAgent):
    """The rollout policy inside a copy: greedy, and the one that stops the copy at the horizon."""
    name = "rollout"

    def __init__(self, seed, corpus, rollout: _Rollout):
        super().__init__(seed, corpus)
        self.rollout = rollout

    def choose(self, decision: Decision, view: PlayerView) -> Option:
        r = self.rollout
        r.decisions += 1
        if r.game.state.round > r.horizon_round or r.decisions > COPY_DECISIONS:
            r.finish(r.evaluate(r.game.view(r.player)))
        return super().choose(decision, view)


def score_view(state: dict, player: str, corpus) -> float:
    """How well `player` stands, in [0, 1]: the mages' remaining life as fractions (weighted 3 to 1
    against the creatures' remaining life on each side), 0.5 for an even position."""
    mine = theirs = 0.0
    mage_mine = mage_theirs = None
    for rec in state["objects"].values():
        if not rec.get("in_play") or rec.get("life") is None:
            continue
        life = rec["life"] or 0
        left = max(0, life - (rec.get("damage") or 0))
        cd = corpus.cards.get(rec.get("card"))
        is_mage = cd is not None and (cd.kind in ("mage", "magestats") or "Mage" in cd.subtypes)
        if is_mage:
            frac = left / life if life else 0.0
            if rec.get("controller") == player:
                mage_mine = frac
            else:
                mage_theirs = frac
        elif rec.get("controller") == player:
            mine += left
        else:
            theirs += left
    if mage_mine is None or mage_mine <= 0:
        return 0.0
    if mage_theirs is None or mage_theirs <= 0:
        return 1.0
    creatures = (mine - theirs) / (mine + theirs) if mine + theirs else 0.0
    return min(1.0, max(0.0, 0.5 + 0.375 * (mage_mine - mage_theirs) + 0.125 * creatures))


class SearchAgent(DuelAgent):
    name = "search"
    needs_view = True
    view_kinds = GreedyAgent.view_kinds  # it searches action decisions; greedy answers the rest

    def __init__(self, seed: int, corpus=None, iterations: int = DEFAULT_ITERATIONS,
                 candidates: int = DEFAULT_CANDIDATES, horizon: int = DEFAULT_HORIZON,
                 budget: int = DEFAULT_GAME_BUDGET):
        if not hasattr(os, "fork"):
            raise SearchUnavailable("the search agent copies the game with os.fork, which this system lacks")
        if corpus is None:
            raise ValueError("the search agent reads card data: give it the corpus")
        self.corpus = corpus
        self.rng = random.Random(seed)
        self.greedy = GreedyAgent(self.rng.getrandbits(63), corpus)
        self.iterations = max(1, int(iterations))
        self.candidates = max(1, int(candidates))
        self.horizon = max(0, int(horizon))
        self.budget = max(0, int(budget))  # bounds a game's time: copies x horizon x the copy's time limit
        self.seat: Optional[Seat] = None  # the seat the agent sits on (set by the seat)
        self.copies = 0  # copies played (for the benchmark)
        self.spent = 0  # copies charged to the game's budget (every candidate's full share per decision)
        self.sampler = None  # bound by the runner: makes a copy's hidden information up (determinize)

    def choose(self, decision: Decision, view: PlayerView) -> Option:
        if decision.kind != "action" or len(decision.options) == 1 or in_rollout() or self.sampler is None:
            return self.greedy.choose(decision, view)
        ranked = sorted(range(len(decision.options)),
                        key=lambda i: -self.greedy.score_action(view, decision.options[i].value))
        cands = ranked[:self.candidates]
        per = max(1, self.iterations // max(1, len(cands)))
        if len(cands) == 1 or self.spent + per * len(cands) > self.budget:
            return decision.options[cands[0]]  # nothing to compare, or this game's budget is spent
        # The budget is charged the whole comparison, copies skipped below or not, so skipping never
        # changes when it runs out (and never changes a choice).
        self.spent += per * len(cands)
        # Common random numbers: the k-th copy of every candidate gets the same guesses and dice, so
        # the candidates are compared on the same sampled futures (far less noise per copy).
        seeds = [self.rng.getrandbits(63) for _ in range(per)]
        top = cands[0]
        values: dict = {}
        for i in cands:
            values[i] = []
            for k, seed in enumerate(seeds):
                v = self._play_copy(decision, i, view, seed)
                if isinstance(v, Option):
                    return v  # this process is a copy: it answers with the option under test
                values[i].append(v)
                if i != top and v <= values[top][k]:
                    break  # not better on this future: it cannot replace greedy's choice (_pick), so
                    # its remaining copies would change nothing
        return decision.options[self._pick(cands, values)]

    @staticmethod
    def _pick(cands: list, values: dict) -> int:
        """Greedy's first choice, unless another candidate beats it on *every* sampled future (the
        same futures: common random numbers) and by more than SWITCH_MARGIN on average; of those,
        the one with the largest mean gain.  A few copies per option carry dice noise of the same
        size as most real differences; taking the best mean then follows the noise (a coin flip
        between options greedy ranks close) as often as the signal."""
        top = cands[0]
        best, best_gain = top, SWITCH_MARGIN
        for i in cands[1:]:
            diffs = [a - b for a, b in zip(values[i], values[top])]
            gain = sum(diffs) / len(diffs)
            if min(diffs) > 0 and gain > best_gain + 1e-12:
                best, best_gain = i, gain
        return best

    def _play_copy(self, decision: Decision, index: int, view: PlayerView, seed: int):
        """The score of one copy played with option `index` (in the parent); the option itself in
        the copy, which goes on playing from the decision."""
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the copy: never returns to the caller except by answering the decision
            global _rollout
            try:
                os.close(r)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                rng = random.Random(seed)
                game = self.sampler.game
                roll = _Rollout(w, view.player, game, view.round + self.horizon - 1,
                                lambda st: score_view(st, view.player, self.corpus))
                _rollout = roll
                self.sampler.determinize(view.player, rng)
                for p, seat in list(game.agents.items()):
                    game.agents[p] = Seat(p, _RolloutAgent(rng.getrandbits(63), self.corpus, roll), seat.viewer)
                return decision.options[index]
            except BaseException:
                os._exit(1)
        os.close(w)
        self.copies += 1
        try:
            ready, _, _ = select.select([r], [], [], CHILD_TIME_LIMIT)
            data = os.read(r, 8) if ready else b""
        finally:
            os.close(r)
            if not data:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            os.waitpid(pid, 0)
        return struct.unpack("<d", data)[0] if len(data) == 8 else 0.5


class Sampler:
    """Makes up, in a copy of the game, what the searching player cannot know.

    Holds the game (the agent never reads it): `determinize` is called only inside a copy,
    and overwrites the opponent's hidden information there with samples from the
    opponent's spellbook list — the cards the copy then plays with are guesses, not the
    real ones."""

    def __init__(self, game, books: dict):
        self.game = game
        self.books = books  # player -> Spellbook (the lists the duel was set up with)

    def determinize(self, player: str, rng: random.Random) -> None:
        from collections import Counter

        from ..engine import round as R
        from ..engine.dice import SeededDice

        game = self.game
        game.dice = SeededDice(rng.getrandbits(63))  # the real game's coming rolls stay unknown
        rs = R.state_of(game)
        for opp, book in self.books.items():
            if opp == player:
                continue
            full = Counter({cd.name: n for cd, n in book.cards})
            enchantments = sorted(cd.name for cd, _ in book.cards if cd.kind == "enchantment")
            for o in game.state.objects.values():  # face-down cards: a guess from their book
                if o.hidden and o.controller == opp and enchantments:
                    o.card = game.card(rng.choice(enchantments))
            # What is left in their book is unknown; what they cast is public (their discard pile).
            library = full - Counter(rs.discard.get(opp, []))
            n = len(rs.planned.get(opp, []))
            picks = []
            for _ in range(n):
                names = sorted(k for k, c in library.items() if c > 0)
                if not names:
                    break
                pick = rng.choice(names)
                library[pick] -= 1
                picks.append(pick)
            rs.planned[opp] = picks
            rs.library[opp] = +library
        game.state.touch()
