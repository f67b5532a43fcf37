"""Text and JSON views of an OddsReport."""
from __future__ import annotations

from fractions import Fraction

from ..console import make_table, table_text

BAR = 40


def _pct(p: Fraction) -> str:
    if 0 < p < Fraction(1, 20000):
        return " <0.01%"
    if p < 1 and p > Fraction(19999, 20000):
        return ">99.99%"
    return f"{float(p) * 100:6.2f}%"


def _frac(p: Fraction) -> dict:
    return {"fraction": f"{p.numerator}/{p.denominator}", "p": float(p)}


def _bar(p: Fraction, top: Fraction) -> str:
    if not top:
        return ""
    n = float(p) / float(top) * BAR
    return "█" * int(n) + ("▌" if n - int(n) >= 0.5 else "")


def _effects(ao) -> list[dict]:
    """Effect-die outcomes grouped by what the engine placed, with the natural rolls that give them."""
    groups: dict = {}
    for row in ao.effect:
        key = tuple((c[0], c[1]) for c in row["conditions"])
        g = groups.setdefault(key, {"conditions": [list(c) for c in key], "naturals": [], "p": Fraction(0)})
        g["naturals"].append(row["natural"])
        g["p"] += row["p"]
    return list(groups.values())


def _rolls(ns: list[int]) -> str:
    ns = sorted(ns)
    return f"{ns[0]}" if len(ns) == 1 else f"{ns[0]}-{ns[-1]}" if ns == list(range(ns[0], ns[-1] + 1)) \
        else ",".join(map(str, ns))


def _name(c) -> str:
    return c.name.removesuffix(" Stats") if c.kind == "magestats" else c.name


def render_text(r) -> str:
    s, a = r.spec, r.first
    out = []
    who = _name(s.attacker) if s.attacker.kind != "attack" else f"{_name(s.caster)} casting"
    out.append(f"{who} {r.attack_name} → {_name(s.defender)}"
               + (f"  (defender already has {s.defender_damage} damage)" if s.defender_damage else ""))
    if s.attacker_with:
        out.append(f"  attacker with: {', '.join(c.name for c in s.attacker_with)}")
    if s.defender_with:
        out.append(f"  defender with: {', '.join(c.name for c in s.defender_with)}")
    if s.defender_hidden:
        out.append(f"  defender with, face down: {', '.join(c.name for c in s.defender_hidden)} "
                   f"(assumed revealed at the first window its reveal rule allows)")
    out.append("")
    out.append("Engine inputs")
    mods = " ".join(f"{m[1]:+d} {m[0]}" for m in a.dice_mods[1:])
    out.append(f"  attack dice   {a.dice}" + (f"  (printed {a.dice_mods[0][1]} {mods})" if mods else ""))
    out.append(f"  armor         {a.armor}")
    out.append(f"  health left   {a.remaining} (life {r.view['life']}, damage {s.defender_damage})")
    if r.view["traits"]:
        out.append(f"  defender      {', '.join(r.view['traits'])}")
    if a.p_miss:
        out.append(f"  miss (Daze)   {_pct(a.p_miss)}")
    if a.p_avoid:
        out.append(f"  avoided       {_pct(a.p_avoid)}")
    if a.strikes > 1:
        out.append(f"  strikes       {a.strikes} (the damage below is the action's total)")
    out.append(f"  computed by   {a.method}" + (f" ({a.note})" if a.note else ""))
    if a.example:
        out.append("  example roll (engine log):")
        out += [f"    {t}" for t in a.example]
    out.append("")
    dist = a.damage
    top = max(dist.values()) if dist else Fraction(0)
    table = make_table("Damage", "P(exact)", "P(at least)", "", right=("Damage", "P(exact)", "P(at least)"))
    cum = Fraction(1)
    for k, p in dist.items():
        table.add_row(str(k), _pct(p), _pct(cum), _bar(p, top))
        cum -= p
    out.append(table_text(table))
    out.append(f"  mean {float(a.mean):.3f} damage; destroys it: {_pct(a.p_destroy).strip()}"
               f"  ({a.remaining} or more damage needed)")
    out.append("")
    if a.effect_die:
        mods = ", ".join(f"{m[1]:+d} {m[0]}" for m in a.effect_mods)
        table = make_table("d12", "P", "effect", right=("d12", "P"),
                           title="Effect die (d12" + (f"; {mods}" if mods else "") + "), if the defender survives")
        for g in _effects(a):
            what = ", ".join(f"{n} {c}" for c, n in g["conditions"]) or "no effect"
            table.add_row(_rolls(g["naturals"]), _pct(g["p"] * a.p_hit), what)
        out.append(table_text(table))
        out.append("")
    elif s.attacker.kind == "attack" or any(x.effect_die for x in s.attacker.attacks):
        out.append("Effect die: not rolled against this defender")
        out.append("")
    out.append(f"Attacks needed to destroy it (each like the first, at most {r.cap})")
    top = max(list(r.attacks_needed.values()) + [r.beyond])
    cum = Fraction(0)
    if not any(r.attacks_needed.values()):
        out.append(f"  never destroyed within {r.cap} attacks")
    table = make_table("attacks", "P(exactly)", "P(by then)", "", right=("attacks", "P(exactly)", "P(by then)"))
    for k, p in r.attacks_needed.items():
        cum += p
        if p or 0 < cum < 1:
            table.add_row(str(k), _pct(p), _pct(cum), _bar(p, top))
    if r.beyond:
        table.add_row(f">{r.cap}", _pct(r.beyond), "", "")
    if table.row_count:
        out.append(table_text(table))
    return "\n".join(out)


def render_json(r) -> dict:
    s, a = r.spec, r.first
    return {
        "attacker": _name(s.attacker), "attack": r.attack_name, "defender": _name(s.defender),
        "caster": _name(s.caster) if s.caster is not None and s.attacker.kind == "attack" else None,
        "attacker_with": [c.name for c in s.attacker_with], "defender_with": [c.name for c in s.defender_with],
        "defender_hidden": [c.name for c in s.defender_hidden],
        "defender_damage": s.defender_damage,
        "inputs": {"dice": a.dice, "dice_modifiers": [{"source": m[0], "amount": m[1]} for m in a.dice_mods],
                   "armor": a.armor, "remaining_health": a.remaining, "life": r.view["life"],
                   "defender_traits": list(r.view["traits"]),
                   "effect_modifiers": [{"source": m[0], "amount": m[1]} for m in a.effect_mods],
                   "example_roll": a.example},
        "miss": _frac(a.p_miss), "avoided": _frac(a.p_avoid), "hit": _frac(a.p_hit),
        "damage": [{"damage": k, **_frac(p)} for k, p in a.damage.items()],
        "mean_damage": float(a.mean),
        "destroy": _frac(a.p_destroy),
        "method": a.method,
        "method_note": a.note,
        "strikes": a.strikes,
        "effect_die": ([{"naturals": sorted(g["naturals"]), "conditions": g["conditions"],
                         **_frac(g["p"] * a.p_hit)} for g in _effects(a)] if a.effect_die else None),
        "attacks_needed": {"cap": r.cap,
                           "by_attack": [{"attacks": k, **_frac(p)} for k, p in r.attacks_needed.items()],
                           "more_than_cap": _frac(r.beyond)},
    }
