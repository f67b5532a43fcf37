"""`magewars replay RESULT --game I --html OUT.html`: one self-contained page to step through a duel.

While the game is re-played, the board as the viewer may see it (``Game.view(viewer)``: hidden
names masked for a player) is recorded after every event that changed the state; the page holds
those frames, the event log the viewer may see, a step slider and buttons.  Stepping moves the
board and the log together; attacks and reveals are highlighted.  The page is written from a
Jinja2 template with its style and script inlined: it opens from a file, offline.
"""
from __future__ import annotations

from importlib import resources
from typing import Optional

from jinja2 import ChoiceLoader, Environment, PackageLoader, StrictUndefined, select_autoescape

ATTACK_KINDS = {"roll", "modifier", "damage", "canceled", "avoided", "condition", "destroyed", "attack"}
REVEAL_KINDS = {"reveal", "window"}
MAX_FRAMES = 5000  # a cap on the page's size: later changes join the last frame (said on the page)


def _snapshot(game, viewer: Optional[str]) -> dict:
    view = game.view(viewer)
    objs = []
    for oid, rec in view["objects"].items():
        if not rec.get("in_play", True):
            continue
        o = game.state.objects.get(oid)
        shown = o.display if o is not None and o.display and rec["card"] == o.name else rec["card"]
        item = {"id": oid, "card": shown, "who": rec["controller"]}
        for k in ("zone", "attached_to", "attached_zone", "damage", "life", "armor", "markers", "guard", "hidden"):
            if k in rec:
                item[k] = rec[k]
        if o is not None and o.border:
            item["border"] = sorted(o.border)
        objs.append(item)
    return {"round": view["round"], "mana": {p: r["mana"] for p, r in view["players"].items()}, "objects": objs}


class FrameRecorder:
    """Wraps the game's event log: each event the viewer may see is kept with the frame it belongs to;
    a new frame starts when the state changed since the last one."""

    def __init__(self, game, viewer: Optional[str]):
        self.game, self.viewer = game, viewer
        self.frames: list[dict] = []
        self.events: list[dict] = []
        self._version = None
        self.capped = False
        emit = game.log.emit

        def recording_emit(*a, **kw):
            ev = emit(*a, **kw)
            self.after(ev)
            return ev
        game.log.emit = recording_emit

    def after(self, ev) -> None:
        if not ev.shown_to(self.viewer):
            return
        v = self.game.state.version
        if v != self._version or not self.frames:
            if len(self.frames) < MAX_FRAMES:
                self.frames.append(_snapshot(self.game, self.viewer))
            else:
                self.capped = True
            self._version = v
        text, _ = ev.view(self.viewer)
        self.events.append({"seq": ev.seq, "kind": ev.kind, "depth": ev.depth, "text": text,
                            "frame": len(self.frames) - 1, "cls": _event_class(ev.kind)})


def _event_class(kind: str) -> str:
    if kind in ATTACK_KINDS:
        return "ev-attack"
    if kind in REVEAL_KINDS:
        return "ev-reveal"
    if kind in ("action", "step"):
        return "ev-" + kind
    if kind in ("error", "unsupported"):
        return "ev-error"
    return ""


def render_replay_html(replayed, recorder: FrameRecorder, title: str) -> str:
    # the step viewer itself (stepper.html) is shared with the scenario page, in the site's templates
    loader = ChoiceLoader([PackageLoader("magewars.duel", "templates"), PackageLoader("magewars.site", "templates")])
    env = Environment(loader=loader, autoescape=select_autoescape(["html"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    css = (resources.files("magewars.site") / "assets" / "style.css").read_text(encoding="utf-8")
    data = stepper_data(recorder)
    return env.get_template("replay.html").render(
        title=title, record=replayed.record, viewer=replayed.viewer, rows=data["rows"], css=css,
        data=data, capped=recorder.capped)


def stepper_data(recorder: FrameRecorder) -> dict:
    """What the step viewer (templates/stepper.html) needs: the frames, the events and the zone rows."""
    arena = recorder.game.state.arena
    rows = [[f"{r}{c + 1}" for c in range(arena.cols)] for r in [z[0] for z in arena.zones()[::arena.cols]]]
    return {"frames": recorder.frames, "events": recorder.events, "rows": rows}
