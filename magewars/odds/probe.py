"""Probing the engine's own attack sequence with chosen die results.

The odds module holds no rules.  For every question it asks the engine: it
builds the board with the engine's state API (`Game.create`), runs the real
attack sequence (`AttackEngine.make_attack`) and answers the dice from a
`ProbeDice`, which returns the faces and d12 results we choose.  What the
engine does with them (dice count after modifiers, armor, Piercing, critical
damage, immunities, Resilient, Incorporeal, effect-die modifiers, conditions
placed, destruction) is read back from the `Attack` record the engine keeps.

A d12 is told apart by the step of the attack sequence that asks for it:
Roll to Miss (Daze), Avoid Attack (a defense) or Damage and Effects (the
effect die).  Only rolls made for the first individual attack of the action
(the one under study) are scripted; every other roll (later strikes,
counterstrikes, damage barriers) gets blanks and a 12.
"""
from __future__ import annotations

from dataclasses import field
from typing import Callable, Optional

from ..dsl.model import CardDefinition, Corpus
from ..engine import Dice, EngineError, FirstLegalAgent, Game
from ..engine.dice import BLANK, Face
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

ZONE = "B2"
D12_PURPOSE = {"roll_to_miss": "miss", "avoid_attack": "defense", "damage_and_effects": "effect"}


class OddsError(Exception):
    """A question odds cannot answer (unknown card, illegal attack...): a message, exit 1 or 2."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


class ProbeDice(Dice):
    """Answers the engine's rolls: chosen faces and d12 results for the attack under study."""

    def __init__(self, faces: Optional[Callable[[int], list]] = None, d12: Optional[dict] = None):
        self.faces = faces
        self.d12_values = d12 or {}
        self.game: Optional[Game] = None
        self.asked: dict[str, int] = {}  # purpose -> times asked
        self.n_dice: Optional[int] = None

    def _main(self) -> bool:
        g = self.game
        hist = g.attacks.history
        return bool(hist) and g.current_attack is hist[0]

    def _step(self) -> Optional[str]:
        for e in reversed(self.game.log.events):
            if e.kind == "step":
                return e.data.get("step")
        return None

    def attack(self, count: int) -> list[Face]:
        if self._main() and self.n_dice is None:
            self.n_dice = count
            self.asked["dice"] = self.asked.get("dice", 0) + 1
            if self.faces is not None:
                got = list(self.faces(count))
                if len(got) != count:  # pragma: no cover - a bug in the caller
                    raise EngineError(f"probe gave {len(got)} faces for {count} dice")
                return got
        return [BLANK] * count

    def d12(self) -> int:
        if self._main():
            purpose = D12_PURPOSE.get(self._step() or "", "other")
            self.asked[purpose] = self.asked.get(purpose, 0) + 1
            return int(self.d12_values.get(purpose, 12))
        return 12


@light_dataclass(frozen=True)
class Spec:
    """One odds question: who attacks whom with what, on which board."""
    corpus: Corpus
    attacker: CardDefinition  # a creature, a mage's stats card, or an attack spell
    defender: CardDefinition
    attack: Optional[str] = None  # attack name (None: the first attack)
    attacker_with: tuple = ()  # CardDefinitions attached to the attacker (or the caster of a spell)
    defender_with: tuple = ()
    defender_damage: int = 0
    caster: Optional[CardDefinition] = None  # for attack spells
    charge: bool = False
    defender_hidden: tuple = ()  # enchantments attached to the defender face down (RevealWhenAllowed)


class RevealWhenAllowed(FirstLegalAgent):
    """The defender's player under the odds' explicit assumption for `--defender-hidden`: each of
    its face-down enchantments is revealed at the first reveal window its own reveal rule allows
    (the engine's Reveals.rule_applies decides); every other decision is the default one.  A
    reveal the card's rule makes mandatory needs no decision: the engine makes it."""

    def __init__(self, game: Game, ids: set):
        self.game = game
        self.ids = ids

    def decide(self, decision):
        if decision.kind == "reveal":
            step = decision.context.get("step")
            g = self.game
            from ..engine.reveal import reveal_rules
            for o in decision.options:
                obj = o.value
                if obj is not None and getattr(obj, "id", None) in self.ids and step and any(
                        g.reveals.rule_applies(obj, rule, "after", step, g.current_attack)
                        for rule in reveal_rules(obj)):
                    return o
        return super().decide(decision)


@light_dataclass
class Outcome:
    """What the engine did with one scripted roll of the attack under study."""
    status: str
    dice: int
    dice_mods: list
    damage: int
    destroyed: bool
    effect_natural: Optional[int]
    effect_roll: Optional[int]
    effect_mods: list
    conditions: tuple
    asked: dict
    attack_name: str
    log: list = field(default_factory=list)
    view: Optional[dict] = None  # the defender before the attack (see defender_view), when asked for


