"""`magewars simulate scenario FILE --html OUT`: a self-contained page of the final board and the event log."""
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from magewars.cli import main
from magewars.scenario.runner import run_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
CARDS_ROOT = Path(__file__).resolve().parents[1] / "engine" / "cards"  # shared test cards


def _scenario_with_attacks():
    for path in sorted(SCENARIOS.glob("*.yaml")):
        result = run_scenario(str(path), (CARDS_ROOT,))
        if result.ok and len(result.game.attacks.history) >= 2 and len(result.game.view()["objects"]) >= 3:
            return path, result
    pytest.fail("no shipped scenario with two attacks and three objects")


@pytest.fixture(scope="module")
def page_file(tmp_path_factory):
    path, result = _scenario_with_attacks()
    out = tmp_path_factory.mktemp("scen") / "scenario.html"
    res = CliRunner().invoke(main, ["simulate", "scenario", str(path), "--html", str(out),
                                    "--cards-root", str(CARDS_ROOT)])
    assert res.exit_code == 0, res.output
    return out, result


def test_page_holds_every_object_in_its_zone_and_every_event(page_file):
    out, result = page_file
    html = out.read_text(encoding="utf-8")
    assert "<link" not in html and "<script src" not in html  # self-contained
    view = result.game.view()
    zones = dict(re.findall(r'<section class="zone" aria-label="Zone (\w+)">(.*?)</section>', html, re.S))
    assert len(zones) == len(result.game.state.arena.zones())
    for oid, rec in view["objects"].items():
        if rec.get("zone") and not rec.get("attached_to") and rec.get("in_play"):
            assert f'data-id="{oid}"' in zones[rec["zone"]], oid
        assert f"[{oid}]" in html
    assert html.count('<li class="') - html.count('<li class="obj"') >= len(result.game.log.events)
    assert len(re.findall(r'<span class="seq">\d+</span>', html)) == len(result.game.log.events)


def test_a_broken_scenario_gets_a_located_diagnostic_and_no_page(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: broken\nplayers: [{name: A}]\nobjects: []\nactions:\n  - fly: {to: B2}\n")
    out = tmp_path / "out.html"
    res = CliRunner().invoke(main, ["simulate", "scenario", str(bad), "--html", str(out)])
    assert res.exit_code == 2
    assert re.search(rf"{re.escape(str(bad))}:\d+:\d+: S\d+ ", res.output), res.output
    assert "Traceback" not in res.output
    assert not out.exists()


def test_page_in_the_browser_filters_the_log_by_object(page_file, artifacts):
    from test_site_browser import CHROMIUM, Console, sync_api
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (apt-get install chromium chromium-driver; CI installs it)")
    out, result = page_file
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = b.new_page(viewport={"width": 1200, "height": 1000})
        console = Console(page)
        page.goto(out.as_uri())
        total = len(result.game.log.events)
        assert page.locator("#log-status").inner_text().endswith(f"{total} of {total}.")
        oid = next(o for o in result.game.view()["objects"])
        page.click(f".obj-btn[data-id='{oid}']")
        naming = sum(1 for e in result.game.log.events if f"[{oid}]" in e.text)
        assert page.locator("#log-status").inner_text() == f"Lines naming [{oid}]: {naming} of {total}."
        assert page.locator("#log li.dim").count() == total - naming
        page.screenshot(path=str(artifacts / "scenario-page.png"), full_page=True)
        assert not console.errors, console.errors
        b.close()


def test_the_scenario_page_steps_through_the_board_in_the_browser(page_file, artifacts):
    """The page also holds the step viewer (shared with the duel replay page): stepping forward
    changes the board, and the log follows it."""
    from test_site_browser import CHROMIUM, Console, sync_api
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (apt-get install chromium chromium-driver; CI installs it)")
    out, result = page_file
    html = out.read_text(encoding="utf-8")
    assert 'id="st-frames"' in html and 'id="st-step"' in html
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = b.new_page(viewport={"width": 1200, "height": 1000})
        console = Console(page)
        page.goto(out.as_uri())
        assert page.locator("#st-status").inner_text().startswith("Step 1 of ")
        shown_first = page.locator("#st-log li:not(.later)").count()
        board = page.locator("#st-board").inner_text()
        for _ in range(60):  # step until the board differs (damage, a marker, a move...)
            page.click("#st-next")
            if page.locator("#st-board").inner_text() != board:
                break
        assert page.locator("#st-board").inner_text() != board
        assert page.locator("#st-log li:not(.later)").count() > shown_first
        page.click("#st-last")
        assert page.locator("#st-log li:not(.later)").count() == page.locator("#st-log li").count()
        page.screenshot(path=str(artifacts / "scenario-steps.png"), full_page=False)
        assert not console.errors, console.errors
        b.close()
