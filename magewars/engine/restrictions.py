"""Restrictions and permissions: the one query every procedure asks before it acts.

A card or codex entry states what an object may not do with `static [if COND] cannot(WHO, "ACTION",
...)` (and `cannot_reveal(WHO, during: ...)`, which is `cannot(WHO, "be revealed", during: ...)`),
and what it may do beyond the rules with `static [if COND] can(WHO, "ACTION", ...)`.  The engine asks

    forbids(game, action, actor, target=None, by=..., attack=..., into=..., out_of=..., rule=...)
    permits(game, action, actor, target=None, ...)

at the moment it is about to do the thing, with the actor, what the action is aimed at and the
context; the answer is None or a :class:`Ruling` (a string naming the object that does it, the card or
codex entry whose line applied, and that rule: `.rule` is "Codex: NAME" or "Card: NAME").

Where a statement is read from:

* every card in play and face up (an enchantment only once attached), `this` = that card;
* the parties to the action — the actor, the object aimed at, the object doing it (`by`), the spell
  being cast — each for its own card (also when it is not in play yet or face down: a spell being
  cast, a hidden enchantment asked whether it may be revealed) and for the codex entries it carries
  (its traits and markers), `this` = that party.

A statement applies when WHO fits the actor, its condition holds, and each keyword fits:
`target:` what the action is aimed at (an object or a zone), `by:` the object doing it (a player
phrase names that player's objects), `except:` the object doing it or what is aimed at (another
object than the actor) or the codex rule doing it, `during:` the phase or step now (below),
`into:` / `out_of:` the zone entered or left, `attack:` the attack bar used, `speed:` (of a permission)
the action the spell aimed at is cast with.  A statement with a
keyword this module does not read is not applied here: `kind:` (the continuous-effects layer rules
on it), `detail:` (free text: refused loudly).  Statements whose condition or phrase cannot be
read are reported (an `unsupported` event) and not applied.

No card or trait is named here: the cards and the codex state their restrictions.  Which actions
are asked where is written out in :data:`HOOKS` (coverage reads it: a statement about an action no
procedure asks about is refused loudly, never counted as running).
"""
from __future__ import annotations

import operator
from typing import Any, Iterable, Iterator, Optional, Sequence

from ..dsl import ast as A
from .cardindex import per_definition
from .codextable import copy_of
from .phrases import PRONOUNS, Ctx, PhraseError, matches, resolve, selector_of

#: where each action is asked (the procedure and its hook point): `cannot(WHO, "ACTION", ...)` and
#: `can(...)` statements about an action listed here run; any other action is refused loudly
HOOKS: dict[str, str] = {
    "attack": "attack declaration (AttackEngine.illegal_reason via attack_forbidden)",
    "melee_attack": "attack declaration (melee attacks)",
    "ranged_attack": "attack declaration (ranged attacks)",
    "declare": "attack declaration, with `attack:` naming one attack bar",
    "be_attacked": "attack declaration, with `by:` the attacking spell or object",
    "be targeted": "casting's declaration (each target of a spell, by: the spell) and attack declaration "
                   "(a target that is not a zone, by: the attacker)",
    "target": "casting's declaration: the spell being cast may not aim at this object or zone",
    "cast": "casting's declaration: the caster may not cast this spell (target: the spell)",
    "be cast": "casting's declaration: the spell may not be cast (into: the zone it goes to)",
    "enter play": "casting's declaration (the spell, by: the caster or the object summoning it) and "
                  "reanimation (reanimation.p_reanimate, by: the reanimating source): it may not come into play",
    "attach": "casting's declaration: the caster may not cast a spell that attaches to an object (an "
              "enchantment, equipment or conjuration cast on it), target: that object",
    "be placed": "casting's declaration: a conjuration or creature placed into a zone (into:)",
    "reveal": "reveal windows and the reveal process: a player's Mage may not reveal an enchantment",
    "be revealed": "reveal windows and the reveal process (engine/reveal.py), during: the phase or action",
    "be destroyed": "the would-be-destroyed window (Game.would_be_destroyed), by: and except:",
    "be destroyed by damage": "the would-be-destroyed window, when damage destroys it",
    "receive damage": "Game.deal_damage",
    "guard": "the guard action (engine/activation.py) and keeping a guard marker",
    "use_defense": "the avoid-attack step (a defense offered)",
    "defend": "the avoid-attack step: the object giving a defense may not give it now (target: none)",
    "heal": "Game.heal (by: the object healing it, for an `ignore(this, [ENTRY])` of a healing spell)",
    "regenerate": "the regenerate effect (primitives.p_regenerate: a Regenerate trait at upkeep)",
    "remove condition": "removing a condition marker (primitives.p_remove: Burn going out at upkeep...), "
                        "target: the marker, by its name",
    "rebind": "binding a spell to an object that has one bound already (engine/bound.py p_bind_spell)",
    "ready": "the Reset Phase flipping action markers (round.ready_marker), during: the phase",
    "push through": "a push across a wall (movement.push): by: the pushing object",
    "be pushed through": "a push across a wall (movement.push): the pushed object",
    "be moved to another object": "moving an attachment to a new object (Game.move_attachment): the attachment; "
                                  "and casting's declaration: an enchantment a spell would move to a new target",
}
#: codex statements whose action another reader rules on already (the continuous-effects layer's
#: `cannot_do`, movement.restriction): this module leaves them to it so they are read once
READ_ELSEWHERE: frozenset[str] = frozenset({"gain life", "use_defense", "attack", "counterstrike",
                                            "force attacks", "take actions", "move", "be pushed",
                                            "be teleported", "hinder", "act after moving", "move through",
                                            "move twice", "ignore guards", "melee_attack", "ranged_attack"})
#: kinds of spell that are attached to the object they are cast on (the "attach" action)
ATTACHING_KINDS: frozenset[str] = frozenset({"enchantment", "equipment", "conjuration"})
#: the keywords read here
KEYWORDS: frozenset[str] = frozenset({"target", "by", "except", "attack", "during", "into", "out_of"})
#: `during:` words and the moments they name: a phase of the round (RoundState.phase_key), or "action"
#: (the Action Phase, or any attack or spell being resolved) and "quickcast" (a quickcast phase)
DURING_PHASES: dict[str, tuple[str, ...]] = {
    "reset": ("reset",), "upkeep": ("upkeep",), "channeling": ("channeling",), "planning": ("planning",),
    "deployment": ("deployment",), "action": ("action",), "quickcast": ("first_quickcast", "final_quickcast"),
    "end": ("end",),
}
#: which `cannot` actions forbid making an attack of a kind (melee, ranged, any)
ATTACK_ACTIONS: dict[str, Optional[str]] = {"attack": None, "melee_attack": "melee", "ranged_attack": "ranged",
                                            "declare": None}
#: the static call naming a reveal restriction (`cannot_reveal(WHO, during: ...)`)
CANNOT_REVEAL = "cannot_reveal"
#: a codex entry's `prevent_damage()` (no amount): the object carrying it cannot receive damage
PREVENT_DAMAGE = "prevent_damage"
RECEIVE_DAMAGE = "receive damage"
#: `ignore(WHO, [ENTRIES])`: what those codex entries forbid or permit does not hold for WHO
IGNORE = "ignore"
#: `must(WHO, "ACTION", ...)`: an obligation, read where OBLIGATION_HOOKS says
MUST = "must"
OBLIGATION_HOOKS: dict[str, str] = {
    "be cast": "casting's declaration: a spell that must be cast into a place matching `into:` is refused elsewhere",
    "be in a zone": "casting's declaration: a target of the spell (`must(target, ...)`) must stand in a zone "
                    "matching `at:`",
    "full action": "the move sequence's declaration (movement.declare_move) and the Action Phase: with "
                   "`to: \"move\"`, a move into (`into:`), out of (`out_of:`) or across (`target:` a wall) a place "
                   "takes the creature's whole action (no move before it, no action after it)",
    "attack": "the Action Phase (activation.obligations): while it can, the creature is offered only attacks on "
              "an object `target:` names",
    "melee attack": "the Action Phase: only melee attacks on an object `target:` names, while it can",
    "ranged attack": "the Action Phase: only ranged attacks on an object `target:` names, while it can",
    "move": "the Action Phase: while it can, only moves that bring it nearer an object `toward:` names",
}
#: for each obligation: the keywords it needs, and those it may have besides
OBLIGATION_KEYWORDS: dict[str, tuple[frozenset, frozenset]] = {
    "be cast": (frozenset({"into"}), frozenset()),
    "be in a zone": (frozenset({"at"}), frozenset()),
    "full action": (frozenset({"to"}), frozenset({"into", "out_of", "target"})),
    "attack": (frozenset({"target"}), frozenset()),
    "melee attack": (frozenset({"target"}), frozenset()),
    "ranged attack": (frozenset({"target"}), frozenset()),
    "move": (frozenset({"toward"}), frozenset({"during"})),
}
#: the `during:` an Action Phase obligation may name (it is read only then anyway)
DUTY_DURING: frozenset[str] = frozenset({"action"})
#: what a `full_action` obligation is spent on (`to:`)
FULL_ACTION_TO: frozenset[str] = frozenset({"move"})
STATEMENT_CALLS = ("cannot", "can", CANNOT_REVEAL, PREVENT_DAMAGE, IGNORE, MUST)
BE_REVEALED = "be revealed"
#: the actions ruled on here (coverage reads them)
ACTIONS: frozenset[str] = frozenset(HOOKS)


