"""Statistics of a series of duels: wins, draws, Wilson score intervals, mean rounds,
first-player advantage, and the win rate as games accumulate (for the chart).

Everything here reads plain game records (dicts, as written to --json), so the same
numbers come out of a live run and of a results file read back.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Iterable, Optional, Sequence

Z95 = 1.959963984540054  # the standard normal quantile for a two-sided 95% interval


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: a draw counts half).

    Returns (0, 1) when there are no trials: nothing is known yet."""
    if n <= 0:
        return 0.0, 1.0
    if successes < 0 or successes > n:
        raise ValueError(f"{successes} successes out of {n} trials")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


@dataclass(frozen=True)
class SideStats:
    side: str  # "A" or "B"
    book: str
    agent: str
    wins: int
    win_rate: float
    low: float  # Wilson 95% interval of the win rate (draws count as non-wins)
    high: float


@dataclass(frozen=True)
class Summary:
    games: int
    draws: int
    sides: tuple[SideStats, SideStats]
    mean_rounds: float
    first_player_wins: int  # games won by the side that had the first round's initiative
    decided: int  # games with a winner
    first_player_rate: float  # first-player wins / decided games
    first_low: float
    first_high: float
    reasons: dict  # reason -> count

    def to_dict(self) -> dict:
        d = asdict(self)
        d["sides"] = [asdict(s) for s in self.sides]
        return d


def _rate(k: int, n: int) -> float:
    return k / n if n else 0.0


def summarize(records: Sequence[dict], books: Sequence[str], agents: Sequence[str]) -> Summary:
    """Summary of game records (each with 'winner' in {"A", "B", None}, 'first', 'rounds', 'reason')."""
    n = len(records)
    wins = {"A": 0, "B": 0}
    first_wins = decided = 0
    reasons: dict[str, int] = {}
    for r in records:
        w = r["winner"]
        if w is not None:
            if w not in wins:
                raise ValueError(f"game {r.get('index')}: winner {w!r} is neither side A nor B")
            wins[w] += 1
            decided += 1
            if w == r["first"]:
                first_wins += 1
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    sides = []
    for i, side in enumerate(("A", "B")):
        lo, hi = wilson(wins[side], n)
        sides.append(SideStats(side, books[i], agents[i], wins[side], _rate(wins[side], n), lo, hi))
    flo, fhi = wilson(first_wins, decided)
    mean_rounds = sum(r["rounds"] for r in records) / n if n else 0.0
    return Summary(n, n - decided, (sides[0], sides[1]), round(mean_rounds, 6), first_wins, decided,
                   _rate(first_wins, decided), flo, fhi, dict(sorted(reasons.items())))


def running_win_rate(records: Iterable[dict], side: str = "A") -> list[tuple[int, float, float, float]]:
    """(games so far, win rate of `side`, Wilson low, Wilson high) after each game, in game order."""
    out = []
    k = n = 0
    for r in sorted(records, key=lambda r: r["index"]):
        n += 1
        k += r["winner"] == side
        lo, hi = wilson(k, n)
        out.append((n, k / n, lo, hi))
    return out


def draw_share(records: Sequence[dict]) -> Optional[float]:
    return _rate(sum(r["winner"] is None for r in records), len(records)) if records else None
