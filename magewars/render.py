"""Readable card text generated from compiled definitions, in the project's own words."""
from __future__ import annotations

import re
from typing import Optional

from .dsl import ast as A
from .dsl import printer, reads
from .dsl import vocab as V
from .dsl.vocab import STAT_WORDS, STEP_TITLES
from .dsl.model import AttackDefinition, CardDefinition, Corpus

KIND_LABEL = {"attack": "Attack spell", "wall": "Conjuration (wall)", "terrain": "Conjuration (terrain)",
              "vine": "Conjuration (vine)", "magestats": "Mage statistics", "mage": "Mage"}


def find_cards(corpus: Corpus, query: str) -> list[str]:
    """Card names matching a query: exact, then prefix/substring, then fuzzy."""
    q = query.strip().lower()
    if not q:
        return []  # a blank name names no card (every name would contain it)
    names = list(corpus.cards)
    exact = [n for n in names if n.lower() == q]
    if exact:
        return exact
    sub = sorted((n for n in names if q in n.lower()), key=lambda n: (not n.lower().startswith(q), len(n)))
    if sub:
        return sub
    from .matching import closest
    return closest(q, names, limit=5)


def _amount(v) -> str:
    return printer.amount(v)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


def phrase_text(v) -> str:
    if isinstance(v, A.Phrase):
        return printer.phrase(v)
    if isinstance(v, A.TraitGroup):
        return ", ".join(printer.trait_ref(t) for t in v.traits)
    if isinstance(v, A.Call):
        return call_text(v, "value")
    if isinstance(v, A.StringLit):
        return v.value
    if isinstance(v, A.BinOp):
        return f"{phrase_text(v.left)} {v.op} {phrase_text(v.right)}"
    return printer.value(v)


_PIECE = re.compile(r"\{(\w+)(?:=([^}]*))?(?::(\w+))?\}|<([^|>:]*)\|([^>]*)>|<s:(\w+)>|\[|\]")


#: each kind of construct: its sentence patterns (dsl/reads.py) and its signatures (dsl/vocab.py)
_READS = {"effect": (reads.EFFECTS, V.EFFECT_FUNCS), "value": (reads.VALUES, V.VALUE_FUNCS),
          "event": (reads.EVENTS, V.EVENT_FUNCS), "timing": (reads.TIMINGS, V.TIMING_FUNCS),
          "negated": (reads.NEGATED, V.VALUE_FUNCS)}


#: words that already make a noun phrase definite or counted, beside the phrase pronouns ("bearer", "you"):
#: no article is put before them ({p:a})
_DETERMINERS = frozenset("a an the this that these those your its his her their each every any another one "
                         "no some all both either neither".split())


def _arg_text(v, fmt: Optional[str]) -> str:
    """One argument as a pattern of dsl/reads.py places it (`fmt`: "signed" or "more" for numbers); the
    arguments a `*name` parameter gathered (a tuple: vocab.call_arguments) read "A, B or C"."""
    if fmt == "a":  # a kind after "is": "a destroyed creature", "an Animal", "the defender" as it is
        text = _arg_text(v, None)
        first = text.split(" ", 1)[0]
        if not first or first.lower() in _DETERMINERS or first in V.PRONOUNS or first[0].isdigit():
            return text
        return ("an " if first[0].lower() in "aeiou" else "a ") + text
    if fmt == "unsaid":  # a key that groups statements: its part is written, the key itself is not
        return ""
    if isinstance(v, tuple):
        parts = [_arg_text(x, fmt) for x in v]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]
    if fmt in ("mana", "more_mana"):  # an amount of mana: "2 mana", "mana equal to the level of it"
        more = " more" if fmt == "more_mana" else ""
        if isinstance(v, (int, A.XValue)) and not isinstance(v, bool):
            return f"{printer.amount(v)}{more} mana"
        text = phrase_text(v)
        if "mana" in text.split() and not more:  # "the mana paid for that spell"
            return text
        return f"{'more ' if more else ''}mana equal to {text}"
    if fmt and isinstance(v, (int, A.XValue, A.Signed)) and not isinstance(v, bool):
        sign, mag = (v.sign, printer.amount(v.value)) if isinstance(v, A.Signed) else \
            (("-", str(-v)) if isinstance(v, int) and v < 0 else ("+", printer.amount(v)))
        if fmt == "more":
            return f"{mag} {'less' if sign == '-' else 'more'}"
        return f"{sign}{mag}"
    if isinstance(v, A.StringLit):
        return v.value.replace("_", " ")
    return phrase_text(v)