def _norm(action: str) -> str:
    got = _NORMED.get(action)
    if got is None:
        got = action.replace("_", " ").strip().lower()
        if len(_NORMED) < 4096:
            _NORMED[action] = got
    return got


_NORMED: dict[str, str] = {}  # action words as procedures and statements spell them -> normalized


_HOOKED = {_norm(a): a for a in HOOKS}


class Ruling(str):
    """Why an action is forbidden (or permitted): readable text, with `.rule` ("Codex: NAME" or
    "Card: NAME"), `.source` (the object whose card or codex entry states it) and `.action`."""
    rule: str = ""
    source: Any = None
    action: str = ""

    def __new__(cls, text: str, rule: str = "", source=None, action: str = ""):
        s = super().__new__(cls, text)
        s.rule, s.source, s.action = rule, source, action
        return s


# ---------------------------------------------------------------- which statements this module reads
@per_definition
def _args(call: A.Call) -> tuple[tuple, dict]:
    """(positional values, keyword values) of a statement, read once per call (calls are frozen; the
    queries read them at every statement they weigh).  Shared: callers only read them."""
    return tuple([a.value for a in call.args if not a.key]), {a.key: a.value for a in call.args if a.key}


@per_definition  # (calls are frozen: read once per call, as the queries ask it of every statement they weigh)
def action_of(call: A.Call) -> Optional[str]:
    """The action a `cannot`/`can`/`cannot_reveal` statement is about (normalized), or None."""
    if call.name == CANNOT_REVEAL:
        return BE_REVEALED
    if call.name == PREVENT_DAMAGE and not call.args:
        return RECEIVE_DAMAGE
    if call.name not in ("cannot", "can") or len(call.args) < 2:
        return None
    act = call.args[1].value
    return _norm(act.value) if isinstance(act, A.StringLit) else None


def is_restriction(call: A.Call, codex: bool = False) -> bool:
    """Is this `cannot(...)` (or `cannot_reveal(...)`) one this module applies: an action some procedure
    asks about (HOOKS), keywords of KEYWORDS, a phrase as its subject?  For a codex entry (`codex`),
    actions READ_ELSEWHERE are left to their reader."""
    return _restriction_reading(call)[1 if codex else 0]


@per_definition
def _restriction_reading(call: A.Call) -> tuple[bool, bool]:
    """is_restriction of a call outside a codex entry and in one, read once per call (calls are frozen:
    the layers ask it of every static at every object worked out and every query)."""
    return _is_restriction(call, False), _is_restriction(call, True)


def _is_restriction(call: A.Call, codex: bool) -> bool:
    if call.name == PREVENT_DAMAGE:
        return codex and not call.args  # `prevent_damage()` of a codex entry: `this` receives no damage
    if call.name not in ("cannot", CANNOT_REVEAL) or not call.args:
        return False
    if not isinstance(call.args[0].value, A.Phrase):
        return False
    act = action_of(call)
    if act is None or act not in _HOOKED:
        return False
    if codex and act in {_norm(a) for a in READ_ELSEWHERE}:
        return False
    pos, kw = _args(call)
    if call.name == CANNOT_REVEAL:
        return set(kw) <= {"during"} and len(pos) == 1
    if act == "be attacked" and "by" not in kw:
        return False  # `cannot(this, "be_attacked", kind: ...)`: the continuous-effects layer's
    if act == "declare" and "attack" not in kw:
        return False
    if "during" in kw and not (isinstance(kw["during"], A.StringLit) and kw["during"].value in DURING_PHASES):
        return False
    return set(kw) <= KEYWORDS and len(pos) == 2


# ---------------------------------------------------------------- where statements come from
def _carried(game, obj) -> Sequence[str]:
    """Codex entries an object carries: its traits (printed and gained) and its markers."""
    try:
        names = game.effects.entries(obj)  # (its traits, then its markers: kept with its derived value)
    except Exception:  # noqa: BLE001 - an object the continuous-effects layer cannot derive: its card's
        names = [t.name for t in getattr(obj.card, "traits", ())]
        if obj.markers:  # (most objects carry none: no generator to make)
            names.extend(k for k, n in obj.markers.items() if n and k not in names)
    if getattr(game, "placers", None):  # shared conditions it placed on another object (Game.held)
        names = [*names, *(k for k, _c, _n in game.held(obj) if k not in names)]
    return names


class Nested:
    """A statement written inside a card's `static for each PHRASE: { [if C then] STATEMENT }` about `it`:
    it applies to an actor the phrase names (`this` = the card) while the conditions around it hold with
    `it` = that actor.  Stands in for the static ability in the (source, ability, call, entry) tuples."""

    def __init__(self, outer: A.StaticAbility, over: A.Phrase, conds: tuple):
        self.outer, self.over, self.conds = outer, over, conds
        self.guard = outer.guard
        self.span = getattr(outer, "span", None)

    def holds(self, game, src, actor) -> bool:
        if actor is None or isinstance(actor, str) or not matches(game, actor, self.over, Ctx(this=src)):
            return False
        ctx = Ctx(this=src, it=actor)
        return all(bool(game.evaluate(c, ctx)) == want for c, want in self.conds)


_NESTED: dict = {}


def _about_it(call: A.Call) -> bool:
    first = call.args[0].value if call.args else None
    return isinstance(first, A.Phrase) and [w.text.lower() for w in first.words] == ["it"]


def nested_statements(ab: A.StaticAbility) -> list:
    """(Nested, call) for each statement call about `it` in a `static for each` body (kept per ability)."""
    got = _NESTED.get(id(ab))
    if got is not None and got[0] is ab:
        return got[1]
    out: list = []

    def walk(body, conds):
        for node in body:
            if isinstance(node, A.IfEffect):
                walk(node.then, conds + ((node.condition, True),))
                walk(node.otherwise or (), conds + ((node.condition, False),))
            elif isinstance(node, A.Call) and node.name in STATEMENT_CALLS and _about_it(node):
                out.append((Nested(ab, ab.effect.over, conds), node))
    if isinstance(ab.effect, A.ForEach):
        walk(ab.effect.body, ())
    _NESTED[id(ab)] = (ab, out)
    return out


def card_statements(card) -> Iterator[tuple]:
    """(ability, call) of each statement a card states: `static [if C] CALL(...)` and those in a
    `static for each` body (the ability is then a Nested)."""
    for ab in card.abilities:
        if not isinstance(ab, A.StaticAbility):
            continue
        eff = ab.effect
        if isinstance(eff, A.Call) and eff.name in STATEMENT_CALLS:
            yield ab, eff
        elif isinstance(eff, A.ForEach):
            yield from nested_statements(ab)


@per_definition
def _card_statement_list(card) -> tuple:
    """card_statements of a card, read once per definition (_in_play_statements goes over every card in
    play at each fingerprint)."""
    return tuple(card_statements(card))


def in_foreach_runs(call: A.Call) -> bool:
    """A statement in a card's `static for each` body this module reads (coverage, Effects)."""
    return call.name in STATEMENT_CALLS and _about_it(call) and (
        is_restriction(call) or is_permission(call) or is_obligation(call))


