"""Random games with face-down enchantments, for the hidden-information checks.

Used by tests/fuzz/test_hidden_info.py (small budget) and scripts/fuzz.py (big budget).
Every card comes from the shipped corpus; nothing here names a card.
"""
from __future__ import annotations

import random
import re

from magewars.engine import EngineError, Game, RandomAgent, SeededDice
from magewars.engine import views
from magewars.engine.dice import DiceError
from magewars.scenario.runner import base_corpus

PLAYERS = ("Alice", "Bob")


def _pools():
    corpus = base_corpus()
    creatures = sorted(c.name for c in corpus.cards.values()
                       if c.kind == "creature" and c.life is not None
                       and any(a.kind == "melee" and isinstance(a.dice, int) for a in c.attacks))
    enchantments = sorted(c.name for c in corpus.cards.values() if c.kind == "enchantment")
    return creatures, enchantments


_POOLS = None


def pools():
    global _POOLS
    if _POOLS is None:
        _POOLS = _pools()
    return _POOLS


def play(seed: int, attacks: int = 3) -> Game:
    """Two players, 2-4 creatures, 2-6 face-down enchantments on them, a few random attacks."""
    creatures, enchantments = pools()
    rng = random.Random(seed)
    game = Game(base_corpus(), SeededDice(seed), RandomAgent(seed))
    for p in PLAYERS:
        game.state.add_player(p, mana=rng.randint(0, 20))
    objs = []
    for i in range(rng.randint(2, 4)):
        owner = PLAYERS[i % 2]
        objs.append(game.create(rng.choice(creatures), f"c{i}", owner, zone=rng.choice(["B2", "B2", "B3"])))
    for j in range(rng.randint(2, 6)):
        host = rng.choice(objs)
        ctl = rng.choice(PLAYERS)
        e = game.create(rng.choice(enchantments), f"e{j}", ctl, hidden=True)
        e.attached_to, e.zone = host.id, None
    game.state.touch()
    for _ in range(attacks):
        live = [o for o in objs if o.in_play]
        if len(live) < 2:
            break
        a = rng.choice(live)
        targets = [o for o in live if o.controller != a.controller and game.state.zone_of(o) == game.state.zone_of(a)]
        if not targets:
            continue
        atk = next((x for x in a.card.attacks if x.kind == "melee" and isinstance(x.dice, int)), None)
        if atk is None:
            continue
        try:
            game.attacks.make_attack(a, atk.name, [rng.choice(targets)])
        except (EngineError, DiceError, KeyError):
            break
        except AttributeError:  # a known engine gap (moving an enchantment to nothing): stop this game
            break
    return game


def leaks(game: Game) -> list[tuple[str, str, str]]:
    """(viewer, card name, offending text) for every hidden card an opponent's view names."""
    # A name may legitimately appear when a face-up copy is in the game, or when it is
    # also the name of a codex entry (a condition or trait of the same name).
    # An attack bar of a face-up card may share a card's name (Spark Elemental's "Shock"): it is public.
    face_up = ({o.name for o in game.state.objects.values() if not o.hidden} | set(game.corpus.codex)
               | {a.name for o in game.state.objects.values() if not o.hidden for a in o.card.attacks})
    found = []
    for viewer in game.state.order:
        own = {o.name for o in game.state.objects.values() if o.controller == viewer}
        secret = {o.name for o in views.hidden_from(game, viewer)} - face_up - own
        if not secret:
            continue
        pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(secret)) + r")\b")
        # names the viewer may see are blanked first, so "Chains of X" does not count as "X"
        allowed = re.compile("|".join(re.escape(n) for n in sorted(face_up | own, key=len, reverse=True)))
        for t in views.texts(game, viewer):
            m = pattern.search(allowed.sub("\u2022", t))
            if m:
                found.append((viewer, m.group(1), t[:200]))
    return found
