"""Invariants checked after every event of a game (for tests and the volume script).

* no negative damage, armor, life, marker count or mana;
* markers of a condition that lowers armor (Corrode, by its codex entry) never exceed the
  object's armor once the state has been checked;
* every object in exactly one place: in play in one zone, on one host, in one zone as an
  attachment or on one border; or out of play; never both, never twice in the discard pile;
  a host in play;
* a hidden card's name never reaches its controller's opponent (the event as the opponent
  sees it), unless that name is public anyway (an object of that name is or was face up: a
  face-up copy destroyed this instant is named by its own destruction);
* the game ends within its round cap (checked by the caller on the result).
"""
from __future__ import annotations

import re

from dataclasses import dataclass, field


@dataclass
class Violation:
    seq: int
    rule: str
    detail: str

    def __str__(self) -> str:
        return f"event {self.seq}: {self.rule}: {self.detail}"


@dataclass
class Checker:
    game: object
    violations: list = field(default_factory=list)
    events: int = 0
    limit: int = 50  # violations kept per game (the first ones say enough)
    _longer: dict = field(default_factory=dict)  # card name -> longer card names containing it
    # (state version, settled?) whose derived values (life, armor) were checked last: an event that
    # changed nothing (a step, a window, a decision line) finds the same values, so they are not recomputed
    _derived_at: tuple = (-1, False)

    def attach(self) -> "Checker":
        log = self.game.log
        emit = log.emit

        def checked_emit(*a, **kw):
            ev = emit(*a, **kw)
            self.events += 1
            self.after(ev)
            return ev
        log.emit = checked_emit
        return self

    def fail(self, ev, rule: str, detail: str) -> None:
        if len(self.violations) < self.limit:
            self.violations.append(Violation(ev.seq, rule, detail))

    def after(self, ev) -> None:
        g = self.game
        st = g.state
        for p in st.players.values():
            if p.mana < 0:
                self.fail(ev, "negative mana", f"{p.name} has {p.mana} mana")
        graveyard: dict = {}
        for o in st.graveyard:
            graveyard[o.id] = graveyard.get(o.id, 0) + 1
        for oid, n in graveyard.items():
            if n > 1:
                self.fail(ev, "one place", f"{oid} is in the discard pile {n} times")
        checked = g._checked_version == st.version
        derive = (st.version, checked) != self._derived_at
        self._derived_at = (st.version, checked)
        for o in st.objects.values():
            if o.damage < 0:
                self.fail(ev, "negative damage", f"{o.label()} has {o.damage} damage")
            for m, n in o.markers.items():
                if n < 0:
                    self.fail(ev, "negative markers", f"{o.label()} has {n} {m}")
            places = [x for x in (o.zone, o.attached_to, o.attached_zone, o.border) if x is not None]
            if o.in_play:
                if o.id in graveyard:
                    self.fail(ev, "one place", f"{o.label()} is in play and in the discard pile")
                if len(places) > 1 and not (o.zone is not None and o.border is not None):
                    self.fail(ev, "one place", f"{o.label()} is in {len(places)} places: {places}")
                # attachments leave with their host once rules settle (not in the middle of the cascade of
                # leave-play events for its attachments, one by one)
                # (nor while a "would be destroyed" window is open: what answers it, a Fermata for a song on
                # the host, runs in the middle of that cascade)
                if o.attached_to is not None and checked and not g._would_destroy \
                        and ev.kind not in ("destroyed", "discarded", "obliterated", "trigger"):
                    host = st.objects.get(o.attached_to)
                    if host is None or not host.in_play:
                        self.fail(ev, "one place", f"{o.label()} is attached to {o.attached_to}, not in play")
                if o.zone is not None and not st.arena.is_zone(o.zone):
                    self.fail(ev, "one place", f"{o.label()} is in {o.zone}, not a zone of the arena")
                if o.card.life is not None and derive:
                    d = g.effects.derived(o)
                    if d.life is not None and d.life < 0:
                        self.fail(ev, "negative life", f"{o.label()} has life {d.life}")
                    if d.armor < 0:
                        self.fail(ev, "negative armor", f"{o.label()} has armor {d.armor}")
                    if checked:
                        for m, n in o.markers.items():
                            if n and g.lowers_armor(m) and n > max(0, d.base_armor):
                                self.fail(ev, "corrode above armor",
                                          f"{o.label()} has {n} {m} and armor {d.base_armor}")
        self._hidden(ev)

    def _hidden(self, ev) -> None:
        st = self.game.state
        secret: dict = {}  # player -> names of their cards now face down
        public = set()
        for o in st.objects.values():
            if o.hidden and o.in_play:
                secret.setdefault(o.controller, set()).add(o.name)
            elif not o.hidden:  # face up, in play or gone from it (a face-up card destroyed was seen)
                public.add(o.name)
        about = st.objects.get(ev.data.get("target")) if isinstance(ev.data.get("target"), str) else None
        if about is not None and not about.hidden:
            public.add(about.name)  # the face-up card the line is about (one just destroyed, say)
        for owner, names in secret.items():
            for viewer in st.order:
                if viewer == owner or not ev.shown_to(viewer) or ev.secret_for == viewer:
                    continue  # the viewer's own secret (e.g. its own face-down cast of the same card)
                text, data = ev.view(viewer)
                blob = text + " " + repr(data)
                mine = {o.name for o in st.objects.values() if o.controller == viewer}
                for n in names - public - mine:
                    if n in blob and self._names_card(n, blob):
                        self.fail(ev, "hidden card shown", f"{viewer} sees {n!r} of {owner}: {text}")

    def _names_card(self, name: str, blob: str) -> bool:
        """Does `blob` name the card `name` itself, not only a longer card name that contains it
        (a short name inside a longer card name that contains it)?  Whole words only."""
        longer = self._longer.get(name)
        if longer is None:
            longer = self._longer[name] = sorted(
                (m for m in self.game.corpus.cards if name in m and m != name), key=len, reverse=True)
        for m in longer:
            blob = blob.replace(m, " ")
        return re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", blob) is not None


