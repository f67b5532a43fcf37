"""Running duels: one game from (books, agents, seed, game index), many games on local
processes or a cluster, and the results document.

Every game is reproducible on its own: its seed is derived from the run's seed and the
game's index (:func:`game_seed`), the side with the first round's initiative alternates
(side A in even games, side B in odd ones) and the agents are seeded from the game's seed.
So a game can be re-played alone (``magewars replay``) and the results do not depend on
which process, or which machine, played which game.
"""
from __future__ import annotations

import hashlib
import json
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence

SIDES = ("A", "B")
FORMAT = "magewars-duel/1"
DEFAULT_MAX_ROUNDS = 40


class DuelError(Exception):
    """Bad duel input (a book, an agent name, a results file): a clear message, never a traceback."""


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run seeded `seed` (64 bits of a hash: no overlap between runs)."""
    h = hashlib.blake2b(f"magewars-duel:{seed}:{index}".encode(), digest_size=8)
    return int.from_bytes(h.digest(), "big") >> 1


def agent_seed(gseed: int, side: str) -> int:
    h = hashlib.blake2b(f"magewars-agent:{gseed}:{side}".encode(), digest_size=8)
    return int.from_bytes(h.digest(), "big") >> 1


def first_side(index: int) -> str:
    """Sides alternate the first round's initiative: A in even games, B in odd ones."""
    return SIDES[index % 2]


@dataclass(frozen=True)
class DuelConfig:
    books: tuple[str, str]  # shipped book names or paths, side A then side B
    agents: tuple[str, str] = ("random", "random")
    seed: int = 0
    max_rounds: int = DEFAULT_MAX_ROUNDS
    agent_options: tuple = ()  # (key, value) pairs for agents that take options (search budget)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["books"], d["agents"] = list(self.books), list(self.agents)
        d["agent_options"] = dict(self.agent_options)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "DuelConfig":
        try:
            return cls(tuple(d["books"]), tuple(d["agents"]), int(d["seed"]), int(d["max_rounds"]),
                       tuple(sorted((d.get("agent_options") or {}).items())))
        except (KeyError, TypeError, ValueError) as e:
            raise DuelError(f"not a duel configuration: {e}") from None


# ---------------------------------------------------------------- per-process caches
_corpus = None
_books: dict = {}


def corpus():
    global _corpus
    if _corpus is None:
        from ..dsl import load_corpus
        _corpus = load_corpus()
    return _corpus


def book(name: str):
    """A spellbook by shipped name or path, read once per process; a bad book is a DuelError."""
    if name not in _books:
        from ..spellbook import SpellbookNotFound, load_spellbook, validate
        try:
            b = load_spellbook(name, corpus())
        except SpellbookNotFound as e:
            raise DuelError(str(e)) from None
        errors = [d for d in validate(b) if d.severity == "error"]
        if errors:
            raise DuelError(f"spellbook {name} is not legal: "
                            + "; ".join(d.format(with_source=False) for d in errors[:3]))
        _books[name] = b
    return _books[name]


def book_digest(name: str) -> str:
    """sha256 of the book's file, recorded so a replay can tell that the book changed."""
    b = book(name)
    return hashlib.sha256(Path(b.path).read_bytes()).hexdigest()


# ---------------------------------------------------------------- one game
@dataclass
class Played:
    record: dict
    game: object  # the finished Game (kept for replays and invariant checks)
    seats: dict = field(default_factory=dict)  # side -> Seat


def setup_game(cfg: DuelConfig, index: int, observers: Sequence[Callable] = ()):
    """The game `index` of a run, ready to play: (game, {side: seat}, game seed, first side).

    The players are named after their sides ("A", "B"), so a mirror match needs no renaming
    and `--as A` means the same in every game."""
    from ..engine.match import start_game
    from .agents import Seat
    from .roster import make_agent
    from .search import Sampler

    gseed = game_seed(cfg.seed, index)
    first = first_side(index)
    c = corpus()
    books = [book(b) for b in cfg.books]
    opts = dict(cfg.agent_options)
    seats = {}
    for i, s in enumerate(SIDES):
        try:
            agent = make_agent(cfg.agents[i], agent_seed(gseed, s), c, **opts)
        except (ValueError, TypeError) as e:
            raise DuelError(str(e)) from None
        seats[s] = Seat(s, agent)
    game = start_game(c, books, seed=gseed, agents=dict(seats), names=list(SIDES), first=first)
    viewer = _viewer(game)
    for i, s in enumerate(SIDES):
        seats[s].viewer = viewer
        if hasattr(seats[s].agent, "sampler"):
            seats[s].agent.sampler = Sampler(game, {x: books[j] for j, x in enumerate(SIDES)})
    for obs in observers:
        obs(game)
    return game, seats, gseed, first


