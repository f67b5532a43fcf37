"""`magewars card NAME --compare`: generated text beside the published text, read at run time."""
import json

from click.testing import CliRunner

from magewars.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_compare_shows_both_sources_side_by_side(shared_dir):
    res = run("card", "Tiger Stance", "--compare", "--shared", str(shared_dir))
    assert res.exit_code == 0, res.output
    out = res.output
    assert "generated (magewars card)" in out and "published (read from the reference data" in out
    # the left column is our generated text, the right one names each record it read
    assert "Monk Only, Stance" in out
    assert "[cards.json: Mage Wars Arena Final Release MWPROMO79]" in out
    assert "[texts-supplement.json: Mage Wars Arena Final Release]" in out
    # the supplement's text for this card is shown (it mentions the 7+ Defense of Parry)
    sup = json.loads((shared_dir / "cards" / "texts-supplement.json").read_text())
    words = next(r["text"] for r in sup if r["name"] == "Tiger Stance").split()
    assert words[0] in out and "7+" in out


def test_compare_shows_the_data_bar_display(shared_dir):
    res = run("card", "Monk Stats", "--compare", "--shared", str(shared_dir))
    assert res.exit_code == 0, res.output
    assert "attack bars as displayed:" in res.output and "Straight Punch" in res.output


def test_compare_without_reference_folder_is_a_usage_error(tmp_path):
    res = run("card", "Tiger Stance", "--compare", "--shared", str(tmp_path / "nowhere"))
    assert res.exit_code == 2
    assert "E004 cannot read the published card data" in res.output
    assert "Traceback" not in res.output


def test_compare_reports_bad_json_with_its_location(tmp_path):
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "cards.json").write_text('{"cards": [\n  {"name": "x",\n  oops}\n]}')
    res = run("card", "Tiger Stance", "--compare", "--shared", str(tmp_path))
    assert res.exit_code == 2
    assert f"{tmp_path / 'cards' / 'cards.json'}:3:3: E004" in res.output


def test_compare_refuses_a_wrong_shape(tmp_path):
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "cards.json").write_text("[1, 2]")
    res = run("card", "Tiger Stance", "--compare", "--shared", str(tmp_path))
    assert res.exit_code == 2 and "expected an object with a 'cards' list" in res.output
