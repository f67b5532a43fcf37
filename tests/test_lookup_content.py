"""Content checks for magewars/data/rules: our rules text must be in our own words.

No run of 14 consecutive words (lowercased [a-z0-9']+ shingles, exactly as the project hook in
../shared/hooks/project_checks.py computes them) may match the 2016 supplement, the codex glossary
or any card's printed text.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
RULES_DIR = ROOT / "magewars" / "data" / "rules"
N = 14

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared reference material is absent")


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def shingles_of(text: str) -> set[str]:
    w = words(text)
    return {" ".join(w[i:i + N]) for i in range(len(w) - N + 1)}


@pytest.fixture(scope="module")
def reference_shingles() -> set[str]:
    refs = [SHARED / "reference" / "mage-wars-rules-codex-supplement-2016.txt",
            SHARED / "reference" / "codex-glossary.json"]
    out: set[str] = set()
    for r in refs:
        if r.exists():
            out |= shingles_of(r.read_text(errors="ignore"))
    cards = SHARED / "cards" / "cards.json"
    if cards.exists():
        for c in json.loads(cards.read_text())["cards"]:
            out |= shingles_of(c.get("text") or "")
    return out


def rules_files() -> list[Path]:
    return sorted(RULES_DIR.glob("*.yaml"))


def test_rules_files_present():
    names = {p.name for p in rules_files()}
    assert {"rules.yaml", "cards.yaml", "terms.yaml", "traits.yaml", "conditions.yaml"} <= names


@needs_shared
@pytest.mark.parametrize("path", rules_files(), ids=lambda p: p.name)
def test_no_14_word_copies(path: Path, reference_shingles: set[str]):
    w = words(path.read_text(encoding="utf-8"))
    copied = [" ".join(w[i:i + N]) for i in range(len(w) - N + 1) if " ".join(w[i:i + N]) in reference_shingles]
    assert not copied, f"{path.name}: {len(copied)} run(s) of {N} words copied from the references, e.g. {copied[:3]}"


@needs_shared
def test_docs_page_not_copied(reference_shingles: set[str]):
    doc = ROOT / "docs" / "rules.md"
    if not doc.exists():
        pytest.skip("docs/rules.md not written")
    w = words(doc.read_text(encoding="utf-8"))
    assert not [i for i in range(len(w) - N + 1) if " ".join(w[i:i + N]) in reference_shingles]


@needs_shared
def test_card_file_keys_are_card_names():
    cards = json.loads((SHARED / "cards" / "cards.json").read_text())["cards"]
    names = {c["name"] for c in cards}
    data = yaml.safe_load((RULES_DIR / "cards.yaml").read_text(encoding="utf-8"))
    unknown = sorted(k for k in data if k not in names)
    assert not unknown, f"cards.yaml keys that are not card names in cards.json: {unknown}"


def test_every_note_has_a_cite():
    from magewars.lookup import load_rules

    missing = [(e.id, n.text[:40]) for e in load_rules().entries
               for n in (*e.clarifications, *e.errata) if not n.cite.startswith("Supplement 2016")]
    assert not missing, missing[:10]


def test_card_entries_have_content():
    from magewars.lookup import load_rules

    empty = [e.name for e in load_rules().entries if e.category == "card" and not (e.clarifications or e.errata)]
    assert not empty, empty