_PLURAL_NOUN = re.compile(r"\b(spells|creatures|objects|conjurations|enchantments|mages|walls|zones"
                          r"|players|attacks|dice)\b", re.IGNORECASE)
#: where a subject's head noun ends and what qualifies it begins ("each object | in zones adjacent...")
_QUALIFIER = re.compile(r"\b(in|within|of|attached|adjacent|with|without|that|controlled|on|except)\b")


def _plural(subject: str) -> bool:
    """Whether a verb after this subject takes its plural form ("your Soldier spells cost"): "you",
    "they", "all ...", or a plural noun before what qualifies it ("each object in zones..." is one)."""
    s = subject.lower()
    if s in ("you", "they") or s.startswith("all "):
        return True
    if s.startswith(("each ", "every ")):
        return False
    head = _QUALIFIER.split(s, maxsplit=1)[0]
    return bool(_PLURAL_NOUN.search(head))


def read_call(c: A.Call, kind: str = "effect") -> Optional[str]:
    """The sentence a construct reads as in generated card text, from its pattern in dsl/reads.py
    (`kind`: effect, value, event or timing), or None when it has none.  Arguments the pattern does
    not place follow it as "(name value)": nothing written on the card is left out."""
    table, sigs = _READS[kind]
    pattern, sig = table.get(c.name), sigs.get(c.name)
    if pattern is None or sig is None:
        return None
    given, unplaced = V.call_arguments(sig, c)
    extra = [_arg_text(v, None) for v in unplaced]
    placed = set()
    written: dict[str, str] = {}  # what was written for each placeholder (a noun after it agrees: <s:p>)
    out: list[list[str]] = [[]]  # a stack of parts: [ ... ] opens a part that is kept only when complete
    complete = [True]
    last = ""
    pos = 0
    for m in _PIECE.finditer(pattern):
        out[-1].append(pattern[pos:m.start()])
        pos = m.end()
        name, default, fmt, plural_form, singular_form, counted = m.groups()
        tok = m.group(0)
        if name:
            placed.add(name)
            if name in given:
                last = written[name] = _arg_text(given[name], fmt)
                out[-1].append(last)
            elif default is not None:
                last = written[name] = default
                out[-1].append(default)
            else:
                complete[-1] = False
        elif plural_form is not None:
            out[-1].append(plural_form if _plural(last) else singular_form)
        elif counted is not None:  # a noun after a number: "1 zone", "2 zones", "X zones"
            amount = written.get(counted)
            out[-1].append("(s)" if amount is None else "" if amount == "1" else "s")
        elif tok == "[":
            out.append([])
            complete.append(True)
        else:  # "]": the optional part is written only if every argument in it was given
            part, ok = "".join(out.pop()), complete.pop()
            if ok:
                out[-1].append(part)
    out[-1].append(pattern[pos:])
    text = "".join(out[0])
    extra += [f"{k.replace('_', ' ')} {_arg_text(v, None)}" for k, v in given.items() if k not in placed]
    return text + (f" ({'; '.join(extra)})" if extra else "")


