"""AST -> canonical source text.

`parse(print(ast)) == ast` (ignoring spans) is a tested property; the printer is
also how tools show a definition back to authors in one canonical layout.
"""
from __future__ import annotations

from . import ast as A


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def amount(v) -> str:
    if isinstance(v, A.XValue):
        return "X" if v.coef == 1 else f"{v.coef}X"
    return str(v)


def value(v) -> str:
    if isinstance(v, bool):
        raise TypeError("flags are not values")
    if isinstance(v, int):
        return str(v)
    if isinstance(v, A.XValue):
        return amount(v)
    if isinstance(v, A.Signed):
        return f"{v.sign}{amount(v.value)}"
    if isinstance(v, A.Phrase):
        return phrase(v)
    if isinstance(v, A.TraitGroup):
        return trait_group(v)
    if isinstance(v, A.StringLit):
        return _q(v.value)
    if isinstance(v, A.Call):
        return call(v)
    if isinstance(v, A.BinOp):
        return f"{value(v.left)} {v.op} {value(v.right)}"
    raise TypeError(f"cannot print value {v!r}")


def phrase(p: A.Phrase) -> str:
    return " ".join(w.text for w in p.words)


def name(n: A.Name) -> str:
    return " ".join(n.words)


def param(p: A.Param) -> str:
    return f"{p.sign or ''}{amount(p.value)}"


def trait_ref(t: A.TraitRef) -> str:
    if t.versus:
        return f"{param(t.param)} vs " + " or ".join(name(n) for n in t.versus)
    return name(t.name) + (f" {param(t.param)}" if t.param is not None else "")


def trait_group(g: A.TraitGroup) -> str:
    return "[" + ", ".join(trait_ref(t) for t in g.traits) + "]"


def call(c: A.Call) -> str:
    if c.bare:
        return c.name
    args = []
    for a in c.args:
        args.append((f"{a.key}: " if a.key else "") + value(a.value))
    return f"{c.name}(" + ", ".join(args) + ")"


def condition(c) -> str:
    if isinstance(c, A.Call):
        return call(c)
    if isinstance(c, A.Compare):
        return f"{value(c.left)} {c.op} {value(c.right)}"
    if isinstance(c, A.CondAnd):
        # a nested and/or was parenthesised in the source; keep the grouping
        return " and ".join(_cond_paren(x, (A.CondOr, A.CondAnd)) for x in c.items)
    if isinstance(c, A.CondOr):
        return " or ".join(_cond_paren(x, A.CondOr) for x in c.items)
    if isinstance(c, A.CondNot):
        inner = c.item
        if isinstance(inner, (A.CondAnd, A.CondOr, A.Compare)):
            return f"not ({condition(inner)})"
        return f"not {condition(inner)}"
    raise TypeError(f"cannot print condition {c!r}")


def _cond_paren(c, wrap_types) -> str:
    s = condition(c)
    return f"({s})" if isinstance(c, wrap_types) else s


def block(effects: tuple) -> str:
    if len(effects) == 1 and not isinstance(effects[0], A.IfEffect):
        return effect(effects[0])
    return "{ " + seq(effects) + " }"


def seq(effects: tuple) -> str:
    return "; ".join(effect(e) for e in effects)


def effect(e) -> str:
    if isinstance(e, A.Call):
        return call(e)
    if isinstance(e, A.Gain):
        s = f"{phrase(e.subject)} gains {trait_group(e.traits)}"
        return s + (f" until end of {e.duration.until}" if e.duration else "")
    if isinstance(e, A.Lose):
        return f"{phrase(e.subject)} loses {trait_group(e.traits)}" + (" and cannot gain" if e.cannot_gain else "")
    if isinstance(e, A.StatChange):
        mods = ", ".join(f"{m.stat} {m.amount.sign}{amount(m.amount.value)}" for m in e.mods)
        s = f"{phrase(e.subject)} gets {mods}"
        return s + (f" until end of {e.duration.until}" if e.duration else "")
    if isinstance(e, A.IfEffect):
        s = f"if {condition(e.condition)} then {block(e.then)}"
        if e.otherwise is not None:
            s += f" else {block(e.otherwise)}"
        return s
    if isinstance(e, A.OptionalEffect):
        return f"may {block(e.body)}"
    if isinstance(e, A.ChoiceEffect):
        return "choose { " + " | ".join(seq(o) for o in e.options) + " }"
    if isinstance(e, A.ForEach):
        return f"for each {phrase(e.over)}: {block(e.body)}"
    if isinstance(e, A.Unsupported):
        return f"unsupported {_q(e.reason)}" + (f" {_q(e.clause)}" if e.clause is not None else "")
    raise TypeError(f"cannot print effect {e!r}")


def ability(ab) -> str:
    if isinstance(ab, A.StaticAbility):
        g = f"if {condition(ab.guard)} " if ab.guard is not None else ""
        return f"static {g}{effect(ab.effect)}"
    if isinstance(ab, A.TriggeredAbility):
        g = f" if {condition(ab.guard)}" if ab.guard is not None else ""
        return f"when {call(ab.event)}{g}: {seq(ab.effects)}"
    if isinstance(ab, A.TimedAbility):
        return f"at {call(ab.timing)}: {seq(ab.effects)}"
    if isinstance(ab, A.ActivatedAbility):
        costs = []
        for c in ab.costs:
            if isinstance(c, A.CostAction):
                costs.append(c.action)
            elif isinstance(c, A.CostMana):
                costs.append(f"{amount(c.amount)} mana")
            else:
                costs.append(call(c))
        return "action" + (" " + ", ".join(costs) if costs else "") + f": {seq(ab.effects)}"
    if isinstance(ab, A.RevealRule):
        s = f"reveal {ab.mode}" + "".join(f" on {call(c)}" for c in ab.on)
        if ab.step:
            s += f" {ab.step_rel} {ab.step}"
        return s
    if isinstance(ab, A.OneShotAbility):
        return f"effect: {seq(ab.effects)}"
    if isinstance(ab, A.OncePerRound):
        return f"once per round {ability(ab.ability)}"
    raise TypeError(f"cannot print ability {ab!r}")


