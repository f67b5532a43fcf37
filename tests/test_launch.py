"""The `magewars` process (magewars/launch.py): a quick command's process ends without the interpreter's
teardown, and loses nothing by it (its whole output, its exit status); other commands end as any
Python program does."""
import gc
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from magewars import launch
from magewars.cli import main


def _process(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "magewars", *args], capture_output=True, timeout=300,
                          input=stdin)


def test_a_quick_commands_long_output_reaches_a_pipe_whole_and_equal_to_the_in_process_run():
    # more than a pipe holds (64 kB): what is still buffered when the command returns must be written
    r = _process("coverage", "--json")
    ran = CliRunner().invoke(main, ["coverage", "--json"])
    assert r.returncode == ran.exit_code == 0, r.stderr[-400:]
    assert len(r.stdout) > 65536
    assert json.loads(r.stdout) == json.loads(ran.stdout)
    assert b"Traceback" not in r.stderr


def test_a_quick_commands_exit_status_and_messages_are_kept(tmp_path):
    bad = tmp_path / "bad.mw"
    bad.write_text('creature "Nobody" {\n  life 3\n  bogus\n}\n', encoding="utf-8")
    r = _process("lint", str(bad))
    assert r.returncode == 1 and f"{bad}:3:3: E001".encode() in r.stdout
    r = _process("lint", "--no-such-option")
    assert r.returncode == 2 and b"No such option" in r.stderr
    r = _process("card", "no card of this name at all")
    assert r.returncode not in (0, None) and r.stderr.strip() and b"Traceback" not in r.stderr
    r = _process("--version")
    assert r.returncode == 0 and r.stdout.startswith(b"magewars, version")


class _Ended(Exception):
    pass


@pytest.fixture
def ends(monkeypatch):
    """Each os._exit the launcher makes, as an exception here (the test process goes on); the
    collector's thresholds as they were, afterwards."""
    codes = []

    def _exit(code):
        codes.append(code)
        raise _Ended()
    monkeypatch.setattr(launch.os, "_exit", _exit)
    thresholds = gc.get_threshold()
    yield codes
    gc.set_threshold(*thresholds)


def test_a_quick_command_ends_at_once_with_its_status_and_a_larger_young_generation(ends, capsys):
    with pytest.raises(_Ended):
        launch.run(["rules", "5.2"])
    assert ends == [0] and "Attack procedure" in capsys.readouterr().out
    assert gc.get_threshold()[0] == launch.QUICK_GC_THRESHOLD
    with pytest.raises(_Ended):
        launch.run(["lint", "--no-such-option"])
    assert ends == [0, 2]


def test_other_commands_end_as_python_programs_do(ends, capsys):
    before = gc.get_threshold()
    with pytest.raises(SystemExit) as exc:
        launch.run(["duel", "--help"])
    assert exc.value.code == 0 and ends == [] and gc.get_threshold() == before
    assert "Usage" in capsys.readouterr().out


def test_a_closed_output_is_left_to_pythons_own_exit(ends, monkeypatch):
    def broken():
        raise BrokenPipeError(32, "Broken pipe")
    monkeypatch.setattr(sys.stdout, "flush", broken)
    assert launch.end_now(0) is None and ends == []