def check_game(cfg, index: int) -> dict:
    """Play game `index` of `cfg` with the checker on; a crash is reported, not raised."""
    from .runner import play_game
    checkers = []

    def observe(game):
        checkers.append(Checker(game).attach())
    try:
        played = play_game(cfg, index, observers=[observe])
    except Exception as e:  # a crash is a finding of the volume run, reported with its game
        return {"index": index, "books": list(cfg.books), "crash": f"{type(e).__name__}: {e}", "violations": [],
                "events": checkers[0].events if checkers else 0}
    rec = played.record
    out = {"index": index, "books": list(cfg.books), "crash": None, "events": checkers[0].events,
           "rounds": rec["rounds"], "winner": rec["winner"],
           "violations": [str(v) for v in checkers[0].violations]}
    if played.game.result() is None or rec["rounds"] > cfg.max_rounds:
        out["violations"].append(f"the game did not end within {cfg.max_rounds} rounds")
    return out


def check_many(jobs) -> list[dict]:
    """check_game over (cfg, index) pairs (what a worker process runs)."""
    return [check_game(cfg, i) for cfg, i in jobs]


def volume_jobs(games: int, seed: int, max_rounds: int, agents=("random", "random")) -> list:
    """`games` duels spread over every ordered pair of shipped spellbooks (mirror matches too)."""
    from ..spellbook import shipped_books
    from .runner import DuelConfig
    names = sorted(shipped_books())
    pairs = [(a, b) for a in names for b in names]
    jobs = []
    for g in range(games):
        a, b = pairs[g % len(pairs)]
        jobs.append((DuelConfig((a, b), tuple(agents), seed, max_rounds), g))
    return jobs