def _in_play_statements(game) -> list:
    """(source, ability, call) of every restriction or permission of the face-up cards in play
    (cached per fingerprint, Effects.shape: which objects are in play, face up and attached, and their
    cards)."""
    eff = game.effects
    if eff._frames:  # (Effects.reads_others, written out)
        eff._frames[-1][1] = None
    st = game.state
    shape = eff.shape()
    cache = game.__dict__.get("_restriction_cache")
    if cache is not None and cache[0][0] is st and cache[0][1] is shape:
        return cache[1]
    key = (st, shape)
    out = []
    listed = _card_statement_list.table  # (its per-definition table: no call per object)
    for src in dict.values(st.objects):
        if not src.in_play or src.hidden:
            continue
        card = src.card
        stated = listed.get(id(card))
        if stated is None:
            stated = _card_statement_list(card)
        if not stated or src.card.kind == "enchantment" and src.attached_to is None and src.attached_zone is None:
            continue
        for ab, eff in stated:
            out.append((src, ab, eff, None))
    game._restriction_cache = (key, out)
    return out


def _party_statements(game, obj) -> Iterator[tuple]:
    """(source, ability, call, codex entry or None) of one party: its own card when it is not read
    among the cards in play (not in play, or face down), and the codex entries it carries."""
    if not obj.in_play or obj.hidden or (obj.card.kind == "enchantment" and obj.attached_to is None
                                         and obj.attached_zone is None):
        for ab, eff in card_statements(obj.card):
            yield obj, ab, eff, None
    for name in _carried(game, obj):
        for ab in _entry_statements(game, name):
            yield obj, ab, ab.effect, name


#: a codex entry's statement statics (STATEMENT_CALLS, in that order), per entry definition: entries are
#: frozen, so the list is worked out once (keyed by the definition's identity, kept alive by the value)
_ENTRY_STATEMENTS: dict[int, tuple[Any, tuple]] = {}


def _entry_statements(game, name: str) -> tuple:
    cd = game.codex.get(name)
    if cd is None:
        return ()
    hit = _ENTRY_STATEMENTS.get(id(cd))
    if hit is not None and hit[0] is cd:
        return hit[1]
    if len(_ENTRY_STATEMENTS) >= 20_000:
        _ENTRY_STATEMENTS.clear()
    got = tuple(ab for fn in STATEMENT_CALLS for ab in game.codex_statics(name, fn))
    _ENTRY_STATEMENTS[id(cd)] = (cd, got)
    return got


def _statements(game, parties: Iterable) -> list:
    """Every statement the cards in play and these parties state (cached per state version and
    parties, as given: what an object carries changes only with the state)."""
    parties = tuple(parties)
    frames = game.effects._frames
    if frames:  # what the parties carry: their derived values (Effects.reads_others, written out)
        frames[-1][1] = None
    st = game.state
    key = (id(st), st.version)
    cache = getattr(game, "_statements_cache", None)
    if cache is None or cache[0] != key:
        cache = game._statements_cache = (key, {})
    ids = tuple(map(id, parties))
    hit = cache[1].get(ids)
    if hit is not None and all(map(operator.is_, hit[0], parties)):
        return hit[1]
    out = _gather(game, tuple(p for p in parties if not (p is None or isinstance(p, (str, Marker)))))
    # kept unless the state changed meanwhile or a derived value was being worked out (a party's traits
    # would be what is known of it so far)
    if st.version == key[1] and not game.effects._computing:
        cache[1][ids] = (parties, out)
    return out


def _gather(game, parties: tuple) -> list:
    seen: set = set()
    out = []
    for item in _in_play_statements(game):
        out.append(item)
        seen.add((item[0].id, id(item[1])))
    for p in parties:
        if p is None or isinstance(p, (str, Marker)):
            continue
        for item in _party_statements(game, p):
            k = (item[0].id, id(item[1]), item[3])
            if k in seen or (item[3] is None and (item[0].id, id(item[1])) in seen):
                continue
            seen.add(k)
            out.append(item)
    return out


def _label(o) -> str:
    """An object's label; a spell not cast yet (casting's probe) by its card name."""
    return o.card.name if not getattr(o, "in_play", True) and str(o.id).startswith("probe:") else o.label()


class Marker:
    """A marker of one name on an object, as what an action is aimed at (`remove condition`): it fits a
    marker phrase naming it ("Burn condition")."""

    def __init__(self, host, name: str):
        self.host, self.name = host, name
        self.id = f"{getattr(host, 'id', '?')}:{name}"

    def label(self) -> str:
        return f"{self.name} on {self.host.label()}"


#: parties that are no object (a zone's name, a marker): nothing they carry is read
_NO_OBJECT = (str, Marker)


# ---------------------------------------------------------------- fitting
def _fits(game, obj, phrase, ctx: Ctx) -> bool:
    if obj is None:
        return False
    if isinstance(obj, Marker):
        sel = selector_of(game, phrase) if isinstance(phrase, A.Phrase) else None
        return getattr(sel, "domain", None) == "marker" and any(
            t.name == obj.name and not t.negated for t in sel.names)
    if isinstance(phrase, A.StringLit):
        return not isinstance(obj, str) and obj.card.name == phrase.value
    if isinstance(phrase, A.Call):  # a value naming objects (`target: prey(this)`, `except: placer(this, X)`)
        got = game.evaluate(phrase, ctx)
        got = got if isinstance(got, (list, tuple)) else [got]
        return any(o is obj for o in got)
    if isinstance(phrase, A.Phrase):
        if len(phrase.words) == 1 and phrase.words[0].text.lower() in PRONOUNS:
            return any(o is obj or o == obj for o in resolve(game, phrase, ctx))
        return matches(game, obj, phrase, ctx)
    return False


def _by(game, obj, phrase, ctx: Ctx) -> bool:
    """Does the object doing it fit `by:`?  A player phrase (`opponent`) names the Mage: the object
    fits when it is controlled by that Mage's player."""
    if obj is None or isinstance(obj, str):
        return False
    if _fits(game, obj, phrase, ctx):
        return True
    if not isinstance(phrase, A.Phrase):
        return False
    mage = game.state.mage_of(obj.controller)
    return mage is not None and getattr(selector_of(game, phrase), "domain", None) == "player" and \
        any(o is mage for o in resolve(game, phrase, ctx))


def current_moments(game) -> frozenset:
    """The phase of the round now (its key) and "action" while an attack or a spell is resolved."""
    got = set()
    rs = getattr(game, "round_state", None)
    key = getattr(rs, "phase_key", None) if rs is not None else None
    if callable(key):
        key = key()
    if key:
        got.add(key)
    if getattr(game, "current_attack", None) is not None or getattr(game, "casting_stack", None):
        got.add("action")
    return frozenset(got)


def _during_fits(game, during, moment: Optional[str] = None) -> bool:
    """Does `during:` name the moment now, or the `moment` the engine asks about (a `during:` word:
    "quickcast" when the quickcast marker would be used)?"""
    word = during.value if isinstance(during, A.StringLit) else None
    if moment is not None and word == moment:
        return True
    return bool(current_moments(game) & set(DURING_PHASES.get(word or "", ())))


@per_definition  # (calls are frozen: read once per call)
def is_obligation(call: A.Call) -> bool:
    """`must(PHRASE, "ACTION", ...)` for an action of OBLIGATION_HOOKS, with the keywords it needs
    (OBLIGATION_KEYWORDS)."""
    if call.name != MUST or len(call.args) < 2 or not isinstance(call.args[0].value, A.Phrase):
        return False
    pos, kw = _args(call)
    act = action_of_must(call)
    if act not in OBLIGATION_KEYWORDS or len(pos) != 2:
        return False
    need, may = OBLIGATION_KEYWORDS[act]
    if not need <= set(kw) or not set(kw) <= need | may:
        return False
    if "during" in kw and not (isinstance(kw["during"], A.StringLit) and kw["during"].value in DUTY_DURING):
        return False
    if act == "full action":
        to = kw["to"]
        return isinstance(to, A.StringLit) and to.value in FULL_ACTION_TO and len(set(kw) & may) == 1
    return True


def action_of_must(call: A.Call) -> Optional[str]:
    act = call.args[1].value if len(call.args) > 1 else None
    return _norm(act.value) if isinstance(act, A.StringLit) else None


