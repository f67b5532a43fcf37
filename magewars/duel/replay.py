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


def replay_game(path: Path, index: int, viewer: Optional[str] = None) -> Replayed:
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
        played = play_game(cfg, index)
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
    who = None
    if viewer is not None:
        v = viewer.strip()
        if v.lower() in ("side a", "side b"):
            v = v[-1]
        try:
            who = views.check_viewer(game, v)
        except views.UnknownViewer:
            raise ReplayError(f"no player {viewer!r}; players: "
                              + ", ".join(f"{s} ({rec['mages'].get(s, '?')})" for s in SIDES)) from None
    mages = rec.get("mages", {})
    head = (f"game {index} of {path}: A ({mages.get('A', '?')}, {cfg.agents[0]}) vs B ({mages.get('B', '?')}, "
            f"{cfg.agents[1]}), seed {rec['seed']}, {rec['first']} has the first initiative")
    tail = (f"result: {'draw' if rec['winner'] is None else rec['winner'] + ' wins'} "
            f"({rec['reason']}) after {rec['rounds']} rounds")
    text = "\n".join([head + (f"; as seen by {who}" if who else ""), views.render(game, who), tail])
    document = {"game": rec, "viewer": who, **views.document(game, who)}
    return Replayed(rec, who, text, document, game)
