"""`magewars replay RESULT --game I --html OUT`: a page to step through a seeded duel, board and log in sync."""
import json
import re

import pytest
from click.testing import CliRunner

from magewars.cli import main
from magewars.duel.backend import run
from magewars.duel.runner import DuelConfig, document, dumps


@pytest.fixture(scope="module")
def duel_pages(tmp_path_factory):
    d = tmp_path_factory.mktemp("replay")
    cfg = DuelConfig(("beastmaster", "wizard"), ("greedy", "random"), seed=2, max_rounds=12)
    (d / "r.json").write_text(dumps(document(cfg, run(cfg, 2))))
    pages = {}
    for who in (None, "B"):
        out = d / f"replay-{who or 'all'}.html"
        args = ["replay", str(d / "r.json"), "--game", "1", "--html", str(out)] + (["--as", who] if who else [])
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 0, res.output
        pages[who] = out
    return pages


def frames_of(html: str) -> list:
    m = re.search(r'<script type="application/json" id="frames">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def test_page_is_self_contained_and_holds_every_step(duel_pages):
    html = duel_pages[None].read_text(encoding="utf-8")
    assert "<link" not in html and "<script src" not in html
    frames = frames_of(html)
    assert len(frames) > 5
    assert len({json.dumps(f, sort_keys=True) for f in frames}) > 5  # the board changes as the game goes
    assert html.count('<li class="') >= 100


def test_a_players_page_never_names_the_opponents_hidden_cards(duel_pages):
    from magewars.duel.replay import replay_game
    full = frames_of(duel_pages[None].read_text(encoding="utf-8"))
    mine = frames_of(duel_pages["B"].read_text(encoding="utf-8"))
    hidden_of_a = {o["card"] for f in full for o in f["objects"] if o.get("hidden") and o["who"] == "A"}
    shown_to_b = {o["card"] for f in mine for o in f["objects"] if o["who"] == "A"}
    public_a = {o["card"] for f in full for o in f["objects"] if not o.get("hidden") and o["who"] == "A"}
    assert not (hidden_of_a - public_a) & shown_to_b


def test_stepping_forward_changes_the_board_in_the_browser(duel_pages, artifacts):
    from test_site_browser import CHROMIUM, Console, sync_api
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (apt-get install chromium chromium-driver; CI installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = b.new_page(viewport={"width": 1200, "height": 1000})
        console = Console(page)
        page.goto(duel_pages[None].as_uri())
        assert page.locator("#status").inner_text().startswith("Step 1 of ")
        shown_first = page.locator("#log li:not(.later)").count()
        board = page.locator("#board").inner_text()
        for _ in range(40):  # step until the board differs (a move, damage, a cast...)
            page.click("#next")
            if page.locator("#board").inner_text() != board:
                break
        assert page.locator("#board").inner_text() != board
        assert page.locator("#log li:not(.later)").count() > shown_first  # the log follows the board
        assert page.locator("#log li.now").count() >= 1
        page.click("#last")
        total = page.locator("#log li").count()
        assert page.locator("#log li:not(.later)").count() == total
        page.screenshot(path=str(artifacts / "replay-page.png"), full_page=False)
        assert not console.errors, console.errors
        b.close()