def obligations_on(game, action, actor, parties: Iterable = ()) -> Iterator[tuple]:
    """(source, call, keywords, ctx, where, rule) of each obligation `must(WHO, ACTION, ...)` that binds
    `actor` now: statements of the cards in play, and of the parties' own cards and codex entries.
    `action`: one action, or several (read in one pass)."""
    asked = (_norm(action),) if isinstance(action, str) else tuple([_norm(a) for a in action])
    parties = (actor, *parties)
    if _nothing_states_any(game, MUST, asked, parties):
        return  # (nothing among these parties states an obligation of these actions: the usual case)
    acts = set(asked)
    for src, ab, call, entry in _statements(game, parties):
        if call.name != MUST or not is_obligation(call) or action_of_must(call) not in acts:
            continue
        _, kw = _args(call)
        ctx = Ctx(this=src, it=actor, target=actor)
        try:
            if isinstance(ab, Nested) and not ab.holds(game, src, actor):
                continue
            if not _fits(game, actor, call.args[0].value, ctx):
                continue
            if ab.guard is not None and not game.evaluate(ab.guard, ctx):
                continue
        except Exception as e:  # noqa: BLE001 - reported, never guessed
            game.note_unsupported(f"static must of {entry or src.card.name}", f"cannot read the obligation: {e}", src=src)
            continue
        where = f"{entry} of {_label(src)}" if entry else _label(src)
        yield src, call, kw, ctx, where, (f"Codex: {entry}" if entry else f"Card: {src.card.name}")


def unmet(game, action: str, actor, *, into=None, by=None, spell=None) -> Optional[Ruling]:
    """An obligation that `actor` doing `action` breaks: `must(WHO, "be cast", into: PLACE)` cast into
    `into`, `must(target, "be in a zone", at: PLACE)` for a target standing elsewhere."""
    act = _norm(action)
    for src, call, kw, ctx, where, rule in obligations_on(game, act, actor, [by, spell]):
        try:
            if act == "be cast":
                if into is not None and _fits(game, into, kw["into"], ctx):
                    continue
                place = kw["into"].text if isinstance(kw["into"], A.Phrase) else "?"
                return Ruling(f"{_label(actor)} must {act} into {place}"
                              f"{'' if into is None else ', not ' + (into if isinstance(into, str) else into.label())}"
                              f" ({where})", rule, src, act)
            if act == "be in a zone":
                zone = game.state.zone_of(actor)
                if zone is not None and _fits(game, zone, kw["at"], ctx):
                    continue
                place = kw["at"].text if isinstance(kw["at"], A.Phrase) else "?"
                return Ruling(f"{_label(actor)} must be in a {place}, not {zone} ({where})", rule, src, act)
        except Exception as e:  # noqa: BLE001 - reported, never guessed
            game.note_unsupported(f"static must of {src.card.name}", f"cannot read the obligation: {e}", src=src)
    return None


def full_action_move(game, actor, here: str, to_zone: str, walls: Iterable = ()) -> Optional[Ruling]:
    """A `must(WHO, "full_action", to: "move", into:|out_of:|target: PLACE)` that makes this move of `actor`
    (from `here` into `to_zone`, across `walls`) take its whole action; None when it is an ordinary move."""
    for src, call, kw, ctx, where, rule in obligations_on(game, "full action", actor):
        try:
            if "into" in kw and not _fits(game, to_zone, kw["into"], ctx):
                continue
            if "out_of" in kw and not _fits(game, here, kw["out_of"], ctx):
                continue
            if "target" in kw and not any(_fits(game, w, kw["target"], ctx) for w in walls):
                continue
        except Exception as e:  # noqa: BLE001 - reported, never guessed
            game.note_unsupported(f"static must of {src.card.name}", f"cannot read the obligation: {e}", src=src)
            continue
        return Ruling(f"a move of {_label(actor)} from {here} to {to_zone} takes its full action ({where})",
                      rule, src, "full action")
    return None


def is_ignore(call: A.Call) -> bool:
    """`ignore(PHRASE, [ENTRIES])`, read here when a statement of one of those entries would apply."""
    return call.name == IGNORE and len(call.args) == 2 and not any(a.key for a in call.args) and \
        isinstance(call.args[0].value, A.Phrase) and isinstance(call.args[1].value, A.TraitGroup)


#: a codex statement read by the continuous-effects layer that honours the carrier's own `ignore(this,
#: [ENTRY])` (Effects._life_blocker)
IGNORE_HONOURED_ELSEWHERE: frozenset[str] = frozenset({"gain life"})


def ignore_honoured(call: A.Call, codex: dict) -> bool:
    """Does `ignore(WHO, [ENTRIES])` take effect?  Yes when every rule of each entry is a statement this
    module reads (it skips them for whoever ignores the entry) or one IGNORE_HONOURED_ELSEWHERE."""
    if not is_ignore(call):
        return False
    for ref in call.args[1].value.traits:
        cd = codex.get(ref.name.text)
        if cd is None:
            return False
        for ab in cd.abilities:
            eff = getattr(ab, "effect", None)
            if not isinstance(ab, A.StaticAbility) or not isinstance(eff, A.Call):
                return False
            if is_restriction(eff, codex=True) or is_permission(eff):
                continue
            if eff.name == "cannot" and action_of(eff) in IGNORE_HONOURED_ELSEWHERE:
                continue
            return False
    return True


def _ignored(game, entry: str, parties: Iterable, stmts: list) -> Optional[str]:
    """The party that ignores the codex entry `entry` (an `ignore(WHO, [..ENTRY..])` of its own card, of an
    entry it carries, or of a card in play about it), as a label; None when none does."""
    for src, ab, call, _ in stmts:
        if not is_ignore(call) or not any(r.name.text == entry for r in call.args[1].value.traits):
            continue
        for p in parties:
            if p is None or isinstance(p, (str, Marker)):
                continue
            ctx = Ctx(this=src, it=p)
            if ab.guard is not None and not game.evaluate(ab.guard, ctx):
                continue
            if _fits(game, p, call.args[0].value, ctx):
                return _label(p)
    return None


def _applies(game, src, ab, call, actor, target, *, by, attack, into, out_of, rule, entry, spell=None,
             subject=None, moment=None) -> bool:
    """Does this statement (already known to be about the action) apply to `actor` now?  `by:` and
    `except:` are asked of the object doing it and of the spell it casts, if any."""
    pos, kw = _args(call)
    doers = [d for d in (by, spell) if d is not None and d is not actor]
    if subject is not None and subject is not actor:
        return False
    ctx = Ctx(this=src, attack=attack, it=actor, target=target if target is not None else None)
    if call.name == PREVENT_DAMAGE:
        return actor is src and (ab.guard is None or bool(game.evaluate(ab.guard, ctx)))
    if isinstance(ab, Nested) and not ab.holds(game, src, actor):
        return False
    if subject is None and not _fits(game, actor, pos[0], ctx):
        return False
    if ab is not None and ab.guard is not None and not game.evaluate(ab.guard, ctx):
        return False
    if "target" in kw and not _fits(game, target, kw["target"], ctx):
        return False
    if "speed" in kw:  # `speed: "quick"`: the spell aimed at is cast with that action
        want = kw["speed"].value if isinstance(kw["speed"], A.StringLit) else None
        card = getattr(target, "card", None)
        if card is None or (getattr(card, "action", None) or "full") != want:
            return False
    if "attack" in kw:
        name = kw["attack"].value if isinstance(kw["attack"], A.StringLit) else None
        if attack is None or attack.action.definition.name != name:
            return False
    if "by" in kw and not any(_by(game, d, kw["by"], ctx) for d in doers):
        return False
    if "during" in kw and not _during_fits(game, kw["during"], moment):
        return False
    if "into" in kw and (into is None or not _fits(game, into, kw["into"], ctx)):
        return False
    if "out_of" in kw and (out_of is None or not _fits(game, out_of, kw["out_of"], ctx)):
        return False
    if "except" in kw:
        ex = kw["except"]
        if rule is not None and ((isinstance(ex, A.Phrase) and ex.text == rule)
                                 or (isinstance(ex, A.StringLit) and ex.value == rule)):
            return False
        if any(_by(game, d, ex, ctx) for d in doers):
            return False
        if target is not None and target is not actor and not isinstance(target, str) and \
                _fits(game, target, ex, ctx):
            return False
    return True


# ---------------------------------------------------------------- which actions anything states
def _stated(call: A.Call) -> Optional[tuple]:
    """("cannot" or "can", normalized action) of a statement as _query filters it, ("must", normalized
    action) of an obligation as obligations_on filters it; None for the others."""
    if call.name in ("cannot", CANNOT_REVEAL, PREVENT_DAMAGE):
        return "cannot", action_of(call)
    if call.name == "can":
        return "can", action_of(call)
    if call.name == MUST:
        return MUST, action_of_must(call)
    return None


