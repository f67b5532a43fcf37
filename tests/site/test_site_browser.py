"""Drive the built web codex in a real headless Chromium (Debian's, through Playwright)."""
import os
import shutil
from pathlib import Path

import pytest

from magewars.lookup import load_rules
from magewars.pages import cards_with_term

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser", shutil.which("chromium") or "")
                 if p and Path(p).is_file()), None)
if os.environ.get("MAGEWARS_REQUIRE_BROWSER") and CHROMIUM is None:  # CI sets this: never skip there
    raise RuntimeError("MAGEWARS_REQUIRE_BROWSER is set but Chromium is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[test]')")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed "
                                "(apt-get install chromium chromium-driver; CI installs it)")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


class Console:
    """Collects console errors and uncaught page errors of every page a test visits."""

    def __init__(self, page):
        self.errors = []
        page.on("console", lambda m: self.errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        # a request the browser abandons because the page moved on (net::ERR_ABORTED) is not a failure
        page.on("requestfailed", lambda r: None if "ERR_ABORTED" in (r.failure or "")
                else self.errors.append(f"requestfailed: {r.url} ({r.failure})"))
        page.on("response", lambda r: self.errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = ctx.new_page()
    pg.console = Console(pg)
    yield pg
    ctx.close()


def _searchable_trait(corpus):
    """A trait with a summary, see-also links and cards that carry it, chosen from the shipped data."""
    book = load_rules()
    for e in sorted(book.entries, key=lambda e: e.name):
        if e.category == "trait" and e.see_also and len(cards_with_term(corpus, e.name)) >= 2 \
                and len(e.name.split()) == 1 and book.get(e.see_also[0]) is not None:
            return e
    pytest.fail("no trait with see-also links and carriers in the shipped data")


def test_search_finds_a_term_then_see_also_and_card_links_work(page, site_url, corpus, artifacts):
    term = _searchable_trait(corpus)
    page.goto(site_url + "index.html")
    page.fill("#q-home", term.name)
    page.press("#q-home", "Enter")
    page.wait_for_url("**/search.html?q=*")
    result = page.locator(f".pagefind-ui__result-link[href$='terms/{term.id}.html']").first
    result.wait_for(timeout=15000)
    page.screenshot(path=str(artifacts / "site-search.png"), full_page=False)
    result.click()
    page.wait_for_url(f"**/terms/{term.id}.html")
    assert page.locator("h1").inner_text().strip() == term.name

    # a see-also link leads to the entry it names
    target = load_rules().get(term.see_also[0])
    link = page.locator(".see-also a").first
    assert link.inner_text().strip() == target.name
    link.click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text().strip() == target.name
    page.go_back()

    # a card link leads to the card, whose traits link back to the term
    card = cards_with_term(corpus, term.name)[0]
    page.get_by_role("link", name=card, exact=True).first.click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text().strip() == card.strip()
    assert page.locator(f"a[href$='terms/{term.id}.html']").count() >= 1
    page.screenshot(path=str(artifacts / "site-card.png"), full_page=True)
    assert not page.console.errors, page.console.errors


def test_card_filters_narrow_the_list(page, site_url, corpus):
    sets = sorted({s for c in corpus.cards.values() for s, _ in c.printings})
    chosen = sets[0]
    expected = sum(1 for c in corpus.cards.values() if any(s == chosen for s, _ in c.printings))
    page.goto(site_url + "cards/index.html")
    page.select_option("#f-set", chosen)
    assert page.locator("#card-table tbody tr:visible").count() == expected
    assert f"set={chosen.split()[0]}" in page.url
    kinds = {c.kind for c in corpus.cards.values() if any(s == chosen for s, _ in c.printings)}
    kind = sorted(kinds)[0]
    page.select_option("#f-type", kind)
    both = sum(1 for c in corpus.cards.values() if c.kind == kind and any(s == chosen for s, _ in c.printings))
    assert page.locator("#card-table tbody tr:visible").count() == both
    assert str(both) in page.locator("#filter-status").inner_text()
    assert not page.console.errors, page.console.errors


def test_keyboard_and_phone(browser, site_url, artifacts):
    """The first Tab reaches the skip link, which moves focus to the main content; a phone-width page
    does not scroll sideways."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    console = Console(page)
    page.goto(site_url + "rules/index.html")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    for path in ("index.html", "rules/index.html", "cards/index.html", "terms/index.html"):
        page.goto(site_url + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, (path, overflow)
    page.goto(site_url + "index.html")
    page.screenshot(path=str(artifacts / "site-phone-home.png"), full_page=True)
    assert not console.errors, console.errors
    ctx.close()


CONTRAST_JS = """() => {
  const parse = c => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(',').map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const bgOf = el => { for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor);
    if (c && c.a > 0.9) return c; } return {r: 255, g: 255, b: 255, a: 1}; };
  const bad = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const st = getComputedStyle(el);
    const fg = parse(st.color), bg = bgOf(el);
    const l1 = lum(fg), l2 = lum(bg);
    const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    const large = parseFloat(st.fontSize) >= 24 || (parseFloat(st.fontSize) >= 18.66 && parseInt(st.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) bad.push(el.tagName + ' "' + el.textContent.trim().slice(0, 30) + '" ' + ratio.toFixed(2));
  }
  return bad;
}"""


def test_text_contrast_meets_wcag_aa(page, site_url, corpus):
    """Every visible text run on the main kinds of page has at least 4.5:1 contrast (3:1 when large)."""
    term = _searchable_trait(corpus)
    card = cards_with_term(corpus, term.name)[0]
    page.goto(site_url + f"search.html?q={term.name}")
    page.locator(".pagefind-ui__result-link").first.wait_for(timeout=15000)
    # results load one by one; their grey ". . ." placeholders are not text a reader sees
    page.wait_for_function("document.querySelectorAll('.pagefind-ui__loading').length === 0", timeout=30000)
    problems = {"search.html": page.evaluate(CONTRAST_JS)}
    page.goto(site_url + f"terms/{term.id}.html")
    page.get_by_role("link", name=card, exact=True).first.click()
    page.wait_for_load_state()
    problems["card"] = page.evaluate(CONTRAST_JS)
    for path in ("index.html", f"terms/{term.id}.html", "rules/index.html", "cards/index.html",
                 "rulings/index.html", "browse/index.html"):
        page.goto(site_url + path)
        problems[path] = page.evaluate(CONTRAST_JS)
    problems = {k: v for k, v in problems.items() if v}
    assert not problems, problems
