"""Healing given up to remove condition markers.

A condition whose codex entry states `static healing_removes()` (Bleed) lets the controller of the
object carrying it give up healing point for point: each point given up removes one such marker
instead of one damage.  The trade happens inside Game.heal, so it only exists where healing does:
an object that cannot heal (its traits forbid it) has nothing to give up, and only removal effects
take the markers off.  The engine knows no condition by name; any entry stating the call works.
"""
from __future__ import annotations

from typing import Any

from .decisions import Option

#: the static call a condition's codex entry states to make healing removable into its markers
HEALING_REMOVES = "healing_removes"


def give_up_healing(game: Any, obj, amount: int, source: str) -> int:
    """Offer `obj`'s controller to trade points of the healing about to happen for markers of the
    conditions that allow it, one point at a time.  Returns the points given up."""
    given = 0
    for name in sorted(n for n, k in obj.markers.items() if k > 0):
        if not game.codex_statics(name, HEALING_REMOVES):
            continue
        while given < amount and obj.markers.get(name, 0) > 0:
            ch = game.decide("optional", obj.controller, [Option("yes", True), Option("no", False)],
                             prompt=f"give up 1 point of healing ({source}) to remove a {name} marker "
                                    f"from {obj.public_label()}?", default=0)
            if not ch.value:
                break
            game.state.remove_marker(obj, name, 1)
            given += 1
            game.emit("condition", f"{obj.label()} gives up 1 point of healing ({source}): one {name} removed "
                                   f"({obj.markers.get(name, 0)} left)", target=obj.id)
    return given