def _viewer(game):
    """Builds a player's view; decisions asked while the state stays the same (the same version,
    round and mana) share one view instead of building it again."""
    from .agents import PlayerView
    arena = (game.state.arena.rows, game.state.arena.cols)
    last: dict = {}

    def view(player: str) -> PlayerView:
        st = game.state
        key = (st.version, st.round, tuple(p.mana for p in st.players.values()))
        hit = last.get(player)
        if hit is not None and hit[0] == key:
            return hit[1]
        v = PlayerView(player, game.view(player), {"arena": arena})
        last[player] = (key, v)
        return v
    return view


def play_game(cfg: DuelConfig, index: int, observers: Sequence[Callable] = ()) -> Played:
    """Play game `index` of the run to its end; the record is plain JSON-ready data."""
    from .search import rollout_ended
    game, seats, gseed, first = setup_game(cfg, index, observers)
    try:
        result = game.play(max_rounds=cfg.max_rounds)
    except BaseException as e:
        rollout_ended(error=e)  # in a search agent's copy of the game: report and exit
        if isinstance(e, Exception) and not isinstance(e, DuelError):
            raise DuelError(f"game {index} of seed {cfg.seed} ({cfg.books[0]} vs {cfg.books[1]}, "
                            f"{cfg.agents[0]} vs {cfg.agents[1]}) failed in round {game.state.round}: "
                            f"{type(e).__name__}: {e}") from e
        raise
    rollout_ended(result)
    winner = result.winner
    if winner is not None and winner not in SIDES:
        raise DuelError(f"game {index}: the winner {winner!r} is not a side of the duel")
    record = {
        "index": index,
        "seed": gseed,
        "first": first,
        "winner": winner,
        "reason": str(result.reason),
        "rounds": int(result.rounds),
        "mages": {p: mage for (p, _book, mage) in getattr(game, "books", [])},
        "decisions": {s: seats[s].decisions for s in SIDES},
        "events": len(game.log.events),
    }
    return Played(record, game, seats)


def play_games(cfg: DuelConfig, indices: Sequence[int]) -> list[dict]:
    """Records of the games `indices` (what a worker process or a cluster task runs)."""
    return [play_game(cfg, i).record for i in indices]


# ---------------------------------------------------------------- many games
def chunks(indices: Sequence[int], size: int) -> list[list[int]]:
    return [list(indices[i:i + size]) for i in range(0, len(indices), size)]


def run_local(cfg: DuelConfig, games: int, workers: int = 1,
              progress: Optional[Callable[[int], None]] = None, chunk: int = 0,
              indices: Optional[Sequence[int]] = None) -> list[dict]:
    """All games on this machine: in this process (workers=1) or on `workers` processes.
    `indices` plays those game indices instead of 0..games-1 (a long run in blocks)."""
    indices = list(range(games)) if indices is None else list(indices)
    games = len(indices)
    out: list[dict] = []
    if workers <= 1:
        for i in indices:
            out.append(play_game(cfg, i).record)
            if progress:
                progress(1)
        return out
    size = chunk or max(1, min(16, games // (workers * 8) or 1))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending = {pool.submit(play_games, cfg, c) for c in chunks(indices, size)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                recs = f.result()
                out.extend(recs)
                if progress:
                    progress(len(recs))
    return sorted(out, key=lambda r: r["index"])


# ---------------------------------------------------------------- the results document
def document(cfg: DuelConfig, records: list[dict]) -> dict:
    from .stats import summarize
    summary = summarize(records, cfg.books, cfg.agents)
    return {
        "format": FORMAT,
        "config": cfg.to_dict(),
        "books": {s: {"name": book(cfg.books[i]).name, "sha256": book_digest(cfg.books[i])}
                  for i, s in enumerate(SIDES)},
        "summary": summary.to_dict(),
        "games": records,
    }


def dumps(doc: dict) -> str:
    """The one serialisation of a results document (sorted keys: byte-identical for equal results)."""
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


CSV_FIELDS = ("index", "seed", "first", "winner", "reason", "rounds", "mage_A", "mage_B",
              "decisions_A", "decisions_B", "events")


def csv_rows(records: Iterable[dict]) -> list[dict]:
    rows = []
    for r in records:
        rows.append({"index": r["index"], "seed": r["seed"], "first": r["first"], "winner": r["winner"] or "",
                     "reason": r["reason"], "rounds": r["rounds"], "mage_A": r["mages"].get("A", ""),
                     "mage_B": r["mages"].get("B", ""), "decisions_A": r["decisions"]["A"],
                     "decisions_B": r["decisions"]["B"], "events": r["events"]})
    return rows


def load_results(path: Path) -> dict:
    """A results document written by `magewars duel --json`; anything else is a DuelError."""
    from ..limits import MAX_RESULTS_BYTES, LimitError, read_bounded
    try:  # (a device, pipe or socket is refused before it is read; a file is read up to the bound)
        doc = json.loads(read_bounded(path, MAX_RESULTS_BYTES))
    except (LimitError, OSError) as e:
        raise DuelError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise DuelError(f"{path}: not a duel results file (invalid JSON: {e})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("games"), list):
        raise DuelError(f"{path}: not a duel results file (no \"format\": \"{FORMAT}\" with games)")
    return doc
