"""Reveal windows (engine/reveal.py) on shipped cards: what each window offers, while the window keeps
its candidates, kept reveal costs and pooled restriction checks between windows."""
from __future__ import annotations


from magewars.engine import Game, SeededDice
from magewars.engine.decisions import FirstLegalAgent
from magewars.engine.restrictions import forbids, BE_REVEALED


class Recorder(FirstLegalAgent):
    """Passes everywhere (the default), except that it reveals the cards named in `reveal` when offered;
    records what each reveal window offered (step, names)."""

    def __init__(self, reveal=()):
        self.reveal = list(reveal)
        self.offers: list[tuple[str, list[str]]] = []

    def decide(self, d):
        if d.kind == "reveal":
            names = [o.label for o in d.options[1:]]
            self.offers.append((d.context.get("step"), names))
            for i, o in enumerate(d.options):
                if o.value is not None and o.label in self.reveal:
                    self.reveal.remove(o.label)
                    return o
        return super().decide(d)


def duel(corpus, agent, bob_mana=30):
    g = Game(corpus, SeededDice(1), agent)
    g.state.add_player("Alice", mana=30)
    g.state.add_player("Bob", mana=bob_mana)
    wolf = g.create("Timber Wolf", "wolf", "Alice", zone="B2")
    bear = g.create("Timber Wolf", "bear", "Bob", zone="B2")
    return g, wolf, bear


def fresh_candidates(g, player):
    """What a window should offer `player`, worked out card by card from nothing kept."""
    out = []
    for o in g.reveals.hidden_of(player):
        c = o.card.reveal_cost
        cost = 0 if c is None else g.reveals._reveal_cost(o, c)
        mage = g.state.mage_of(o.controller)
        if cost <= g.state.players[player].mana and not (
                forbids(g, BE_REVEALED, o, by=mage) or (forbids(g, "reveal", mage, o) if mage else None)):
            out.append(o.name)
    return out


def test_a_card_that_cannot_be_revealed_during_actions_is_offered_in_no_window_of_an_attack(corpus):
    agent = Recorder()
    g, wolf, bear = duel(corpus, agent)
    g.create("Rhino Hide", "rh", "Bob", attached_to="bear", hidden=True)
    g.create("Turn to Stone", "ts", "Bob", attached_to="bear", hidden=True)
    g.attacks.make_attack(wolf, "Bite", [bear])
    bobs = [names for step, names in agent.offers]
    assert len(bobs) >= 5  # every window of the sequence asked Bob
    assert all(names == ["Rhino Hide"] for names in bobs), agent.offers
    # out of any action (no attack under way, no phase), the same window offers both
    agent.offers.clear()
    g.reveals.window("test")
    assert agent.offers == [("test", ["Rhino Hide", "Turn to Stone"])]
    assert fresh_candidates(g, "Bob") == ["Rhino Hide", "Turn to Stone"]


def test_a_window_offers_again_only_what_the_mana_left_pays_for(corpus):
    # Bob can pay one reveal (Rhino Hide: 2, Bear Strength: 3) but not both: once one is revealed, the
    # kept candidates of the window must not offer the other
    agent = Recorder(reveal=["Rhino Hide"])
    g, wolf, bear = duel(corpus, agent, bob_mana=4)
    g.create("Rhino Hide", "rh", "Bob", attached_to="bear", hidden=True)
    g.create("Bear Strength", "bs", "Bob", attached_to="bear", hidden=True)
    g.attacks.make_attack(wolf, "Bite", [bear])
    assert agent.offers[0][1] == ["Rhino Hide", "Bear Strength"]
    assert not g.state.get("rh").hidden and g.state.players["Bob"].mana == 2
    assert all(names == [] for _, names in agent.offers[1:]) or len(agent.offers) == 1
    assert g.reveals._candidates("Bob") == [] == fresh_candidates(g, "Bob")


def test_kept_reveal_costs_and_candidates_match_fresh_ones_after_every_event(corpus):
    # three hidden enchantments through a whole attack, damage landing on their host: after every event
    # the kept costs and the window's kept candidates are what a fresh working-out gives
    agent = Recorder()
    g, wolf, bear = duel(corpus, agent)
    for i, name in enumerate(["Bear Strength", "Rhino Hide", "Bull Endurance"]):
        g.create(name, f"h{i}", "Bob", attached_to="bear", hidden=True)
    log = g.log
    emit = log.emit
    seen = []

    def checked(*a, **kw):
        ev = emit(*a, **kw)
        if not g.effects._computing:
            for o in g.reveals.hidden_of("Bob"):
                assert g.reveals.reveal_cost(o) == g.reveals._reveal_cost(o, o.card.reveal_cost)
            assert [o.name for o in g.reveals._candidates("Bob")] == fresh_candidates(g, "Bob")
            seen.append(ev)
        return ev

    log.emit = checked
    g.attacks.make_attack(wolf, "Bite", [bear])
    assert bear.damage > 0 and len(seen) > 20
    assert {n for _, names in agent.offers for n in names} == {"Bear Strength", "Rhino Hide", "Bull Endurance"}


def test_the_kept_readings_of_cost_statics_are_the_fresh_ones_over_the_corpus(corpus):
    # own_reveal_cost / _own_card_reveal_cost are read once per node (cardindex.per_definition): over every
    # `costs(...)` static of the shipped codex and cards, the kept answer is the reading's own
    from magewars.dsl import ast as A
    from magewars.engine import reveal as R
    calls = [ab.effect for d in (*corpus.codex.values(), *corpus.cards.values()) for ab in d.abilities
             if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == "costs"]
    assert len(calls) > 10
    for read in (R.own_reveal_cost, R._own_card_reveal_cost):
        for call in calls:
            assert read(call) == read.__wrapped__(call) == read(call)
    assert any(R.own_reveal_cost(c) for c in calls) and any(R._own_card_reveal_cost(c) for c in calls)


def test_a_refused_statement_of_a_face_down_card_is_named_to_its_controller_only(corpus):
    # A hidden enchantment whose reveal restriction the engine cannot read (its distance is measured to a
    # phrase naming nothing) is refused loudly, but the refusal names the card: only its controller may
    # read that line; the opponent reads it with the card's public label (a volume run found the refusal
    # of a hidden Mind Control's statement shown to both players).
    from magewars.dsl import compile_sources
    from magewars.dsl.model import Corpus
    from magewars.resources import data_dir
    text = ('enchantment "Veiled Ward" {\n  school Arcane 1 cost 2+2 cast quick range 0-2 targets creature\n'
            '  static if distance(controller, Flying creature) > 1 cannot(controller, "reveal", target: this)\n}\n')
    brew, diags = compile_sources([("ward.mw", text)], base=sorted(data_dir("codex").rglob("*.mw")))
    assert not [d for d in diags if d.severity == "error"], diags
    both = Corpus({**corpus.cards, **brew.cards}, dict(corpus.codex))
    g, wolf, bear = duel(both, Recorder())
    g.create("Wizard", "wiz", "Bob", zone="C3")
    g.create("Veiled Ward", "ward", "Bob", attached_to="bear", hidden=True)
    g.attacks.make_attack(wolf, "Bite", [bear])
    refused = [e for e in g.log.events if e.kind == "unsupported"]
    assert refused and all("Veiled Ward" in e.text for e in refused)
    assert all(e.secret_for == "Bob" and "Veiled Ward" not in (e.public_text or "") for e in refused)
    assert "Veiled Ward" not in g.log.render(viewer="Alice")
    assert "Veiled Ward" in g.log.render(viewer="Bob")
