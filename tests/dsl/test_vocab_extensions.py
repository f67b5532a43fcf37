"""The checker reads the structured keywords that replaced free-text `detail:` strings."""
from magewars.dsl import compile_sources

CODEX = '''
trait "Flying" { }
trait "Melee" { param bonus }
condition "Burn" { removal 2 }
'''


def diags(src: str):
    _, ds = compile_sources([("codex.mw", CODEX), ("t.mw", src)])
    return [d for d in ds if d.span.path == "t.mw"]


def card(body: str) -> str:
    return 'creature "Probe" { subtypes Goblin armor 1 life 5 ' + body + ' }'


def test_every_phrase_of_a_casting_restriction_is_checked():
    ds = diags(card("static cast_only(this, Goblin spells, Wobble spells)"))
    assert [d.code for d in ds] == ["E103"] and "Wobble" in ds[0].message


def test_keywords_after_a_rest_parameter_are_keyword_only():
    assert diags(card("static cast_only(this, Goblin spells, school_of: this)")) == []
    ds = diags(card('static cast_only(this, Goblin spells, school_of: "x y")'))
    assert [d.code for d in ds] == ["E105"]  # a quoted object is a card name, and no card has it


def test_quoted_steps_are_checked_against_the_steps():
    assert diags(card('static cannot_reveal(this, during: "upkeep")')) == []
    ds = diags(card('static cannot_reveal(this, during: "upkep")'))
    assert [d.code for d in ds] == ["E102"] and "upkeep" in (ds[0].hint or "")


def test_a_condition_argument_must_be_a_predicate():
    ok = 'effect: next_attack_gains(this, [Melee +1], provided: has(this, [Burn]))'
    assert diags('incantation "P" { ' + ok + ' }') == []
    bad = 'effect: next_attack_gains(this, [Melee +1], provided: 3)'
    assert [d.code for d in diags('incantation "P" { ' + bad + ' }')] == ["E203"]


def test_attack_keyword_must_name_a_bar_of_the_card():
    body = 'attack "Bite" { quick melee range 0-0 dice 2 } static cannot(this, "attack", attack: "Bight")'
    assert [d.code for d in diags(card(body))] == ["E105"]


def test_a_placed_token_becomes_a_phrase_name():
    assert diags(card("when enters(this): place_tokens(this, Grudge, 1) "
                      "static must(this, \"melee_attack\", target: creature with Grudge)")) == []
    assert [d.code for d in diags(card('static must(this, "melee_attack", target: creature with Grudge)'))] == ["E103"]


def test_costs_keywords_are_typed():
    assert diags(card('static costs(your Goblin spells, -1, only: "enchantment_reveal", uses: 2, shared: "k", on: this)')) == []
    assert [d.code for d in diags(card("static costs(your Goblin spells, -1, uses: Goblin)"))] == ["E203"]
