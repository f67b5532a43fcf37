"""Casting a spell (rules: the casting sequence).

For now the engine resolves spells that a scenario or an effect casts directly: an incantation's
one-shot effects run with `this` = the spell, and an attack spell's attack enters the attack
sequence.  The spell is a transient object in play while it resolves (its range and pushes count
from its caster's zone) and goes to its owner's discard pile afterwards.  The full casting sequence
(declare, pay, counter, resolve) belongs here too.
"""
from __future__ import annotations

from ..dsl import ast as A
from .phrases import Ctx
from .state import GameObject


def spell_object(game, caster: GameObject, card) -> GameObject:
    """The spell being cast, as a transient object controlled by the caster's controller."""
    n = sum(1 for o in game.state.objects if o.startswith("spell"))
    spell = GameObject(f"spell{n + 1}", card, caster.controller, caster.controller)
    spell.zone = game.state.zone_of(caster)  # a spell's range and pushes count from its caster
    game.state.add_object(spell)
    return spell


def finish(game, spell: GameObject) -> None:
    """A resolved (or canceled) spell goes to the discard pile."""
    if spell.in_play:
        game.state.remove_from_play(spell)
        game.emit("discarded", f"{spell.card.name} goes to the discard pile")


def cast_incantation(game, caster: GameObject, card, target=None) -> None:
    """An incantation (or any spell with a one-shot effect) resolves: its effects run with `this` = the
    spell.  Attacks it makes are made by the spell itself (e.g. Explode), not by the caster."""
    spell = spell_object(game, caster, card)
    game.emit("action", f"{caster.label()} casts {card.name}" + (f" on {target.label()}" if target else ""))
    game.log.depth += 1
    try:
        ctx = Ctx(this=spell, target=target, it=target)
        for ab in card.abilities:
            if isinstance(ab, A.OneShotAbility):
                game.run_effects(ab.effects, ctx)
    finally:
        game.log.depth -= 1
        finish(game, spell)


def cast_attack_spell(game, caster: GameObject, card, targets, zone=None):
    """An attack spell: the caster makes the spell's attack, which enters the attack sequence."""
    spell = spell_object(game, caster, card)
    game.emit("info", f"{caster.label()} casts {card.name}: its attack enters the attack sequence")
    try:
        return game.attacks.make_attack(caster, None, targets, zone=zone, spell=spell)
    finally:
        finish(game, spell)
