"""Per-player views of a game: what one player may see, and nothing more.

Every event record states who may see it (:meth:`Event.visible_to`); this
module applies that to a whole game: the log (text or records), the attacks
and the final state.  The omniscient view (viewer None) is the referee's.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game


class UnknownViewer(ValueError):
    pass


def check_viewer(game: "Game", viewer: Optional[str]) -> Optional[str]:
    """The player's name as the game spells it (case-insensitive), or UnknownViewer."""
    if viewer is None:
        return None
    for name in game.state.order:
        if name.lower() == str(viewer).lower():
            return name
    raise UnknownViewer(f"no player {viewer!r}; players: {', '.join(game.state.order) or 'none'}")


def events(game: "Game", viewer: Optional[str]) -> list[dict]:
    return game.log.to_json(viewer)


def render(game: "Game", viewer: Optional[str]) -> str:
    return game.log.render(viewer)


def document(game: "Game", viewer: Optional[str]) -> dict:
    """The events, attacks and final state a player may see (JSON-ready)."""
    return {
        "viewer": viewer,
        "events": events(game, viewer),
        "attacks": [a.summary() for a in game.attacks.history],
        "final_state": game.view(viewer),
    }


def hidden_from(game: "Game", viewer: str) -> list:
    """Objects still face down that `viewer` does not control: their names must not reach `viewer`."""
    return [o for o in game.state.objects.values() if o.hidden and o.controller != viewer]


def texts(game: "Game", viewer: Optional[str]) -> list[str]:
    """Every string a viewer's JSON document contains (for leak checks)."""
    out: list[str] = []

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                out.append(str(k))
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif v is not None:
            out.append(str(v))

    walk(document(game, viewer))
    out.append(render(game, viewer))
    return out