def build(spec: Spec, dice: Dice, defender_damage: Optional[int] = None):
    """The board of the question, with the engine's state API; returns (game, attacker, defender, spell)."""
    g = Game(spec.corpus, dice, FirstLegalAgent())
    g.state.add_player("Attacker", mana=99)  # odds are about the dice: attack costs can always be paid
    g.state.add_player("Defender")
    spell = None
    if spec.attacker.kind == "attack":
        spell = spec.attacker
        a = g.create(spec.caster, "attacker", "Attacker", zone=ZONE)
    else:
        a = g.create(spec.attacker, "attacker", "Attacker", zone=ZONE)
    d = g.create(spec.defender, "defender", "Defender", zone=ZONE)
    for i, c in enumerate(spec.attacker_with):
        g.create(c, f"aw{i}", "Attacker", attached_to=a.id)
    for i, c in enumerate(spec.defender_with):
        g.create(c, f"dw{i}", "Defender", attached_to=d.id)
    if spec.defender_hidden:
        g.state.players["Defender"].mana = 99  # the assumption: its reveal costs can be paid
        ids = {g.create(c, f"dh{i}", "Defender", attached_to=d.id, hidden=True).id
               for i, c in enumerate(spec.defender_hidden)}
        g.agents = {"Defender": RevealWhenAllowed(g, ids), "*": FirstLegalAgent()}
    dmg = spec.defender_damage if defender_damage is None else defender_damage
    if dmg:
        g.state.set_damage(d, dmg)
    g.state.touch()
    return g, a, d, spell


def run(spec: Spec, dice: Dice, defender_damage: Optional[int] = None, before=None):
    """Run the engine's real attack sequence once on a fresh board; returns (game, attacker, defender).
    `before(game, attacker, defender)` is called on the board before the attack."""
    g, a, d, spell = build(spec, dice, defender_damage)
    if before is not None:
        before(g, a, d)
    if isinstance(dice, ProbeDice):
        dice.game = g
    if spec.charge:
        # a charge is an attack made right after a move: the state says the attacker's last action was
        # a move (Game.just_moved, which movement sets), and make_attack charges its attack
        g.just_moved.add(a.id)
    try:
        g.attacks.make_attack(a, None if spell else spec.attack, [d], spell_card=spell)
    except KeyError as e:
        raise OddsError(str(e).strip("'\""), 2)
    except (EngineError, RecursionError) as e:
        raise OddsError(f"the engine cannot resolve this attack: {e}", 2)
    return g, a, d


def probe(spec: Spec, faces=None, d12=None, defender_damage: Optional[int] = None,
          with_view: bool = False) -> Outcome:
    """One run of the real sequence with chosen rolls; what the engine made of them
    (and, with `with_view`, the defender as `defender_view` gives it, read on the same board)."""
    pd = ProbeDice(faces, d12)
    seen: dict = {}
    g, a, d = run(spec, pd, defender_damage,
                  before=(lambda g, a, d: seen.update(_view(g, a, d))) if with_view else None)
    hist = g.attacks.history
    atk = hist[0] if hist else None
    if atk is None or not atk.declared:
        why = next((e.data.get("why") or e.text for e in reversed(g.log.events) if e.kind == "canceled"), None)
        raise OddsError("the engine refuses this attack: " + (why or "no attack was made"), 1)
    status = atk.status
    if status == "hit" and atk.target is not d:
        status = "redirected"
    return Outcome(status=status, dice=atk.dice_count, dice_mods=list(atk.dice_mods),
                   damage=atk.damage if status == "hit" else 0, destroyed=not d.in_play,
                   effect_natural=atk.effect_natural, effect_roll=atk.effect_roll,
                   effect_mods=list(atk.effect_mods), conditions=tuple(sorted(atk.conditions)),
                   asked=dict(pd.asked), attack_name=atk.action.definition.name, log=g.log.events,
                   view=seen if with_view else None)


def defender_view(spec: Spec, defender_damage: Optional[int] = None) -> dict:
    """The defender before the attack, as the engine derives it (Game.remaining_health, armor, traits)."""
    g, a, d, _ = build(spec, ProbeDice(), defender_damage)
    return _view(g, a, d)


def _view(g, a, d) -> dict:
    return {"remaining": g.remaining_health(d), "life": g.life(d), "armor": g.armor(d),
            "damage": d.damage, "traits": tuple(g.d(d).trait_names()),
            "attacker_traits": tuple(g.d(a).trait_names())}
