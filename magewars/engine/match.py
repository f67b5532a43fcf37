"""The one game API: start a game from two spellbooks and a seed, then play it whole, phase by phase
or activation by activation.

    game = start_game(corpus, [book_a, book_b], seed=7, agents=RandomAgent(7))
    result = game.play(max_rounds=30)      # a GameResult record; result.to_dict() for JSON

Setup is read from the cards: each mage is put into play from its stats card (life, armor,
channeling, attack bars), in opposite corner zones of the arena; its mana starts at the stats card's
channeling (adjusted by a printed starting mana, where a card has one); the spellbook's spells form the
player's library, from which the Planning Phase draws.  Every choice goes through `game.decide`.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, field
from typing import Optional, Union

from ..dsl.model import Corpus
from .decisions import Agent, UnscriptedDecision
from .dice import SeededDice
from .game import EngineError, Game
from .state import ROW_LETTERS, Arena
from . import round as R
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text


@light_dataclass
class GameResult:
    winner: Optional[str]  # None: a draw
    reason: str
    rounds: int
    seed: int
    books: list = field(default_factory=list)  # [(player, book name, mage)]

    def to_dict(self) -> dict:
        d = asdict(self)
        d["books"] = [list(b) for b in self.books]
        return d


class Match(Game):
    """A Game started from spellbooks: it knows how to play itself."""

    seed: int = 0
    books: list = []

    def play(self, max_rounds: int = 30) -> GameResult:
        rs = R.state_of(self)
        while rs.result is None:
            if self.state.round > max_rounds:
                rs.result = (None, f"round cap: no mage was destroyed in {max_rounds} round(s)")
                self.emit("game_over", f"the game is a draw: {rs.result[1]}", winner=None)
                break
            step_phase(self)
        return self.result()

    def result(self) -> Optional[GameResult]:
        rs = R.state_of(self)
        if rs.result is None:
            return None
        rounds = self.state.round if R.ROUND_PHASES[rs.next_phase].key != "initiative" else self.state.round - 1
        return GameResult(rs.result[0], rs.result[1], max(rounds, 1), self.seed, list(self.books))

    @property
    def over(self) -> bool:
        return R.state_of(self).result is not None


def _guarded(game: Game, fn):
    """Run a step of the game; a failure of the engine itself (not a rules refusal, not an unscripted
    decision) becomes an EngineError naming where the game stood, logged as an "error" event."""
    try:
        return fn(game)
    except (EngineError, UnscriptedDecision):
        raise
    except Exception as exc:  # an engine bug: reported with its place, never a bare traceback
        rs = R.state_of(game)
        where = f"round {game.state.round}, {R.ROUND_PHASES[rs.next_phase].name}"
        game.emit("error", f"ENGINE ERROR in {where}: {type(exc).__name__}: {exc}")
        raise EngineError(f"engine failure in {where}: {type(exc).__name__}: {exc}") from exc


def step_phase(game: Game) -> R.Phase:
    """Run the next phase of the round (a whole action phase included)."""
    if R.state_of(game).result is not None:
        raise EngineError("the game is over")
    return _guarded(game, R.run_phase)


def step_action(game: Game):
    """Run up to and including the next creature's activation (see _step_action)."""
    return _guarded(game, _step_action)


def _step_action(game: Game):
    """Run up to and including the next creature's activation; returns the creature (None when the
    phases run reached the end of the action phase without one, or the game ended)."""
    rs = R.state_of(game)
    for _ in range(len(R.ROUND_PHASES) + 1):
        if rs.result is not None:
            return None
        ph = R.ROUND_PHASES[rs.next_phase]
        if ph.key != "action":
            R.run_phase(game)
            continue
        if not rs.in_action_phase:
            game.emit("step", f"round {game.state.round}: {ph.name}", phase=ph.key, round=game.state.round)
            R.begin_action_phase(game)
        obj = R.next_activation(game)
        if obj is not None and rs.in_action_phase:
            return obj
        rs.next_phase = (rs.next_phase + 1) % len(R.ROUND_PHASES)
        R.check_victory(game)
        return obj
    return None


def corner_zones(arena: Arena) -> list[str]:
    """Opposite corners: the first player's mage starts in the top left zone, the second's in the
    bottom right (further players take the other corners)."""
    last_row = ROW_LETTERS[arena.rows - 1]
    return ["A1", f"{last_row}{arena.cols}", f"A{arena.cols}", f"{last_row}1"]


def _stats_card(corpus: Corpus, book):
    stats = getattr(book, "stats", None)
    if stats is not None:
        return stats
    from ..spellbook.rules import stats_for
    return stats_for(corpus, book.mage) if book.mage is not None else None


def start_game(corpus: Corpus, books: list, seed: int, agents: Union[dict, Agent, None] = None,
               arena: Optional[Arena] = None, names: Optional[list[str]] = None,
               first: Optional[str] = None) -> Match:
    """A game between the mages of `books` (spellbook.Spellbook records), ready for its first round.
    `first` names the player with the first round's initiative (a duel series alternates it); by
    default the players roll for it."""
    if len(books) < 2:
        raise EngineError("a game needs two spellbooks")
    game = Match(corpus, SeededDice(seed), agents, arena)
    game.seed = seed
    names = names or [f"P{i + 1}" for i in range(len(books))]
    zones = corner_zones(game.state.arena)
    rs = R.state_of(game)
    recs = []
    for i, (book, name) in enumerate(zip(books, names)):
        stats = _stats_card(corpus, book)
        if stats is None or stats.life is None:
            raise EngineError(f"spellbook {book.name}: no mage stats card to start the game with")
        chan = stats.channeling or 0
        mana = chan + (stats.starting_mana or 0)
        game.state.add_player(name, mana, chan)
        mage = game.create(stats, f"{name.lower()}-mage", name, zone=zones[i % len(zones)])
        mage.display = book.mage.name if book.mage is not None else stats.name
        rs.library[name] = Counter({card.name: n for card, n in book.cards})
        rs.planned[name] = []
        recs.append((name, book.name, mage.display))
        game.emit("setup", f"{name} plays {mage.display} ({book.name}): {mage.zone}, {mana} mana, "
                           f"{sum(rs.library[name].values())} spells in the spellbook",
                  player=name, zone=mage.zone, mana=mana)
    game.books = recs
    if first is not None:
        if first not in game.state.players:
            raise EngineError(f"first={first!r} is not a player of this game ({', '.join(game.state.players)})")
        rs.first = first
    return game