_CARD_STATED: dict[int, tuple[Any, frozenset]] = {}


def _card_stated(card) -> frozenset:
    """What a card's statements are about: {(cannot|can|must, action)}, once per definition; those written in a
    `static for each` body too (card_statements, what _gather reads of a party's own card)."""
    hit = _CARD_STATED.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    if len(_CARD_STATED) >= 20_000:
        _CARD_STATED.clear()
    got = frozenset(k for _ab, call in card_statements(card) for k in (_stated(call),) if k is not None)
    _CARD_STATED[id(card)] = (card, got)
    return got


_ENTRY_STATED: dict[int, tuple[Any, frozenset]] = {}


def _entry_stated(game, name: str) -> frozenset:
    """What the statements of one codex entry are about: {(cannot|can|must, action)} (per entry definition)."""
    cd = game.codex.get(name)
    if cd is None:
        return frozenset()
    hit = _ENTRY_STATED.get(id(cd))
    if hit is not None and hit[0] is cd:
        return hit[1]
    if len(_ENTRY_STATED) >= 20_000:
        _ENTRY_STATED.clear()
    got = frozenset(k for ab in _entry_statements(game, name) for k in (_stated(ab.effect),) if k is not None)
    _ENTRY_STATED[id(cd)] = (cd, got)
    return got


def _stated_by_name(game) -> Optional[dict]:
    """{entry name: its _entry_stated} for the codex entries that state anything, worked out once per corpus
    and shared by its games while their codex is its unchanged copy (engine/codextable.py: a write to the
    game's codex is what makes it its own); None otherwise (or when the corpus keeps nothing): read entry by
    entry."""
    corpus = game.corpus
    if not copy_of(game.codex, corpus.codex):
        return None
    got = getattr(corpus, "_stated_by_name", None)
    if got is None:
        got = {name: stated for name in corpus.codex for stated in (_entry_stated(game, name),) if stated}
        try:
            corpus._stated_by_name = got
        except AttributeError:
            return None
    return got


def _names_stated(game, names) -> frozenset:
    """What the statements of these codex entries are about (the union of their _entry_stated)."""
    got = _NOTHING_STATED
    table = _stated_by_name(game)
    if table is None:  # (the game's codex is its own)
        for entry in names:  # (most entries state nothing: a union made only when one does)
            stated = _entry_stated(game, entry)
            if stated:
                got = got | stated
        return got
    for entry in names:  # (an entry stating nothing, or not in the codex, is not in the table)
        stated = table.get(entry)
        if stated is not None:
            got = got | stated
    return got


def _carried_fresh(game, obj) -> frozenset:
    """What the statements of the codex entries an object carries are about (worked out now)."""
    return _names_stated(game, _carried(game, obj))


_NOTHING_STATED: frozenset = frozenset()


def _value_stated(game, obj, d) -> frozenset:
    """What the entries of `obj`'s derived value `d` state (Effects.entries: its traits and markers), kept on
    the value (Derived.stated): they are worked out from its derived traits and its markers (fingerprinted: a
    change drops the value), so the set holds while the value is kept, across derived epochs.  Not what it
    carries as a placer of shared conditions (Game.held, which the value does not know: _held_stated adds
    it).  Only when no value is being worked out (the caller's part)."""
    got = d.stated
    if got is None:
        got = d.stated = _names_stated(game, game.effects.entries(obj))
    return got


def _held_stated(game, obj) -> frozenset:
    """What the shared conditions `obj` placed on other objects state (it carries them too: _carried)."""
    held = game.held(obj)
    return _names_stated(game, [k for k, _c, _n in held]) if held else _NOTHING_STATED


def _codex_stated(game) -> frozenset:
    """What any statement of any codex entry of this game is about (once per game; per corpus when the
    game's entries are the corpus's own)."""
    got = game.__dict__.get("_codex_stated")
    if got is None:
        shared = copy_of(game.codex, game.corpus.codex)  # (the corpus's entries, unchanged: CodexTable)
        cached = getattr(game.corpus, "_codex_stated", None) if shared else None
        if cached is not None:
            got = cached
        else:
            got = frozenset().union(*(_entry_stated(game, name) for name in game.codex))
            if shared:
                try:
                    game.corpus._codex_stated = got
                except AttributeError:
                    pass
        game._codex_stated = got
    return got


def _nothing_states(game, name: str, act: str, parties, codex: bool) -> bool:
    """No statement that could be read for this query is about this action: neither the cards in play,
    nor the parties' own cards, nor (codex) any codex entry, nor (cannot) an effect's restriction.
    Then the answer is None whatever the parties carry, and nothing needs deriving.  (One query: not
    kept, as _nothing_states_any keeps its pooled answers, since a single query's parties rarely repeat.)"""
    if name == "cannot" and getattr(game, "effect_restrictions", None):
        return False
    return not _stated_read(game, name, (act,), parties, codex, True)


def _nothing_states_any(game, name: str, acts: tuple, parties, codex: bool = True) -> bool:
    """_nothing_states for several (normalized) actions at once, the parties of every query pooled:
    True when no query `name` about any of these actions among these parties can find a statement."""
    return not _stated_any(game, name, acts, parties, codex, True)


def _stated_any(game, name: str, acts: tuple, parties, codex: bool = True, first: bool = False) -> frozenset:
    """The keys (name, action) of these (normalized) actions that a statement among these parties (pooled,
    as _nothing_states_any) may be about: a query about an action not among them, among some of these
    parties, answers None (every one, with `cannot` and an effect's restriction).  `first`: only whether
    there is one (then any answer but none holds all the keys)."""
    if name == "cannot" and getattr(game, "effect_restrictions", None):
        return _query_keys(name, acts)
    # every set read below is kept for the derived epoch (what is in play and face up, what each party
    # carries): so is the answer, unless those sets are not kept now (shared conditions placed, or a
    # derived value being worked out)
    eff = game.effects
    memo = None
    if not getattr(game, "placers", None) and not eff._computing:  # (no value being worked out: none reads this)
        kept = game.__dict__.get("_nothing_memo")
        epoch = eff.current_epoch()
        if kept is None or kept[0] != epoch or len(kept[1]) > 10_000:
            kept = game._nothing_memo = (epoch, {})
        memo = kept[1]
        # (the parties themselves, hashed by identity: the key holds them, so no id is reused meanwhile;
        # None, a zone's name or a Marker among them is never read, and only makes the key narrower)
        mkey = (name, acts, codex, first, *parties)
        got = memo.get(mkey)
        if got is not None:
            return got
    got = _stated_read(game, name, acts, parties, codex, first)
    if memo is not None:
        memo[mkey] = got
    return got


#: (cannot|can, actions) -> the frozenset of (cannot|can, action) keys a query about them looks for
_QUERY_KEYS: dict[tuple, frozenset] = {}


def _query_keys(name: str, acts: tuple) -> frozenset:
    keys = _QUERY_KEYS.get((name, acts))
    if keys is None:
        keys = frozenset((name, act) for act in acts)
        if len(_QUERY_KEYS) < 4096:
            _QUERY_KEYS[(name, acts)] = keys
    return keys


