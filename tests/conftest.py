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