def call_text(c: A.Call, kind: str = "effect") -> str:
    read = read_call(c, kind)
    if read is not None:
        return read
    words = c.name.replace("_", " ")
    if c.bare or not c.args:
        return words
    pos = [phrase_text(a.value) for a in c.args if a.key is None]
    kw = [f"{a.key.replace('_', ' ')} {phrase_text(a.value)}" for a in c.args if a.key is not None]
    s = f"{words} {', '.join(pos)}" if pos else words
    if kw:
        s += " (" + "; ".join(kw) + ")"
    return s


_COMPARE = {"<": "is less than", "<=": "is at most", ">": "is more than", ">=": "is at least",
            "==": "is", "!=": "is not"}
#: each comparison's opposite: how `not (...)` of it reads
_OPPOSITE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def cond_text(c) -> str:
    if isinstance(c, A.Compare):
        return f"{phrase_text(c.left)} {_COMPARE[c.op]} {phrase_text(c.right)}"
    if isinstance(c, A.CondAnd):
        return _joined(c.items, "and", A.CondOr, "either")
    if isinstance(c, A.CondOr):
        one = _one_subject(c)
        return one if one is not None else _joined(c.items, "or", A.CondAnd, "both")
    if isinstance(c, A.CondNot):
        return _negated_text(c.item)
    return call_text(c, "value")


def _one_subject(c, lead: str = "") -> Optional[str]:
    """`is(X, A) or is(X, B) ...` of one subject reads once: "X is a creature or a conjuration" ("X is
    either a creature or a conjuration" where `lead` says the group must be marked); None otherwise."""
    kinds, subject = [], None
    for x in c.items:
        if not (isinstance(x, A.Call) and x.name == "is" and len(x.args) == 2
                and not any(a.key for a in x.args)):
            return None
        who = phrase_text(x.args[0].value)
        if subject is not None and who != subject:
            return None
        subject = who
        kinds.append(_arg_text(x.args[1].value, "a"))
    listed = ", ".join(kinds[:-1]) + " or " + kinds[-1]
    return f"{subject} is {lead + ' ' if lead else ''}{listed}"


def _joined(items, word: str, other: type, lead: str) -> str:
    """Conditions joined by "and" or "or"; one of the other kind among them reads "either A or B" /
    "both A and B", followed by a comma unless it comes last, so the grouping is not lost
    ("either the attack is melee or the attack is ranged, and the attack is not Spell")."""
    parts = []
    for i, x in enumerate(items):
        one = _one_subject(x, lead) if isinstance(x, A.CondOr) else None
        text = one if one is not None else cond_text(x)
        if isinstance(x, other):
            text = f"{text if one is not None else lead + ' ' + text}{',' if i < len(items) - 1 else ''}"
        parts.append(text)
    return f" {word} ".join(parts)


def _negated_text(c) -> str:
    """How `not (c)` reads: the condition's own negative sentence where there is one ("target does
    not have Burn", "the roll is less than 7"); otherwise "not (...)" around its sentence (a
    compound condition, a value with no negative pattern in dsl/reads.py)."""
    if isinstance(c, A.CondNot):
        return cond_text(c.item)
    if isinstance(c, A.Compare) and c.op in _OPPOSITE:
        return f"{phrase_text(c.left)} {_COMPARE[_OPPOSITE[c.op]]} {phrase_text(c.right)}"
    if isinstance(c, A.Call):
        read = read_call(c, "negated")
        if read is not None:
            return read
    return f"not ({cond_text(c)})"


