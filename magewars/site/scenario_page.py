"""`magewars simulate scenario FILE --html OUT.html`: one self-contained page of a scenario's final board
(zones, walls, every object with its attachments, markers, damage and mana) and its event log, with the
attacks and reveals picked out.  Styles and the small script are inlined, so the file opens anywhere."""
from __future__ import annotations

import re
import sys
from importlib import resources
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from ..duel.replay_page import FrameRecorder, stepper_data

# event kinds shown with a highlight: the attack sequence and hidden-information moments
ATTACK_KINDS = {"step", "roll", "modifier", "damage", "canceled", "avoided", "condition", "destroyed"}
REVEAL_KINDS = {"reveal", "window"}


def board_view(game) -> dict:
    """The final state laid out for the page: a row-by-column grid of zones, the walls, the players."""
    view = game.view()
    state = game.state
    arena = state.arena
    objects = view["objects"]
    in_zone: dict[str, list[dict]] = {z: [] for z in arena.zones()}
    zone_attached: dict[str, list[dict]] = {z: [] for z in arena.zones()}
    children: dict[str, list[dict]] = {}
    walls, elsewhere, items = [], [], []
    for oid, rec in objects.items():
        item = dict(rec, id=oid)
        items.append(item)
        children.setdefault(oid, [])
        obj = state.objects.get(oid)
        if rec.get("attached_to") in objects:
            children.setdefault(rec["attached_to"], []).append(item)
        elif rec.get("attached_zone") in zone_attached:
            zone_attached[rec["attached_zone"]].append(item)
        elif obj is not None and obj.border:
            item["between"] = " and ".join(sorted(obj.border))
            walls.append(item)
        elif rec.get("zone") in in_zone and rec.get("in_play", True):
            in_zone[rec["zone"]].append(item)
        else:
            elsewhere.append(item)
    for item in items:
        item["attachments"] = children.get(item["id"], [])
    grid = [[{"label": f"{row}{c + 1}", "objects": in_zone[f"{row}{c + 1}"],
              "attached": zone_attached[f"{row}{c + 1}"],
              "walls": [w for w in walls if f"{row}{c + 1}" in w["between"].split(" and ")]}
             for c in range(arena.cols)] for row in [z[0] for z in arena.zones()[::arena.cols]]]
    return {"round": view["round"], "players": view["players"], "grid": grid, "walls": walls,
            "elsewhere": elsewhere}


def _event_class(kind: str) -> str:
    if kind in ATTACK_KINDS:
        return "ev-attack"
    if kind in REVEAL_KINDS:
        return "ev-reveal"
    if kind == "action":
        return "ev-action"
    if kind in ("error", "unsupported"):
        return "ev-error"
    return ""


_ID = re.compile(r"\[([A-Za-z0-9_-]+)\]")


def render_scenario_html(result, recorder=None) -> str:
    """The scenario's page; with a `recorder` (duel.replay_page.FrameRecorder attached while it ran) it
    also holds the step viewer: the board after every change, a slider, the log in step."""
    env = Environment(loader=PackageLoader("magewars.site", "templates"), autoescape=select_autoescape(["html"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    css = (resources.files("magewars.site") / "assets" / "style.css").read_text(encoding="utf-8")
    game = result.game
    events = [{"seq": e.seq, "kind": e.kind, "depth": e.depth, "text": e.text, "cls": _event_class(e.kind),
               "ids": " ".join(sorted(set(_ID.findall(e.text))))} for e in game.log.events]
    return env.get_template("scenario.html").render(
        sc=result.scenario, ok=result.ok, error=result.error.format(with_source=False) if result.error else "",
        board=board_view(game), events=events, attacks=[a.summary() for a in game.attacks.history],
        checks=result.checks, unsupported=sorted(set(game.unsupported)), css=css,
        steps=stepper_data(recorder) if recorder is not None and recorder.frames else None, p="st-")


def write_cli(path: str, out: Path, stream=None, cards_roots: tuple = (), seed=None) -> int:
    """Run the scenario and write its page; problems are printed as located diagnostics (exit 2).
    `cards_roots` and `seed` are the command line's --cards-root and --seed."""
    from ..scenario.runner import ScenarioError, run_scenario

    stream = stream or sys.stdout
    recorders: list = []
    try:
        result = run_scenario(path, cards_roots, seed,
                              observers=(lambda game: recorders.append(FrameRecorder(game, None)),))
    except ScenarioError as e:
        for d in e.diags:
            print(d.format(), file=stream)
        return 2
    except Exception as e:  # never a traceback for a user's scenario
        print(f"{path}:1:1: S099 internal error while running the scenario: {type(e).__name__}: {e}", file=stream)
        return 2
    try:
        Path(out).write_text(render_scenario_html(result, recorders[0] if recorders else None), encoding="utf-8")
    except OSError as e:
        print(f"magewars: cannot write {out}: {e.strerror or e}", file=stream)
        return 2
    status = "all expectations met" if result.ok else \
        (f"error: {result.error.format(with_source=False)}" if result.error else f"{len(result.failed)} expectations failed")
    print(f"{out}: {result.scenario.name} ({len(game_events(result))} events; {status})", file=stream)
    return result.exit_code


def game_events(result) -> list:
    return result.game.log.events if result.game is not None else []