def _stated_read(game, name: str, acts: tuple, parties, codex: bool, first: bool) -> frozenset:
    """The keys (name, action) of these actions that the cards in play, the parties' own cards or (codex)
    what the parties carry state (worked out now); `first`: only whether any does (then all the keys, read no
    further)."""
    keys = _QUERY_KEYS.get((name, acts)) or _query_keys(name, acts)
    eff = game.effects
    frames = eff._frames
    if frames:  # (Effects.reads_others, written out: what is read below is kept across objects)
        frames[-1][1] = None
    # what the statements of the face-up cards in play are about: worked out from _in_play_statements's list
    # and kept per fingerprint as that list is (Effects.shape: asking it brings the kept values up to date),
    # also while a derived value is being worked out, so that it is answered without asking for the list
    # again (holding the fingerprint: its identity is not reused meanwhile)
    st = game.state
    shape = eff.shape()
    in_play = game.__dict__.get("_in_play_keys_kept")
    if in_play is None or in_play[0] is not shape or in_play[1] is not st:
        stmts = _in_play_statements(game)
        in_play = game._in_play_keys_kept = (shape, st, frozenset(
            k for _, _, call, _ in stmts for k in (_stated(call),) if k is not None) if stmts else _NOTHING_STATED)
    found = in_play[2]
    if not found.isdisjoint(keys):
        if first:
            return keys
        found = found & keys
        if len(found) == len(keys):
            return found
    else:
        found = _NOTHING_STATED
    if not codex:
        return found
    # what a party carries states only what some codex entry states: when no entry states these actions, the
    # parties' carried entries need not be read (nor the parties derived).  Asked only for a party whose
    # derived value is not kept (reading what a kept one carries derives nothing), since comparing the game's
    # codex with the corpus's (once per game) costs more than reading two parties.  What a kept value
    # carries is kept on it (_value_stated), unless a value is being worked out; what a party holds as the placer
    # of shared conditions is read apart (_held_stated: the value does not know it).
    in_codex = None
    kept = None if frames else eff._cache
    placers = getattr(game, "placers", None)
    done = []
    for p in parties:
        if p is None or p in done or isinstance(p, _NO_OBJECT):
            continue  # (a party named twice is read once; a zone's name or a marker carries nothing)
        done.append(p)
        card = p.card
        hit = _CARD_STATED.get(id(card))  # (_card_stated's table, read here first)
        got = hit[1] if hit is not None and hit[0] is card else _card_stated(card)
        if not got.isdisjoint(keys):
            if first:
                return keys
            found = found | (got & keys)
            if len(found) == len(keys):
                return found
        d = kept.get(p.id) if kept is not None else None
        if d is not None:
            carried = d.stated
            if carried is None:
                carried = _value_stated(game, p, d)
            if placers:
                got = _held_stated(game, p)
                if not got.isdisjoint(keys):
                    if first:
                        return keys
                    found = found | (got & keys)
                    if len(found) == len(keys):
                        return found
        else:
            if in_codex is None:
                in_codex = not _codex_stated(game).isdisjoint(keys)
            if not in_codex:
                continue
            carried = _carried_fresh(game, p)  # (derives it; what it holds as a placer too)
            if kept is not None and not placers:
                d = kept.get(p.id)
                if d is not None:  # (kept on the value just worked out: _value_stated)
                    d.stated = carried
        if not carried.isdisjoint(keys):
            if first:
                return keys
            found = found | (carried & keys)
            if len(found) == len(keys):
                return found
    return found


def _query(game, name: str, action: str, actor, target, *, by=None, attack=None, into=None, out_of=None,
           rule=None, spell=None, codex: bool = True, moment=None) -> Optional[Ruling]:
    if actor is None:
        return None
    act = _norm(action)
    parties = [actor, target, by, spell]
    lasting = getattr(game, "effect_permissions" if name == "can" else "effect_restrictions", None)
    # (what an effect granted or forbade for a while is not a statement in reach: with none (`lasting`), no
    # statement about this action in reach means no answer; _nothing_states, with that test read here)
    if not lasting and not _stated_read(game, name, (act,), parties, codex, True):
        return None
    stmts = _statements(game, parties) if codex else [s for s in _in_play_statements(game)]
    for src, ab, call, entry in stmts:
        if call.name in (IGNORE, MUST):
            continue
        if (name == "cannot") != (call.name in ("cannot", CANNOT_REVEAL, PREVENT_DAMAGE)):
            continue
        if action_of(call) != act:
            continue
        if name == "cannot" and not is_restriction(call, codex=entry is not None):
            continue
        if name == "can" and not is_permission(call):
            continue
        try:
            if not _applies(game, src, ab, call, actor, target, by=by, attack=attack, into=into, out_of=out_of,
                            rule=rule, entry=entry, spell=spell, moment=moment):
                continue
            if entry is not None:
                who = _ignored(game, entry, parties, stmts)
                if who is not None:
                    game.emit("rule", f"{who} ignores {entry}: it does not stop {_label(actor)} ({act})")
                    continue
        except (PhraseError, Exception) as e:  # noqa: BLE001 - a phrase or value the engine cannot read
            game.note_unsupported(f"static {call.name} of {entry or src.card.name}",
                                  f"cannot read the statement: {e}", src=src)
            continue
        _, kw = _args(call)
        aimed = ""
        if "target" in kw and target is not None:
            aimed = f" {target if isinstance(target, str) else _label(target)}"
        owner = entry or src.card.name
        rule_name = f"Codex: {entry}" if entry is not None else f"Card: {src.card.name}"
        where = f"{entry} of {src.label()}" if entry is not None else src.label()
        verb = "cannot" if name == "cannot" else "may"
        if name == "can" and into is not None:
            aimed += f" into {into if isinstance(into, str) else into.label()}"
        text = f"{_label(actor)} {verb} {act}{aimed} ({where if entry is not None else _label(src)})"
        del owner
        got = Ruling(text, rule_name, src, act)
        ign = kw.get("ignoring")
        got.ignoring = ign.value if isinstance(ign, A.StringLit) else ""
        return got
    if name == "can":
        for (oid, call, src, rnd) in getattr(game, "effect_permissions", ()):
            if oid != actor.id or rnd != game.state.round or action_of(call) != act:
                continue
            try:
                if not _applies(game, src, None, call, actor, target, by=by, attack=attack, into=into,
                                out_of=out_of, rule=rule, entry=None, spell=spell, subject=actor, moment=moment):
                    continue
            except Exception as e:  # noqa: BLE001 - a phrase the engine cannot read
                game.note_unsupported(f"can of {src.card.name}", f"cannot read the permission: {e}", src=src)
                continue
            return Ruling(f"{_label(actor)} may {act} until the end of the round ({src.label()})",
                          f"Card: {src.card.name}", src, act)
    if name == "cannot":
        for (oid, call, src) in getattr(game, "effect_restrictions", ()):
            if oid != actor.id or not src.in_play or action_of(call) != act:
                continue
            try:
                if not _applies(game, src, None, call, actor, target, by=by, attack=attack, into=into,
                                out_of=out_of, rule=rule, entry=None, spell=spell, subject=actor):
                    continue
            except Exception as e:  # noqa: BLE001 - a phrase the engine cannot read
                game.note_unsupported(f"cannot of {src.card.name}", f"cannot read the restriction: {e}", src=src)
                continue
            return Ruling(f"{_label(actor)} cannot {act} while {src.label()} resolves", f"Card: {src.card.name}",
                          src, act)
    return None


def imposable(call: A.Call) -> bool:
    """Can `cannot(...)` run as an effect (its action asked by some procedure, keywords read here)?"""
    act = action_of(call)
    pos, kw = _args(call)
    return act in _HOOKED and set(kw) <= KEYWORDS and len(pos) == 2 and \
        ("during" not in kw or isinstance(kw["during"], A.StringLit) and kw["during"].value in DURING_PHASES)


def impose(game, objs, call: A.Call, source) -> list:
    """An effect's `cannot(WHO, "ACTION", ...)`: each object named may not do it while the effect's source
    (the spell being cast or resolved) is in play; returns the objects restricted.  An action no
    procedure asks about (not in HOOKS) is refused: NotImplementedError."""
    act = action_of(call)
    if not imposable(call):
        raise NotImplementedError(f"cannot(..., {act!r}) as an effect: no procedure asks about it")
    if not hasattr(game, "effect_restrictions"):
        game.effect_restrictions = []
    got = [o for o in objs if o is not None and not isinstance(o, str)]
    game.effect_restrictions[:] = [e for e in game.effect_restrictions if e[2].in_play]
    for o in got:
        game.effect_restrictions.append((o.id, call, source))
    return got


def grantable(call: A.Call) -> bool:
    """Can `can(WHO, "ACTION", ..., until: "end of round")` run as an effect (a permission some procedure
    asks about, lasting to the end of the round)?"""
    _, kw = _args(call)
    until = kw.get("until")
    if not (isinstance(until, A.StringLit) and _norm(until.value) in GRANT_UNTIL):
        return False
    bare = A.Call(call.name, tuple(a for a in call.args if a.key != "until"), call.span, call.bare)
    return is_permission(bare)


def grant(game, objs, call: A.Call, source) -> list:
    """An effect's `can(WHO, "ACTION", ..., until: "end of round")`: each object named may do it until the
    end of the round (read by `permits`, `this` = the effect's source); returns the objects.  Any other
    shape is refused: NotImplementedError."""
    if not grantable(call):
        raise NotImplementedError(f"can(..., {action_of(call)!r}) as an effect: no procedure asks about it, "
                                  f"or it lasts other than until the end of the round")
    if not hasattr(game, "effect_permissions"):
        game.effect_permissions = []
    rnd = game.state.round
    game.effect_permissions[:] = [e for e in game.effect_permissions if e[3] == rnd]
    got = [o for o in objs if o is not None and not isinstance(o, str)]
    for o in got:
        game.effect_permissions.append((o.id, call, source, rnd))
    return got


