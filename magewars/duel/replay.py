"""Re-playing one game of a duel from its results file.

A game is a function of (books, agents, seed, game index): the replay plays it again and
checks that it ends as recorded (winner, rounds, number of events).  If the books, the
cards or the engine changed since the run, it says so instead of showing another game.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from .runner import SIDES, DuelConfig, DuelError, book_digest, load_results, play_game


class ReplayError(DuelError):
    pass


@dataclass
class Replayed:
    record: dict
    viewer: Optional[str]
    text: str
    document: dict
    game: object
    recorder: object = None


def _viewer(viewer: Optional[str]) -> Optional[str]:
    """The player (named after a side) whose view is asked for: A, B, "side a", any case."""
    if viewer is None:
        return None
    v = viewer.strip().upper()
    v = v[-1] if v in ("SIDE A", "SIDE B") else v
    if v not in SIDES:
        raise ReplayError(f"no player {viewer!r}; players: {', '.join(SIDES)} (side A, side B)")
    return v


def replay_game(path: Path, index: int, viewer: Optional[str] = None, frames: bool = False) -> Replayed:
    """Re-play game `index` of a results file; `frames` also records the board after every change
    (for the replay page)."""
    who = _viewer(viewer)
    try:
        doc = load_results(path)
        cfg = DuelConfig.from_dict(doc.get("config") or {})
    except DuelError as e:
        raise ReplayError(str(e)) from None
    recorded = next((g for g in doc["games"] if isinstance(g, dict) and g.get("index") == index), None)
    if recorded is None:
        raise ReplayError(f"{path}: no game {index} (the file has games 0 to {len(doc['games']) - 1})")
    try:
        for i, side in enumerate(SIDES):
            want = (doc.get("books") or {}).get(side, {}).get("sha256")
            if want and book_digest(cfg.books[i]) != want:
                raise ReplayError(f"spellbook {cfg.books[i]} changed since the run: game {index} cannot be "
                                  f"re-played as it was")
        recorders = []
        if frames:
            from .replay_page import FrameRecorder
            observers = [lambda game: recorders.append(FrameRecorder(game, who))]
        else:
            observers = []
        played = play_game(cfg, index, observers)
    except ReplayError:
        raise
    except DuelError as e:
        raise ReplayError(str(e)) from None
    rec = played.record
    for key in ("seed", "winner", "rounds", "events"):
        if key in recorded and recorded[key] != rec[key]:
            raise ReplayError(f"game {index} re-played differently ({key}: recorded {recorded[key]!r}, now "
                              f"{rec[key]!r}): the cards or the engine changed since the run")
    from ..engine import views
    game = played.game
    mages = rec.get("mages", {})
    head = (f"game {index} of {path}: A ({mages.get('A', '?')}, {cfg.agents[0]}) vs B ({mages.get('B', '?')}, "
            f"{cfg.agents[1]}), seed {rec['seed']}, {rec['first']} has the first initiative")
    tail = (f"result: {'draw' if rec['winner'] is None else rec['winner'] + ' wins'} "
            f"({rec['reason']}) after {rec['rounds']} rounds")
    text = "\n".join([head + (f"; as seen by {who}" if who else ""), views.render(game, who), tail])
    document = {"game": rec, "viewer": who, **views.document(game, who)}
    return Replayed(rec, who, text, document, game, recorders[0] if recorders else None)
