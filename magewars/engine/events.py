"""Structured event records.  The text log and the JSON log both render these."""
from __future__ import annotations

from typing import Any, NamedTuple, Optional


class Event(NamedTuple):
    """One log record, and who may see it.  Records are never changed once made (a named tuple: an
    attack sequence makes about thirty, and a tuple is made in one step, where a class with eight
    attributes sets them one by one).

    Visibility, from most to least open:
    * everyone sees `text` (the default);
    * `secret_for` names the only player who may see `text`; every other player
      sees `public_text` instead (hidden information: a face-down card's name);
    * `audience` names the only players who may see the record at all; it does
      not exist for anyone else (e.g. a window only a card's holder is offered).
    A viewer of None is the omniscient view (the referee, the scenario author).
    """
    seq: int
    kind: str  # step, window, reveal, roll, modifier, damage, condition, destroyed, ...
    text: str
    data: dict
    depth: int = 0
    secret_for: Optional[str] = None  # the only player who may see `text` (hidden information)
    public_text: Optional[str] = None  # what everyone else sees
    audience: Optional[tuple] = None  # the only players who may see the record at all (None: everyone)

    def visible_to(self) -> dict:
        """Who may see what, as data: {"record": "all" | [players], "text": "all" | [players]}."""
        return {"record": "all" if self.audience is None else sorted(self.audience),
                "text": "all" if self.secret_for is None and self.audience is None
                else sorted({self.secret_for} if self.secret_for is not None else set(self.audience or ()))}

    def shown_to(self, viewer: Optional[str]) -> bool:
        return viewer is None or self.audience is None or viewer in self.audience

    def view(self, viewer: Optional[str]) -> tuple[str, dict]:
        if self.secret_for is not None and viewer is not None and viewer != self.secret_for:
            return self.public_text or "(hidden)", {}
        return self.text, self.data

    def to_json(self, viewer: Optional[str] = None) -> dict:
        text, data = self.view(viewer)
        return {"seq": self.seq, "kind": self.kind, "depth": self.depth, "text": text,
                "visible_to": self.visible_to(),
                **({"data": _jsonable(data)} if data else {})}


make_event = tuple.__new__  # (EventLog.record: the named tuple made without its Python-level __new__)


def _jsonable(v: Any):
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if hasattr(v, "to_json"):
        return v.to_json()
    return str(v)


class EventLog:
    def __init__(self):
        self.events: list[Event] = []
        self.depth = 0

    def emit(self, _kind: str, _text: str, *, secret_for: Optional[str] = None,
             public_text: Optional[str] = None, audience: Optional[tuple] = None, **data) -> Event:
        """Record an event.  Watchers (invariant checks, replays) replace this method on the log
        itself; the engine's Game.emit goes through them when they do."""
        return self.record(_kind, _text, data, secret_for, public_text, audience)

    def record(self, kind: str, text: str, data: dict, secret_for: Optional[str], public_text: Optional[str],
               audience) -> Event:
        """emit's work, its arguments as they are kept (Game.emit calls it directly: no keyword
        arguments packed twice)."""
        ev = make_event(Event, (len(self.events) + 1, kind, text, data, self.depth, secret_for, public_text,
                                 tuple(audience) if audience is not None else None))
        self.events.append(ev)
        return ev

    def of_kind(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]

    def render(self, viewer: Optional[str] = None) -> str:
        out = []
        for e in self.events:
            if not e.shown_to(viewer):
                continue
            text, _ = e.view(viewer)
            marker = {"step": "▸ ", "window": "  ⋯ ", "action": "■ "}.get(e.kind, "  ")
            out.append("  " * e.depth + marker + text)
        return "\n".join(out)

    def to_json(self, viewer: Optional[str] = None) -> list[dict]:
        return [e.to_json(viewer) for e in self.events if e.shown_to(viewer)]

    def signature(self) -> list[tuple]:
        """A comparable digest (for determinism tests)."""
        return [(e.kind, e.text) for e in self.events]