def item(it, indent: str) -> list[str]:
    i = indent
    if isinstance(it, A.Printed):
        return [f"{i}printed {_q(it.set_name)}" + (f" {_q(it.card_id)}" if it.card_id is not None else "")]
    if isinstance(it, A.Subtypes):
        return [f"{i}subtypes " + ", ".join(name(n) for n in it.names)]
    if isinstance(it, A.School):
        parts = [f"{name(it.reqs[0].school)} {it.reqs[0].level}"]
        for j, r in zip(it.joins, it.reqs[1:]):
            parts.append(f"{j} {name(r.school)} {r.level}")
        return [f"{i}school " + " ".join(parts)]
    if isinstance(it, A.Cost):
        return [f"{i}cost {amount(it.cast)}" + (f"+{amount(it.reveal)}" if it.reveal is not None else "")]
    if isinstance(it, A.Casting):
        return [f"{i}cast {it.action}"]
    if isinstance(it, A.Range):
        return [f"{i}range {it.low}-{it.high}"]
    if isinstance(it, A.Targets):
        s = phrase(it.alternatives[0])
        for j, p in zip(it.joins, it.alternatives[1:]):
            s += f" {j} {phrase(p)}"
        return [f"{i}targets {s}"]
    if isinstance(it, A.Stat):
        v = "none" if it.value is None else amount(it.value)
        return [f"{i}{it.stat} {v}"]
    if isinstance(it, A.Defense):
        uses = "unlimited" if it.uses is None else f"{it.uses}x"
        return [f"{i}defense {it.roll}+ {uses}" + (f" no {it.limit}" if it.limit else "")]
    if isinstance(it, A.Slot):
        parts = [name(it.names[0])]
        for j, n in zip(it.joins, it.names[1:]):
            parts.append(f"{j} {name(n)}")
        return [f"{i}slot " + " ".join(parts)]
    if isinstance(it, A.Traits):
        s = trait_ref(it.traits[0])
        for sep, t in zip(it.seps, it.traits[1:]):
            s += (", " if sep == "," else " OR ") + trait_ref(t)
        return [f"{i}traits {s}"]
    if isinstance(it, A.Training):
        return [f"{i}training " + ", ".join(name(n) for n in it.schools)]
    if isinstance(it, A.SchoolCost):
        return [f"{i}school cost " + ", ".join(f"{name(n)} {c}" for n, c in it.costs)]
    if isinstance(it, A.AttackBar):
        out = [f"{i}attack {_q(it.name)} {{"]
        for sub in it.items:
            out.extend(item(sub, i + "  "))
        return out + [f"{i}}}"]
    if isinstance(it, A.AttackAction):
        return [f"{i}{it.action}"]
    if isinstance(it, (A.AttackKind, A.SpecialKind)):
        return [f"{i}{it.kind}"]
    if isinstance(it, A.DamageType):
        return [f"{i}damage {name(it.name)}"]
    if isinstance(it, A.Dice):
        return [f"{i}dice {amount(it.amount)}"]
    if isinstance(it, A.EffectDie):
        rows = []
        for r in it.rows:
            rng = f"{r.low}-{r.high}" if r.high is not None else f"{r.low}+"
            outs = " and ".join((f"{o.count} " if o.count is not None else "") + name(o.name) for o in r.outcomes)
            rows.append(f"{rng} {outs}")
        return [f"{i}d12 " + "; ".join(rows)]
    if isinstance(it, A.ParamDecl):
        return [f"{i}param {it.kind}"]
    if isinstance(it, A.Category):
        return [f"{i}category " + ", ".join(name(n) for n in it.names)]
    if isinstance(it, A.Stacking):
        return [f"{i}stacking {it.mode}"]
    if isinstance(it, A.Removal):
        return [f"{i}removal " + ("none" if it.cost is None else amount(it.cost))]
    if isinstance(it, A.Marker):
        return [f"{i}marker {it.kind}"]
    if isinstance(it, A.Summary):
        return [f"{i}summary {_q(it.text)}"]
    if isinstance(it, A.Errata):
        return [f"{i}errata {_q(it.cite)}"]
    if isinstance(it, A.UnsupportedItem):
        return [f"{i}unsupported {_q(it.reason)}" + (f" {_q(it.clause)}" if it.clause is not None else "")]
    return [i + ability(it)]


def definition(d) -> str:
    if isinstance(d, A.CardDef):
        head = "attack spell" if d.kind == "attack" else d.kind
    else:
        head = d.kind
    lines = [f"{head} {_q(d.name)} {{"]
    for it in d.items:
        lines.extend(item(it, "  "))
    lines.append("}")
    return "\n".join(lines)


def source(f: A.SourceFile) -> str:
    return "\n\n".join(definition(d) for d in f.definitions) + ("\n" if f.definitions else "")
