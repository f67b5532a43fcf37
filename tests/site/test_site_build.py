"""The built web codex: every card, term, rule and ruling has a page, and no internal link is broken."""
import posixpath
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner

from magewars.cli import main
from magewars.lookup import load_rules
from magewars.site.collect import text_blocks


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids, self.h1, self._in_h1 = [], set(), [], False
        self.landmarks, self.labels, self.inputs = set(), set(), []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key):
                self.links.append(a[key])
        if tag in ("header", "nav", "main", "footer"):
            self.landmarks.add(tag)
        if tag == "label" and a.get("for"):
            self.labels.add(a["for"])
        if tag in ("input", "select") and a.get("type") != "hidden":
            self.inputs.append(a.get("id"))
        self._in_h1 = self._in_h1 or tag == "h1"

    def handle_endtag(self, tag):
        if tag == "h1":
            self._in_h1 = False

    def handle_data(self, data):
        if self._in_h1:
            self.h1.append(data)


def _parse(path: Path) -> _Page:
    p = _Page()
    p.feed(path.read_text(encoding="utf-8"))
    return p


@pytest.fixture(scope="module")
def pages(built_site):
    return {p.relative_to(built_site.out).as_posix(): _parse(p) for p in built_site.out.rglob("*.html")}


def test_every_card_term_rule_and_ruling_has_a_page(built_site, pages, corpus):
    book = load_rules()
    site = built_site.site
    assert set(corpus.cards) <= set(site.cards)
    for name, url in site.cards.items():
        assert "".join(pages[url].h1).strip() == name.strip()
    for e in book.entries:
        if e.category != "card":
            assert f"terms/{e.id}.html" in pages, e.name
    for s in book.sections:
        assert f"rules/{s.number}.html" in pages
    notes = sum(len(e.clarifications) + len(e.errata) for e in book.entries)
    assert sum(1 for p in pages if p.startswith("rulings/") and p != "rulings/index.html") == notes
    assert built_site.counts["cards"] == len(corpus.cards)
    assert built_site.indexed and built_site.indexed >= len(corpus.cards) + len(book.sections)
    assert not built_site.warnings, [w.format() for w in built_site.warnings]


def broken_links(out: Path, pages: dict) -> tuple[int, list[str]]:
    """(links checked, broken ones): every href/src that stays on the site must name an existing file,
    and every #fragment an existing id on that page."""
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    broken = []
    checked = 0
    for rel, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), unquote(parts.path))) \
                if parts.path else rel
            checked += 1
            if target not in files:
                broken.append(f"{rel}: {link}")
            elif parts.fragment and target.endswith(".html") and parts.fragment not in pages[target].ids:
                broken.append(f"{rel}: {link} (no such anchor)")
    return checked, broken


def test_no_broken_internal_link(built_site, pages):
    checked, broken = broken_links(built_site.out, pages)
    assert checked > 10000
    assert not broken, broken[:20]


def test_the_link_checker_sees_a_broken_link(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.html").write_text('<a href="../b.html">b</a><a href="y.html#top">y</a>'
                                           '<a href="#here">h</a><p id="here"></p>')
    (tmp_path / "a" / "y.html").write_text("<p id='other'></p>")
    pages = {p.relative_to(tmp_path).as_posix(): _parse(p) for p in tmp_path.rglob("*.html")}
    checked, broken = broken_links(tmp_path, pages)
    assert checked == 3
    assert broken == ["a/x.html: ../b.html", "a/x.html: y.html#top (no such anchor)"]


def test_every_page_has_landmarks_a_title_and_labelled_inputs(pages):
    for rel, page in pages.items():
        assert {"header", "nav", "main", "footer"} <= page.landmarks, rel
        assert "".join(page.h1).strip(), rel
        unlabelled = [i for i in page.inputs if i not in page.labels]
        assert not unlabelled, (rel, unlabelled)


def test_card_page_shows_the_definition(built_site, corpus):
    """A card's stats, attack dice and effect-die outcomes come from its compiled definition."""
    site = built_site.site
    card = next(c for c in sorted(corpus.cards.values(), key=lambda c: c.name)
                if c.life is not None and any(a.dice is not None and a.effect_die for a in c.attacks))
    html = (built_site.out / site.cards[card.name]).read_text(encoding="utf-8")
    assert f"<dt>Life</dt> <dd>{card.life}</dd>" in html
    attack = next(a for a in card.attacks if a.dice is not None and a.effect_die)
    assert f"<dt>Dice</dt> <dd>{attack.dice}</dd>" in html
    outcome = attack.effect_die[0].outcomes[0][0]
    assert f">{outcome}</a>" in html
    for s, _ in card.printings:
        assert s in html


def test_term_page_lists_the_cards_that_carry_it(built_site, corpus):
    from magewars.pages import cards_with_term
    book = load_rules()
    term = next(e for e in book.entries if e.category == "trait" and len(cards_with_term(corpus, e.name)) >= 3)
    html = (built_site.out / f"terms/{term.id}.html").read_text(encoding="utf-8")
    for name in cards_with_term(corpus, term.name):
        assert f">{name.replace(chr(39), '&#39;')}</a>" in html


def test_text_blocks_layout():
    blocks = text_blocks("One line\nand more.\n\n- a\n- b\n  continued\n1. first\n| h1 | h2 |\n| x | y |\n")
    assert blocks[0] == {"kind": "p", "text": "One line and more."}
    assert blocks[1] == {"kind": "ul", "items": ["a", "b continued"]}
    assert blocks[2] == {"kind": "ol", "items": ["first"]}
    assert blocks[3] == {"kind": "table", "head": ["h1", "h2"], "rows": [["x", "y"]]}


def test_cli_refuses_to_overwrite_a_foreign_folder(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    res = CliRunner().invoke(main, ["site", "build", "-o", str(tmp_path), "--no-search"])
    assert res.exit_code == 2
    assert "refusing to overwrite" in res.output
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_serve_without_a_build_is_a_usage_error(tmp_path):
    res = CliRunner().invoke(main, ["site", "serve", "-d", str(tmp_path)])
    assert res.exit_code == 2
    assert "site build" in res.output


def test_preview_server_listens_on_localhost_only(tmp_path):
    from magewars.site.serve import make_server
    server = make_server(tmp_path, 0, quiet=True)
    try:
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.server_close()


def test_cards_list_the_scenarios_that_use_them(built_site, corpus):
    """Scenario files are read from tests/scenarios; each card they place shows the file by name."""
    import yaml
    # the folder conftest.py builds the site from (not imported: test folders share module names)
    SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
    site = built_site.site
    files = sorted(SCENARIOS.glob("*.yaml"))
    assert len(site.scenarios) == len(files) > 0
    raw = yaml.safe_load(files[0].read_text(encoding="utf-8"))
    card = next(o["card"] for o in raw["objects"] if o.get("card") in corpus.cards)
    html = (built_site.out / site.cards[card]).read_text(encoding="utf-8")
    assert f"tests/scenarios/{files[0].name}" in html


def test_a_broken_scenario_file_is_reported_with_its_location(tmp_path, corpus):
    from magewars.site.collect import load_scenarios
    (tmp_path / "bad.yaml").write_text("name: x\nobjects: [\n")
    warnings = []
    assert load_scenarios(tmp_path, warnings) == []
    assert len(warnings) == 1
    text = warnings[0].format(with_source=False)
    assert text.startswith(str(tmp_path / "bad.yaml") + ":3:1: W901")
