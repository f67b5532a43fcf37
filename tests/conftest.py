import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def shared_dir():
    if not SHARED.is_dir():
        pytest.skip(f"reference material not found at {SHARED} (it sits beside the checkout in CI)")
    return SHARED


@pytest.fixture(scope="session")
def corpus():
    """The shipped corpus (compiled once per process: load_corpus keeps it).  Test modules that need
    another corpus (test cards added, a corpus of their own) define their own `corpus` fixture."""
    from magewars.dsl import load_corpus
    return load_corpus()