def effect_text(e) -> str:
    if isinstance(e, A.Call):
        return _cap(call_text(e))
    if isinstance(e, A.Gain):
        who = printer.phrase(e.subject)
        s = f"{_cap(who)} {'gain' if _plural(who) else 'gains'} {phrase_text(e.traits)}"
        return s + (f" until the end of the {e.duration.until.replace('_', ' ')}" if e.duration else "")
    if isinstance(e, A.Lose):
        who = printer.phrase(e.subject)
        s = f"{_cap(who)} {'lose' if _plural(who) else 'loses'} {phrase_text(e.traits)}"
        return s + (" and cannot gain it" if e.cannot_gain else "")
    if isinstance(e, A.StatChange):
        mods = ", ".join(f"{m.amount.sign}{_amount(m.amount.value)} {m.stat}" for m in e.mods)
        who = printer.phrase(e.subject)
        s = f"{_cap(who)} {'get' if _plural(who) else 'gets'} {mods}"
        return s + (f" until the end of the {e.duration.until.replace('_', ' ')}" if e.duration else "")
    if isinstance(e, A.IfEffect):
        s = f"If {cond_text(e.condition)}: {effects_text(e.then)}"
        if e.otherwise:
            s += f" Otherwise: {effects_text(e.otherwise)}"
        return s
    if isinstance(e, A.OptionalEffect):
        return f"You may: {effects_text(e.body)}"
    if isinstance(e, A.ChoiceEffect):
        return "Choose one: " + " / ".join(effects_text(o) for o in e.options)
    if isinstance(e, A.ForEach):
        return f"For each {printer.phrase(e.over)}: {effects_text(e.body)}"
    if isinstance(e, A.Unsupported):
        return f"[not yet stated in the language: {e.clause or e.reason}]"
    return printer.effect(e)


def effects_text(es) -> str:
    return " ".join(effect_text(e).rstrip(".") + "." for e in es)


def ability_text(ab) -> str:
    if isinstance(ab, A.StaticAbility):
        g = f"While {cond_text(ab.guard)}: " if ab.guard is not None else ""
        return g + effect_text(ab.effect).rstrip(".") + "."
    if isinstance(ab, A.TriggeredAbility):
        g = f", if {cond_text(ab.guard)}" if ab.guard is not None else ""
        return f"When {call_text(ab.event, 'event')}{g}: {effects_text(ab.effects)}"
    if isinstance(ab, A.TimedAbility):
        return f"At {call_text(ab.timing, 'timing')}: {effects_text(ab.effects)}"
    if isinstance(ab, A.ActivatedAbility):
        costs = []
        for c in ab.costs:
            if isinstance(c, A.CostAction):
                costs.append(f"{c.action} action")
            elif isinstance(c, A.CostMana):
                costs.append(f"{_amount(c.amount)} mana")
            else:
                costs.append(call_text(c))
        return f"[{', '.join(costs) or 'no cost'}]: {effects_text(ab.effects)}"
    if isinstance(ab, A.RevealRule):
        s = "You must reveal this" if ab.mode == "must" else "You may reveal this"
        if ab.on:
            s += " when " + " or ".join(call_text(c, "event") for c in ab.on)
        if ab.step:
            # a step by its title in the rulebook (the vocabulary's), a phase by its name
            label = STEP_TITLES.get(ab.step, ab.step.replace("_", " "))
            s += f", {ab.step_rel} the {label} step"
        return s + "."
    if isinstance(ab, A.OneShotAbility):
        return effects_text(ab.effects)
    if isinstance(ab, A.OncePerRound):
        return "Once per round: " + ability_text(ab.ability)
    return printer.ability(ab)


def school_text(c: CardDefinition) -> str:
    if not c.schools:
        return ""
    join = " or " if c.school_join == "or" else " + "
    return join.join(f"{s} {lvl}" for s, lvl in c.schools)


