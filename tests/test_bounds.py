"""Every numeric option of `magewars odds` has a bound, and so has every name, term or question given on the
command line; each is enforced as a usage error (exit 2)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from magewars.bounds import MAX_ATTACHED, MAX_ATTACKS, MAX_DEFENDER_DAMAGE, MAX_TEXT_CHARS, check_int
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


LONG = "bear strength " * (MAX_TEXT_CHARS // 14 + 1)  # just over the bound: words a question would match


WORDS = len(" ".join(LONG.split()))  # the words given one by one, joined as the command joins them


@pytest.mark.parametrize("args,where,n", [
    (["card", *LONG.split()], "NAME...", WORDS),
    (["lookup", LONG], "[QUERY]...", len(LONG)),
    (["lookup", *LONG.split()], "[QUERY]...", WORDS),  # the words are counted joined, as the query is
    (["lookup", "--search", LONG], "--search", len(LONG)),
    (["rules", LONG], "[SECTION]", len(LONG)),
    (["odds", LONG, "Iron Golem"], "ATTACKER", len(LONG)),
    (["odds", "Timber Wolf", LONG], "DEFENDER", len(LONG)),
    (["odds", "Timber Wolf", "Iron Golem", "--attack", LONG], "--attack", len(LONG)),
    (["odds", "Timber Wolf", "Iron Golem", "--with", "Bear Strength", "--with", LONG], "--with", len(LONG)),
    (["odds", "Timber Wolf", "Iron Golem", "--defender-with", LONG], "--defender-with", len(LONG)),
    (["odds", "Timber Wolf", "Iron Golem", "--defender-hidden", LONG], "--defender-hidden", len(LONG)),
    (["odds", "Timber Wolf", "Iron Golem", "--caster", LONG], "--caster", len(LONG)),
])
def test_overlong_text_is_a_usage_error(args, where, n):
    """A page of text given as a question used to take minutes (each word matched against every name);
    it is refused before any matching, and the message does not echo it back."""
    assert n > MAX_TEXT_CHARS
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    assert r.output.rstrip().endswith(f"Error: Invalid value for '{where}': {n} characters long; "
                                      f"at most {MAX_TEXT_CHARS}"), r.output
    assert "bear strength bear strength" not in r.output


def test_text_at_the_bound_is_answered():
    name = "Bear Strength".ljust(MAX_TEXT_CHARS)  # (trailing spaces: still the card)
    r = CliRunner().invoke(main, ["card", name])
    assert r.exit_code == 0 and r.output.startswith("Bear Strength"), r.output