def forbids(game, action: str, actor, target=None, *, by=None, attack=None, into=None, out_of=None,
            rule: Optional[str] = None, spell=None) -> Optional[Ruling]:
    """Why `actor` may not do `action` now (None: nothing forbids it).

    `target`: what the action is aimed at (an object or a zone); `by`: the object doing it (for a
    passive action: the spell or attacker targeting, the object destroying); `attack`: the attack
    being made; `into`/`out_of`: the zone entered or left; `rule`: the codex rule doing it (for
    `except: NAME`); `spell`: a spell being cast that takes part (its own statements are read)."""
    return _query(game, "cannot", action, actor, target, by=by, attack=attack, into=into, out_of=out_of,
                  rule=rule, spell=spell)


def permits(game, action: str, actor, target=None, *, by=None, attack=None, into=None, out_of=None,
            spell=None, moment: Optional[str] = None) -> Optional[Ruling]:
    """Which card or codex entry lets `actor` do `action` now (a `can(...)` statement), or None.
    `moment`: a `during:` word the action would take place in besides the phase now ("quickcast": with
    the quickcast marker)."""
    return _query(game, "can", action, actor, target, by=by, attack=attack, into=into, out_of=out_of, spell=spell,
                  moment=moment)


#: `can(...)` actions permitted through this module (the hook that asks for the permission)
PERMISSION_HOOKS: dict[str, str] = {
    "cast": "casting's declaration (placement.restrictions): a spell restricted to another kind of Mage (`X Only`) "
            "may be cast by a caster a permission names (target: the spell); and the Action Phase "
            "(activation.legal_actions): a creature that cannot take actions may still use its action to cast a "
            "spell a permission names (target: the spell)",
    "teleport": "a creature's move actions (movement.teleport_moves, offered by activation.move_options): a "
                "permission `instead_of: \"move\"` lets a move action be a teleport into a zone `into:` names",
    "attack": "the quickcast marker (activation.quickcast_attacks, in the Mage's action phase and the quickcast "
              "phases): a permission `during: \"quickcast\"` lets the Mage spend it on a quick attack",
    "bind": "binding a spell (engine/bound.py may_bind, target: the spell): when permissions to bind name the "
            "object, only a spell one of them permits may be bound to it",
    "summon": "casting's declaration and legal_casts: a creature spell may be cast into the zone `into:` names, "
              "out of its range (and out of line of sight with `ignoring:` naming LoS)",
    "ignore guards": "attack declaration (AttackEngine.illegal_reason): a melee attack may pass an enemy guard in "
                     "its target's zone (target: what it attacks)",
}
#: `can(WHO, "pay with TOKEN", target: SPELLS)`: WHO may spend the TOKEN tokens on the statement's source as
#: mana when casting a spell the target names (engine/manasupply.py token_payments, asked by the casting
#: sequence's mana checks and payment)
PAY_WITH = "pay with "
#: a permission about one of these actions is asked only with this keyword and value (an attack: only when
#: the quickcast marker would be used for it)
PERMISSION_NEEDS: dict[str, tuple[str, str]] = {"attack": ("during", "quickcast"), "teleport": ("instead_of", "move")}
#: keywords of a `can(...)` this module reads
PERMISSION_KEYWORDS: frozenset[str] = frozenset({"target", "by", "during", "into", "ignoring", "instead_of",
                                                 "speed"})
#: what `ignoring:` of a permission may name: a summoning's range and line of sight; line of sight of a
#: teleport (which never asks it: engine/movement.py teleport)
SUMMON_IGNORING: frozenset[str] = frozenset({"range and LoS", "LoS"})
#: `until:` of a permission granted by an effect (`can(...)` as an effect: engine/restrictions.py grant)
GRANT_UNTIL: frozenset[str] = frozenset({"end of round"})


@per_definition  # (calls are frozen: read once per call)
def is_permission(call: A.Call) -> bool:
    if call.name != "can" or len(call.args) < 2 or not isinstance(call.args[0].value, A.Phrase):
        return False
    act = action_of(call)
    pos, kw = _args(call)
    ign = kw.get("ignoring")
    if ign is not None and not (isinstance(ign, A.StringLit) and ign.value in SUMMON_IGNORING):
        return False
    if act is not None and act.startswith(PAY_WITH) and len(act) > len(PAY_WITH):
        return set(kw) == {"target"} and len(pos) == 2  # `can(WHO, "pay with TOKEN", target: SPELLS)`
    need = PERMISSION_NEEDS.get(act or "")
    if need is not None and not (isinstance(kw.get(need[0]), A.StringLit) and kw[need[0]].value == need[1]):
        return False
    return act is not None and act in {_norm(a) for a in PERMISSION_HOOKS} and set(kw) <= PERMISSION_KEYWORDS \
        and len(pos) == 2


# ---------------------------------------------------------------- the readers the engine had before
def forbidden(game, obj, actions: tuple[str, ...], *, target=None, attack=None, by=None,
              rule: Optional[str] = None) -> Optional[str]:
    """The first of these actions a statement forbids `obj` now (see forbids)."""
    for act in actions:
        why = forbids(game, act, obj, target, by=by, attack=attack, rule=rule)
        if why:
            return why
    return None


#: kinds of an attack -> (the attack actions asked of it, every action attack_forbidden's queries name)
_ATTACK_QUERIES: dict[frozenset, tuple] = {}
_BE_ATTACKED = _norm("be_attacked")
_BE_TARGETED = _norm("be targeted")


def attack_forbidden(game, atk) -> Optional[str]:
    """Restrictions on this attack: its attacker may not make it (at all, of its kind, against this
    target, with this attack bar), its target may not be attacked by its source, or may not be
    targeted by it (an attack aimed at an object, not at a zone)."""
    kinds = frozenset(atk.kinds())
    got = _ATTACK_QUERIES.get(kinds)
    if got is None:  # (the actions asked of an attack of these kinds, and all the actions its queries name)
        acts = tuple(a for a, kind in ATTACK_ACTIONS.items() if kind is None or kind in kinds)
        got = _ATTACK_QUERIES[kinds] = (acts, (*map(_norm, acts), _norm("be_attacked"), _norm("be targeted")))
    acts, asked = got
    src = atk.action.spell or atk.source
    # each query below is among these parties: one about an action no statement among them is about answers
    # None, and is not asked (the actions stated, pooled once)
    stated = _stated_any(game, "cannot", asked, (atk.attacker, atk.target, atk.source, src))
    if not stated:
        # none of the queries below can find a statement (the usual case): only the bar's own clauses
        return bar_forbidden(game, atk)
    mine = tuple([a for a, n in zip(acts, asked) if ("cannot", n) in stated])
    why = forbidden(game, atk.attacker, mine, target=atk.target, attack=atk) if mine else None
    if why:
        return why
    if mine and atk.source is not atk.attacker and atk.source is not None:  # an equipment's attack: its own rules too
        why = forbidden(game, atk.source, mine, target=atk.target, attack=atk)
        if why:
            return why
    why = forbids(game, "be_attacked", atk.target, atk.target, attack=atk, by=src) \
        if ("cannot", _BE_ATTACKED) in stated else None
    if why:
        return why
    why = bar_forbidden(game, atk)
    if why:
        return why
    if ("cannot", _BE_TARGETED) in stated and not getattr(atk.action, "is_zone", False) and atk.target is not None:
        return forbids(game, "be targeted", atk.target, by=atk.attacker, attack=atk,
                       spell=atk.action.spell or atk.source)
    return None