def attack_text(a: AttackDefinition) -> list[str]:
    bits = []
    if a.action:
        bits.append(a.action.capitalize())
    if a.kind:
        bits.append(a.kind.capitalize())
    bits.extend(s.capitalize() for s in a.special if s != "zone")
    if a.is_zone:
        bits.append("Zone")
    if a.range:
        bits.append(f"range {a.range[0]}-{a.range[1]}")
    if a.damage_type:
        bits.append(a.damage_type)
    if a.dice is not None:
        bits.append(f"{_amount(a.dice)} dice")
    if a.cost is not None:
        bits.append(f"costs {_amount(a.cost)} mana")
    lines = [f"  {a.name}: " + ", ".join(bits)]
    if a.effect_die:
        rows = []
        for r in a.effect_die:
            rng = f"{r.low}-{r.high}" if r.high is not None else f"{r.low}+"
            rows.append(rng + " " + " and ".join(f"{n} {k}" if n > 1 else k for k, n in r.outcomes))
        lines.append("    effect die: " + "; ".join(rows))
    if a.traits:
        lines.append("    traits: " + ", ".join(str(t) for t in a.traits))
    if a.alternatives:
        lines.append("    choose when declared: " + " OR ".join(", ".join(str(t) for t in g) for g in a.alternatives))
    for ab in a.abilities:
        lines.append("    " + ability_text(ab))
    for u in a.unsupported:
        lines.append(f"    [not yet stated in the language: {u.clause or u.reason}]")
    return lines


def render_card(c: CardDefinition, corpus: Optional[Corpus] = None) -> str:
    kind = KIND_LABEL.get(c.kind, c.kind.capitalize())
    out = [c.name, "=" * len(c.name)]
    head = kind + (f" — {', '.join(c.subtypes)}" if c.subtypes else "")
    out.append(head)
    facts = []
    if c.schools:
        facts.append(f"School: {school_text(c)} (level {c.level})")
    if c.cast_cost is not None:
        cost = _amount(c.cast_cost) + (f", reveal {_amount(c.reveal_cost)}" if c.reveal_cost is not None else "")
        facts.append(f"Cost: {cost}")
    if c.action:
        facts.append(f"Cast: {c.action} action")
    if c.range:
        facts.append(f"Range: {c.range[0]}-{c.range[1]}")
    if c.targets:
        facts.append(("Targets: " if c.target_join == "and" else "Target: ")
                     + f" {c.target_join} ".join(c.targets))
    stats = []
    for stat in STAT_WORDS[:4]:  # armor, life, channeling, spellbook: labelled with the language's words
        v, label = getattr(c, stat), stat.capitalize()
        if v is not None:
            stats.append(f"{label} {_amount(v)}")
        elif stat == "armor" and c.life is not None:  # `armor none`: the No Armor symbol
            stats.append(f"{label} none")
    if stats:
        facts.append(" · ".join(stats))
    for d in c.defenses:
        uses = "unlimited" if d.uses is None else f"{d.uses}x per round"
        facts.append(f"Defense: {d.roll}+ ({uses})" + (f", not against {d.limit} attacks" if d.limit else ""))
    if c.slot:
        facts.append("Slot: " + f" {c.slot_join} ".join(c.slot) if c.slot_join != "single" else "Slot: " + c.slot[0])
    if c.training:
        facts.append("Training: " + ", ".join(c.training))
    if c.school_costs:
        facts.append("Spellbook cost per level: " + ", ".join(f"{s} x{n}" for s, n in c.school_costs))
    if c.traits:
        facts.append("Traits: " + ", ".join(str(t) for t in c.traits))
    out.extend(facts)
    if c.attacks:
        out.append("Attacks:")
        for a in c.attacks:
            out.extend(attack_text(a))
    if c.abilities or c.unsupported:
        out.append("Abilities:")
        for ab in c.abilities:
            out.append("  " + ability_text(ab))
        for u in c.unsupported:
            out.append(f"  [not yet stated in the language: {u.clause or u.reason}]")
    if c.errata:
        out.append("Errata applied: " + "; ".join(c.errata))
    if c.printings:
        out.append("Printed in: " + ", ".join(s + (f" ({cid})" if cid else "") for s, cid in c.printings))
    out.append(f"Defined at {c.span}")
    return "\n".join(out)


def card_to_json(c: CardDefinition) -> dict:
    from .export import card_record
    rec = card_record(c)
    rec["text"] = render_card(c)
    return rec
