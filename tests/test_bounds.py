"""Every numeric option of `magewars odds` has a bound, enforced as a usage error (exit 2)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from magewars.bounds import MAX_ATTACHED, MAX_ATTACKS, MAX_DEFENDER_DAMAGE, check_int
from magewars.cli import main


@pytest.mark.parametrize("args,text", [
    (["--max-attacks", str(MAX_ATTACKS + 1)], f"at most {MAX_ATTACKS}"),
    (["--max-attacks", "100000"], f"at most {MAX_ATTACKS}"),
    (["--max-attacks", "-3"], "at least 1"),
    (["--defender-damage", str(MAX_DEFENDER_DAMAGE + 1)], f"at most {MAX_DEFENDER_DAMAGE}"),
    (["--defender-damage", "-1"], "at least 0"),
    (["--defender-with", "Block"] * (MAX_ATTACHED + 1), f"at most {MAX_ATTACHED}"),
    (["--with", "Bear Strength"] * (MAX_ATTACHED + 1), f"at most {MAX_ATTACHED}"),
])
def test_out_of_range_options_are_usage_errors(args, text):
    r = CliRunner().invoke(main, ["odds", "Timber Wolf", "Iron Golem", *args])
    assert r.exit_code == 2, r.output
    assert text in r.output and "Traceback" not in r.output


def test_the_largest_chain_is_answered(tmp_path):
    """--max-attacks at its bound still returns (the chain stops once the defender is surely destroyed)."""
    r = CliRunner().invoke(main, ["odds", "Timber Wolf", "Iron Golem", "--max-attacks", str(MAX_ATTACKS),
                                  "--json"])
    assert r.exit_code == 0, r.output


def test_library_checks_the_same_bounds():
    from magewars.dsl import load_corpus
    from magewars.odds import OddsError, odds
    with pytest.raises(OddsError) as e:
        odds(load_corpus(), "Timber Wolf", "Iron Golem", cap=MAX_ATTACKS + 1)
    assert e.value.code == 2 and f"at most {MAX_ATTACKS}" in str(e.value)
    with pytest.raises(ValueError):
        check_int(True, 0, 1, "--flag")
