"""One site build per test session (with its search index), shared by the site tests."""
import threading
from pathlib import Path

import pytest


ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, corpus):
    from magewars.site import build_site
    out = tmp_path_factory.mktemp("site") / "site"
    report = build_site(out, corpus, search=True, scenarios_dir=SCENARIOS)
    return report


@pytest.fixture(scope="session")
def site_url(built_site):
    """The built site served on 127.0.0.1 by `magewars site serve`'s server, for the session."""
    from magewars.site.serve import make_server
    server = make_server(built_site.out, 0, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