def cast_forbidden(game, caster, spell, targets: tuple = (), zone: Optional[str] = None) -> Optional[Ruling]:
    """What forbids this cast (casting's declaration): the caster may not cast the spell, the spell may
    not be cast (into the zone it would go to) or placed there, may not aim at a target, or a target
    may not be targeted by it.  `spell` is the spell as an object (not in play yet)."""
    st = game.state
    into = zone if zone and "/" not in zone else None
    if into is None and targets:
        into = st.zone_of(targets[0])
    if into is None and spell.card.kind in ("creature", "conjuration", "wall", "terrain", "vine") \
            and spell.card.targets == () and zone is None:
        into = st.zone_of(caster)
    aimed = targets[0] if targets else (zone if zone and "/" not in zone else None)
    # every query below is among these parties (a zone among them is never read): when nothing states any
    # of their `cannot` actions, or any of their obligations, those queries are not asked (the usual case)
    parties = (caster, spell, aimed, *targets)
    free = _nothing_states_any(game, "cannot", _CAST_ACTIONS, parties)
    loose = _nothing_states_any(game, MUST, _CAST_DUTIES, parties)
    if free and loose:
        return None
    # each `cannot` query below is among these parties: one about an action no statement among them is about
    # answers None, and is not asked (the actions stated, pooled once)
    stated = () if free else _stated_any(game, "cannot", _CAST_ACTIONS, parties)
    why = forbids(game, "cast", caster, spell, spell=spell) if ("cannot", "cast") in stated else None
    if why:
        return why
    why = (forbids(game, "be cast", spell, aimed, by=caster, into=into) if ("cannot", "be cast") in stated
           else None) or (None if loose else unmet(game, "be cast", spell, into=into, by=caster))
    if why:
        return why
    if ("cannot", "be placed") in stated and into is not None and not targets \
            and spell.card.kind in ("creature", "conjuration", "wall", "terrain", "vine"):
        why = forbids(game, "be placed", spell, into, by=caster, into=into)
        if why:
            return why
    if ("cannot", "enter play") in stated and spell.card.kind in ("creature", "conjuration", "wall", "terrain", "vine",
                                                                  "equipment", "enchantment"):
        why = forbids(game, "enter play", spell, by=caster, into=into)  # `except:` the object bringing it
        if why:
            return why
    if ("cannot", "attach") in stated and spell.card.kind in ATTACHING_KINDS:
        for t in targets:  # the spell would be attached to its target object
            why = forbids(game, "attach", caster, t, spell=spell)
            if why:
                return why
    for t in targets:
        why = (forbids(game, "target", spell, t, by=caster) if ("cannot", "target") in stated else None) or (
            # ("be targeted": legal_target)
            unmet(game, "be in a zone", t, spell=spell) if not loose and not isinstance(t, str) else None)
        if why:
            return why
    if ("cannot", "target") in stated and aimed is not None and isinstance(aimed, str):
        why = forbids(game, "target", spell, aimed, by=caster)
        if why:
            return why
    return None


#: the (normalized) actions of cast_forbidden's `cannot` queries, and of its obligations (`must`)
_CAST_ACTIONS = tuple(map(_norm, ("cast", "be cast", "be placed", "enter play", "attach", "target")))
_CAST_DUTIES = (_norm("be cast"), _norm("be in a zone"))


#: the (normalized) actions reveal_forbidden's two queries ask about
_REVEAL_ACTIONS = (_norm(BE_REVEALED), _norm("reveal"))


def reveal_forbidden(game, obj) -> Optional[Ruling]:
    """What forbids revealing this hidden enchantment now: its own `cannot_reveal(this, during: ...)` or
    `cannot(this, "be revealed", ...)`, or a statement that its controller may not reveal it
    (`cannot(controller, "reveal", target: this)`)."""
    mage = game.state.mage_of(obj.controller)
    if _nothing_states_any(game, "cannot", _REVEAL_ACTIONS, (obj, mage)):
        return None  # neither query below can find a statement (every reveal window asks, per card)
    return forbids(game, BE_REVEALED, obj, by=mage) or (
        forbids(game, "reveal", mage, obj) if mage is not None else None)


def reveal_forbidden_none(game, objs) -> bool:
    """True when reveal_forbidden would answer None for each of these hidden enchantments: nothing
    states either of its actions among them and their controllers' Mages (one pooled check, as
    _nothing_states_any keeps it, for a reveal window's candidates; False says only "ask each").
    The pooled parties are the union of each card's own, so it derives nothing reveal_forbidden of
    each would not."""
    st = game.state
    parties = list(objs)
    for o in objs:
        mage = st.mage_of(o.controller)
        if mage not in parties:
            parties.append(mage)
    return _nothing_states_any(game, "cannot", _REVEAL_ACTIONS, parties)


def push_through_forbidden(game, obj, by, walls: Iterable) -> Optional[Ruling]:
    """Whether a push of `obj` by `by` (the pushing object or spell) may not cross these walls: the pushed
    object may not be pushed through one (`cannot(WHO, "be pushed through", target: WALL)`, also set by an
    effect), or the pusher, or the one who cast it, may not push through one."""
    pushers = [by] if by is not None else []
    caster = getattr(game, "spell_casters", {}).get(getattr(by, "id", None))
    if caster is not None and caster in game.state.objects:
        pushers.append(game.state.objects[caster])
    for wall in walls:
        why = forbids(game, "be pushed through", obj, wall, by=by)
        if why:
            return why
        for p in pushers:
            why = forbids(game, "push through", p, wall)
            if why:
                return why
    return None


def token_payments(game, caster, spell) -> list[tuple]:
    """(source, token name) for each `can(WHO, "pay with TOKEN", target: SPELLS)` of a card in play that
    lets `caster` spend the TOKEN tokens on that card as mana for `spell` (a spell object)."""
    out = []
    for src, ab, call, _entry in _in_play_statements(game):
        act = action_of(call)
        if call.name != "can" or act is None or not act.startswith(PAY_WITH) or not is_permission(call):
            continue
        try:
            if _applies(game, src, ab, call, caster, spell, by=None, attack=None, into=None, out_of=None,
                        rule=None, entry=None):
                out.append((src, call.args[1].value.value[len(PAY_WITH):].strip()))
        except Exception as e:  # noqa: BLE001 - reported, never guessed
            game.note_unsupported(f"static can of {src.card.name}", f"cannot read the statement: {e}", src=src)
    return out


def stated_permissions(game, action: str, actor) -> bool:
    """Is `actor` named by some `can(WHO, ACTION, ...)` statement (whatever its other keywords)?  For an
    action whose permissions narrow what the actor may do (PERMISSION_HOOKS: "bind")."""
    act = _norm(action)
    for src, ab, call, _entry in _statements(game, [actor]):
        if call.name != "can" or action_of(call) != act or not is_permission(call):
            continue
        try:
            if _fits(game, actor, call.args[0].value, Ctx(this=src, it=actor)):
                return True
        except Exception as e:  # noqa: BLE001 - reported, never guessed
            game.note_unsupported(f"static can of {src.card.name}", f"cannot read the statement: {e}", src=src)
    return False


def summon_permission(game, caster, spell, zone: str) -> Optional[Ruling]:
    """A `can(WHO, "summon", target: ..., into: ZONE[, ignoring: "range and LoS"])` letting `caster` cast
    the creature `spell` into `zone` whatever the spell's range; `.ignoring` says whether line of sight
    is waived too.  None when no such permission applies (or the spell is no creature)."""
    if spell.card.kind != "creature" or not any(
            c.name == "can" and action_of(c) == "summon" for _, _, c, _ in _in_play_statements(game)):
        return None
    return permits(game, "summon", caster, spell, into=zone)


def bar_forbidden(game, atk) -> Optional[Ruling]:
    """A targeting restriction written inside the attack bar (`static cannot(this, "target", except: PHRASE)`): `this`
    is the object making the attack (the spell, or the attacking object or equipment)."""
    me = atk.action.spell or atk.source or atk.attacker
    for ab in atk.action.definition.abilities:
        call = getattr(ab, "effect", None)
        if not (isinstance(ab, A.StaticAbility) and isinstance(call, A.Call) and is_restriction(call)):
            continue
        act = action_of(call)
        aimed = atk.target
        if act != "target":
            continue  # other statements of a bar are not read (coverage: bar_restriction_runs)
        try:
            if not _applies(game, me, ab, call, me, aimed, by=atk.attacker, attack=atk, into=None, out_of=None,
                            rule=None, entry=None):
                continue
        except Exception as e:  # noqa: BLE001 - reported, never guessed
            game.note_unsupported(f"attack bar {atk.action.definition.name}: static cannot",
                                  f"cannot read the restriction: {e}")
            continue
        return Ruling(f"{atk.action.definition.name} of {_label(me)} cannot {act}"
                      + (f" {atk.target.label()}" if aimed is not None else "") + f" ({_label(me)})",
                      f"Card: {me.card.name}", me, act)
    return None


def bar_restriction_runs(call: A.Call) -> bool:
    """A static of an attack bar read by bar_forbidden at the attack's declaration."""
    return is_restriction(call) and action_of(call) == "target"
