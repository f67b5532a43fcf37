"""Every card's printed facts equal the published data (../shared/cards/cards.json and
../shared/cards/texts-supplement.json).

Compared for every Arena card, against each of its printings (a fact must equal at least one):
type, subtypes, school(s) and how they combine, cast/reveal cost, action, range, targets, armor,
life, channeling, spellbook points, starting mana, defense, equipment slot, traits; a mage's
training, spellbook cost per school, opposed schools and non-school cost rules; and each attack bar
(by name): action (quick/full, damage barrier, passage attack), kind, range, damage type, dice,
effect die rows, cost, zone attack and traits. texts-supplement.json: each record's card states
its rules (not the rules-text-missing marker), and the facts its notes give hold.

The source's typos are normalised here, in the comparison, never in our cards.
Differences are allowed only where an erratum applies or where texts-supplement.json
records that the data is another card's; each exception below cites its source.
"""
import json
import re
from collections import defaultdict

import pytest

from magewars.resources import data_dir
from magewars.dsl import printer
from magewars.dsl.ast import XValue
from magewars.dsl.model import SCHOOLS

# card name -> {field: citation}.  Fields: type, subtypes, school, cost, action, range,
# targets, stats, defense, slot, traits, attacks.
EXCEPTIONS: dict[str, dict[str, str]] = {
    "Wizard's Tower": {"traits": "Supplement 2016, Spells: Wizard's Tower (errata: Spellbind removed)"},
    "Tide Elemental": {
        "attacks": "cards.json attack_bar_display: the printed bar shows Extinguish; the parsed traits leave it out",
    },
    "Tidal Kick": {
        "attacks": "cards.json attack_bar_display: Hydro, 3 dice; the parsed bar (4 dice) is Shattering Strike's (same card id)",
    },
    "Spark Elemental": {
        "stats": "texts-supplement.json notes: the data's armor and life are another card's (printed: Armor -, Life 3)",
        "attacks": "texts-supplement.json notes: the data's parsed bar is another card's; the bar display shows Shock",
    },
}

TRAIT_TYPOS = {"Disspiate 1": "Dissipate 1", "UpKip": "Upkeep +1", "Hydro-3": "Hydro -3", "Tough-3": "Tough -3",
               "Bloodthirsty+1": "Bloodthirsty +1", "Mage Cast": "Magecast", "Blocks LOS": "Blocks LoS"}
KIND = {"Creature": "creature", "Conjuration": "conjuration", "Conjuration-Wall": "wall",
        "Conjuration-Terrain": "terrain", "Conjuration-Vine": "vine", "Enchantment": "enchantment",
        "Equipment": "equipment", "Incantation": "incantation", "Attack": "attack", "Magestats": "magestats"}
SLOT = {"Weapon/Shield": ("Weapon", "Shield"), "Weapon+Shield": ("Weapon", "Shield"), "Chest Piece": ("Chest",),
        "Chestpiece": ("Chest",), "Hand": ("Gloves",)}


def norm_trait(t: str):
    """Data trait text -> comparable key, or None for free text the data stores as a trait."""
    t = TRAIT_TYPOS.get(t.strip(), t.strip())
    m = re.match(r"^([+-]\d+) [Vv]s\.? (.+)$", t)
    if m:
        names = [re.sub(r"s$", "", n.strip()) if n.strip().endswith(("Creatures", "Conjurations", "Objects")) else n.strip()
                 for n in m.group(2).split(" or ")]
        return f"{m.group(1)} vs " + " or ".join(names)
    if not re.fullmatch(r"[A-Z][A-Za-z'\-]*( [A-Z][A-Za-z'\-]*)*( [+-]?(\d+|X))?", t):
        return None
    return t


def amount(v):
    if isinstance(v, XValue):
        return "X" if v.coef == 1 else f"{v.coef}X"
    return v


DAMAGE_TYPES = {"Acid", "Flame", "Frost", "Hydro", "Light", "Lightning", "Poison", "Psychic", "Wind"}


def display_bars(display: str, card_name: str) -> list[dict]:
    """The module's attack bar display, read into records shaped like the data's `attacks`.

    Two consecutive bars with one name that differ only in traits are one printed bar whose
    traits offer a choice (e.g. Sweeping or Doublestrike): they are merged into one record."""
    bars: list[dict] = []
    name = None
    for line in (display or "").replace("\r", "").split("\n"):
        line = line.strip()
        if not line:
            continue
        if "[" not in line:
            name = line.rstrip(":").strip()
            continue
        toks = re.findall(r"\[([^\]]*)\]", line)
        bar: dict = {"name": name or card_name, "traits": []}
        name = None
        for t in (x.strip() for x in toks):
            m = re.fullmatch(r"Ranged(?::(\d+)-(\d+))?", t)
            if t in ("Quick", "Full", "Damage Barrier", "Passage Attack"):
                bar["action"] = t
            elif t == "Melee":
                bar["kind"] = "Melee"
            elif m:
                bar["kind"] = "Ranged"
                if m.group(1):
                    bar["range"] = [int(m.group(1)), int(m.group(2))]
            elif t in DAMAGE_TYPES:
                bar["damage_type"] = t
            elif re.fullmatch(r"Dice=\d+", t):
                bar["dice"] = int(t[5:])
            elif re.fullmatch(r"Cost ?= ?\w+", t):
                bar["traits"].append("cost=" + t.split("=")[1].strip())
            elif "=" in t and re.match(r"^\d", t):
                rows = []
                for part in t.split(";"):
                    lo_hi, _, out = part.partition("=")
                    mm = re.fullmatch(r"\s*(\d+)(?:-(\d+)|\+)\s*", lo_hi)
                    conds = []
                    for o in re.split(r"[+&]", out):
                        o = o.strip()
                        n = re.match(r"^(\d+) (.+)$", o)
                        conds += [n.group(2)] * int(n.group(1)) if n else [o]
                    rows.append({"min": int(mm.group(1)), "max": int(mm.group(2)) if mm.group(2) else None,
                                 "conditions": conds})
                bar["effects"] = rows
            elif t != "d12":
                bar["traits"].append(t)
        prev = bars[-1] if bars else None
        if prev is not None and prev["name"].lower() == bar["name"].lower() and \
                {k: v for k, v in prev.items() if k != "traits"} == {k: v for k, v in bar.items() if k != "traits"}:
            prev["traits"] += [t for t in bar["traits"] if t not in prev["traits"]]
            prev["merged"] = True
            continue
        bars.append(bar)
    return bars


def is_placeholder(a: dict) -> bool:
    """A parsed bar with nothing in it (the data keeps some under the card's own name)."""
    return not a.get("kind") and a.get("dice") is None and not any(a.get("traits") or [])


def data_bars(rec: dict) -> list[dict]:
    """Every attack bar the data shows for a record: its parsed bars, then any bar that only
    its display shows (matched by name, ignoring case)."""
    parsed = [a for a in rec.get("attacks") or [] if not is_placeholder(a)]
    names = {(a.get("name") or "").lower() for a in parsed}
    shown = display_bars(rec.get("attack_bar_display") or "", rec["name"])
    if not parsed:
        return shown
    return parsed + [b for b in shown if b["name"].lower() not in names and len(shown) > len(parsed)]


def target_words(t: str):
    # "&" in the data joins two targets of one spell; our phrases list them with "or"/"and".
    t = re.sub(r"\b(\d+)-(\d+)\b", r"up to \2", t)  # "1-2 Adjacent Zones" = up to 2
    return [w.lower() for w in re.split(r"[ ,&]+", t) if w and w.lower() not in ("or", "and", "the")]


@pytest.fixture(scope="module")
def data(shared_dir):
    recs = json.loads((shared_dir / "cards" / "cards.json").read_text())["cards"]
    by_name = defaultdict(list)
    for r in recs:
        if not r["set"].startswith("Mage Wars Academy"):
            by_name[r["name"]].append(r)
    return by_name


def test_every_arena_name_is_defined_once(data, corpus):
    assert len(data) == 629
    missing = sorted(set(data) - set(corpus.cards))
    extra = sorted(set(corpus.cards) - set(data))
    assert not missing, f"cards without a definition: {missing[:20]}"
    assert not extra, f"definitions that are not Arena cards: {extra[:20]}"


def test_printings_match(data, corpus):
    bad = []
    for name, recs in data.items():
        want = {(r["set"], r["card_id"]) for r in recs}
        got = set(corpus.cards[name].printings)
        if want != got:
            bad.append((name, sorted(want - got, key=str), sorted(got - want, key=str)))
    assert not bad, bad[:10]


def compare(rec, c, bars=None):
    """Yield (field, data value, our value) for each difference. `bars`: the attack bars to
    compare (default: the data's parsed bars, then any bar only its display shows)."""
    kind = KIND[rec["type"]]
    if rec["type"] == "Creature" and "Mage" in rec["subtypes"] and not rec["stats"]:
        kind = "mage"
    if kind != c.kind:
        yield "type", kind, c.kind
    if sorted(rec["subtypes"]) != sorted(c.subtypes):
        yield "subtypes", rec["subtypes"], list(c.subtypes)
    sc = rec.get("school")
    want = [(s["school"], s["level"]) for s in sc["schools"]] if sc else []
    if want != list(c.schools):
        yield "school", want, list(c.schools)
    if sc and len(sc["schools"]) > 1 and sc["combine"] != c.school_join:
        yield "school", sc["combine"], c.school_join
    cost = rec.get("cost") or {}
    if cost.get("cast") != amount(c.cast_cost) or cost.get("reveal") != amount(c.reveal_cost):
        yield "cost", cost, (amount(c.cast_cost), amount(c.reveal_cost))
    if (rec.get("action") or "").lower() != (c.action or ""):
        yield "action", rec.get("action"), c.action
    if rec.get("range") and tuple(rec["range"]) != c.range:
        yield "range", rec["range"], c.range
    if rec.get("target"):
        got = [w for t in c.targets for w in target_words(t)]
        want_t = target_words(rec["target"])
        if got != want_t:
            yield "targets", rec["target"], list(c.targets)
    st = rec.get("stats") or {}
    for k in ("armor", "life", "channeling"):
        if k in st:
            want_v = None if st[k] == "-" else st[k]  # "-": the No Armor symbol, `armor none`
            got_v = amount(getattr(c, k))
            if want_v != got_v:
                yield "stats", f"{k} {st[k]}", got_v
    if "spell_book_points" in st and st["spell_book_points"] != c.spellbook:
        yield "stats", st["spell_book_points"], c.spellbook
    if "starting_mana" in st and st["starting_mana"] != (c.starting_mana or 0):
        yield "stats", f"starting_mana {st['starting_mana']}", c.starting_mana
    yield from compare_training(rec, c)
    if st.get("defense"):
        m = re.match(r"^(?:Defense=)?(\d+)\+ (\d+)?(x|inf)(?: No (Ranged|Melee))?$", st["defense"])
        want_d = (int(m.group(1)), None if m.group(3) == "inf" else int(m.group(2)),
                  m.group(4).lower() if m.group(4) else None)
        got_d = [(d.roll, d.uses, d.limit) for d in c.defenses]
        if want_d not in got_d:
            yield "defense", st["defense"], got_d
    if st.get("equipment_slot"):
        want_s = SLOT.get(st["equipment_slot"], (st["equipment_slot"],))
        if tuple(want_s) != c.slot:
            yield "slot", st["equipment_slot"], c.slot
    want_traits = sorted(x for x in (norm_trait(t) for t in rec.get("traits", [])) if x)
    got_traits = sorted(t.text for t in c.traits)
    if want_traits != got_traits:
        yield "traits", want_traits, got_traits
    # Bars are matched by name (ignoring case), in order: some cards print two bars with one name.
    ours = defaultdict(list)
    for a in c.attacks:
        ours[a.name.lower()].append(a)
    used = defaultdict(int)
    for a in (data_bars(rec) if bars is None else bars):
        name = (a["name"] or "Attack").lower()
        k = used[name]
        used[name] += 1
        if k >= len(ours.get(name, [])):
            yield "attacks", name, sorted(ours)
            continue
        o = ours[name][k]
        if a.get("dice") is not None and a["dice"] != amount(o.dice):
            yield "attacks", f"{a['name']} dice {a['dice']}", amount(o.dice)
        if a.get("damage_type") and a["damage_type"] != o.damage_type:
            yield "attacks", f"{a['name']} damage {a['damage_type']}", o.damage_type
        if a.get("kind") and a["kind"].lower() != o.kind:
            yield "attacks", f"{a['name']} kind {a['kind']}", o.kind
        act = a.get("action")
        if act in ("Quick", "Full") and act.lower() != o.action:
            yield "attacks", f"{a['name']} action {act}", o.action
        elif act in BAR_SPECIAL and BAR_SPECIAL[act] not in o.special:
            yield "attacks", f"{a['name']} action {act}", o.special
        if a.get("range") and tuple(a["range"]) != o.range:
            yield "attacks", f"{a['name']} range {a['range']}", o.range
        eff = a.get("effects")
        if isinstance(eff, list) and not all(len(x) > 2 and ";" not in x for e in eff for x in e["conditions"]):
            # the parsed rows are squashed ("Daze;9+"): the display shows them whole
            eff = next((b.get("effects") for b in display_bars(rec.get("attack_bar_display") or "", rec["name"])
                        if b["name"].lower() == name), None)
        if isinstance(eff, list) and all(len(x) > 2 and ";" not in x for e in eff for x in e["conditions"]):
            want_rows = [(e["min"], e["max"], sorted(p.strip() for x in e["conditions"] for p in x.split(" + ")))
                         for e in eff]
            got_rows = [(r.low, r.high, sorted(VARIANT_OF.get(k, k) for k, n in r.outcomes for _ in range(n)))
                        for r in o.effect_die]
            if want_rows != got_rows:
                yield "attacks", f"{a['name']} effect die {want_rows}", got_rows
        want_at = []
        for t in a.get("traits", []):
            if t.startswith("cost="):
                if str(amount(o.cost)) != t[5:]:
                    yield "attacks", f"{a['name']} {t}", amount(o.cost)
                continue
            if t == "Zone Attack":
                if not any(x.is_zone for x in (ours[name] if a.get("merged") else [o])):
                    yield "attacks", f"{a['name']} Zone Attack", o.special
                continue
            n = norm_trait(t)
            if n:
                want_at.append(n)
        # a display bar merged from same-name bars that differ only in traits: all of ours of that name
        got_at = sorted({x.text for b in (ours[name] if a.get("merged") else [o])
                         for x in list(b.traits) + [x for g in b.alternatives for x in g]})
        if sorted(want_at) != sorted(got_at):
            yield "attacks", f"{a['name']} traits {sorted(want_at)}", sorted(got_at)


BAR_SPECIAL = {"Damage Barrier": "barrier", "Passage Attack": "passage"}
# A card's own version of a condition that the data names by the general name (codex-glossary.json
# has an entry for each: "Skeelax, Taunting Imp's Taunt", "Thorg's Taunt").
VARIANT_OF = {"Skeelax's Taunt": "Taunt", "Thorg's Taunt": "Taunt"}
# mage_school_cost keys that are not a school: L-<n>-<School> (levels up to n), S-<Subtype>,
# T-<Type>, C-<School>-<Type>, or a bare subtype/type ("Living", "Creature")
SPECIAL_COST = re.compile(r"^(?:[LSTC]-)?(?:(\d+)-)?(.+)$")


def spellbook_costs(c) -> list[tuple[str, int]]:
    """(phrase, cost) of each spellbook_cost() static a card states."""
    out = []
    for ab in c.abilities:
        m = re.fullmatch(r"static spellbook_cost\((.+), (\d+)\)", printer.ability(ab).strip())
        if m:
            out.append((m.group(1), int(m.group(2))))
    return out


def compare_training(rec, c):
    """A mage's training: trained schools, spellbook cost per school, opposed schools; the
    data's non-school cost keys (subtype, level-capped, type) must each be a spellbook_cost()
    static of that cost whose phrase names the same words."""
    if rec.get("mage_school_full_training") is not None:
        want = sorted(s.strip() for s in rec["mage_school_full_training"].split(",") if s.strip())
        if want != sorted(c.training):
            yield "training", want, list(c.training)
    if not rec.get("mage_school_cost"):
        return
    plain, special = {}, []
    for part in rec["mage_school_cost"].split(","):
        key, _, n = part.strip().partition("=")
        if key in SCHOOLS:
            plain[key] = int(n)
        else:
            special.append((key, int(n)))
    if plain != dict(c.school_costs):
        yield "school cost", plain, dict(c.school_costs)
    for s in (x.strip() for x in (rec.get("mage_school_opposed") or "").split(",")):
        if s and s in SCHOOLS and plain.get(s) != 3:
            yield "school cost", f"{s} opposed (triple)", dict(c.school_costs)
    stated = spellbook_costs(c)
    for key, n in special:
        m = SPECIAL_COST.match(key)
        words = [w.lower() for w in m.group(2).split("-")] + ([m.group(1)] if m.group(1) else [])
        if not any(cost == n and all(re.search(rf"\b{re.escape(w)}\b", ph.lower()) for w in words)
                   for ph, cost in stated):
            yield "school cost", f"{key}={n}", stated


def test_facts_equal_the_published_data(data, corpus):
    """Each fact must equal the data of at least one printing (reprints sometimes differ)."""
    problems = []
    for name, recs in sorted(data.items()):
        c = corpus.cards.get(name)
        if c is None:
            continue
        allowed = EXCEPTIONS.get(name, {})
        per_printing = [{(f, str(w)): (f, w, g) for f, w, g in compare(r, c)} for r in recs]
        failing_fields = set.intersection(*[{f for f, _ in p} for p in per_printing])
        for key, (field, want, got) in per_printing[0].items():
            if field in failing_fields and field not in allowed:
                problems.append(f"{name}: {field}: data {want!r}, ours {got!r}")
    assert not problems, f"{len(problems)} difference(s):\n" + "\n".join(problems[:40])


# Where the data's parsed bar and its displayed bar disagree, the card follows one of them; each
# such card is listed here with the reason (field "display" = the card differs from the display).
DISPLAY_EXCEPTIONS: dict[str, str] = {
    "Alfiya, Noble Enforcer": "the display names the bar Radiant Touch; the parsed bar (both printings) Holy Burst",
    "Drain Life": "Supplement 2016, Drain Life: not an attack; the display's Unavoidable is for a bar the card never makes",
    "Shattering Strike": "the display's bar is unnamed; the parsed bar is Paralyzing Strike (texts-supplement.json notes "
                         "another source naming it after the card)",
    "Eeker": "the parsed bar has Piercing +1, the display Piercing +2; no third source: the parsed bar is kept",
    "Wind Elemental": "the parsed bar (2 dice, 4+ Push) and the display (4 dice, 7+ Push, Ethereal, +1 vs Flying) "
                      "disagree; no third source: the parsed bar is kept",
}


def test_bars_agree_with_the_display(data, corpus):
    """The attack bar display (cards.json `attack_bar_display`) is compared too: the parsed bars
    sometimes lack a damage type or trait the display shows, or differ from it."""
    problems = []
    for name, recs in sorted(data.items()):
        c = corpus.cards[name]
        per_printing = []
        for r in recs:
            shown = display_bars(r.get("attack_bar_display") or "", name)
            if not shown or name in DISPLAY_EXCEPTIONS or "attacks" in EXCEPTIONS.get(name, {}):
                per_printing.append(set())
                continue
            per_printing.append({(str(w), repr(g)) for f, w, g in compare(r, c, bars=shown) if f == "attacks"})
        common = set.intersection(*[{w for w, _ in p} for p in per_printing])
        problems += [f"{name}: display: {w}, ours {g}" for w, g in sorted(per_printing[0]) if w in common]
    assert not problems, f"{len(problems)} difference(s):\n" + "\n".join(problems)


def test_every_exception_cites_a_ruling(data):
    for name in DISPLAY_EXCEPTIONS:
        assert name in data, f"display exception for unknown card {name}"
    for name, fields in EXCEPTIONS.items():
        assert name in data, f"exception for unknown card {name}"
        for field, cite in fields.items():
            assert ("Supplement" in cite or "errata" in cite.lower() or "texts-supplement.json" in cite
                    or "attack_bar_display" in cite), \
                (name, field, cite)


@pytest.fixture(scope="module")
def supplement_texts(shared_dir, data):
    """name -> rules texts from texts-supplement.json, for the Arena records it covers."""
    recs = json.loads((shared_dir / "cards" / "texts-supplement.json").read_text())
    out = defaultdict(list)
    for r in recs:
        if r["set"].startswith("Mage Wars Academy"):
            continue
        assert any(d["set"] == r["set"] for d in data.get(r["name"], [])), \
            f"texts-supplement.json names a record cards.json lacks: {r['name']} ({r['set']})"
        out[r["name"]].append(r["text"])
    return out


def printed_text(recs, supplement) -> str:
    """Every rules text the two sources hold for a card, minus script hooks in brackets."""
    text = " ".join([(r.get("text") or "") + " " + (r.get("mage_abilities") or "") for r in recs] + supplement)
    return re.sub(r"\[[^\]]*\]", "", text).strip(" .\n\r")


def has_rules(c) -> bool:
    return bool(c.abilities or c.unsupported or any(a.abilities or a.unsupported for a in c.attacks))


NUMBERS = {"1": "1", "2": "2", "3": "3", "one": "1", "two": "2", "three": "3"}


def restates_a_trait(text: str, c) -> bool:
    """Printed text that only spells out a printed "TYPE +N" trait (TYPE attacks against it roll N
    more dice) is stated by that trait."""
    m = re.fullmatch(r"\s*(\w+) attacks against (?:the )?[\w' ]+ roll (\w+) additional dice\.?\s*", text, re.I)
    if not m or m.group(2).lower() not in NUMBERS:
        return False
    want = (m.group(1).capitalize(), int(NUMBERS[m.group(2).lower()]))
    return any((t.key, t.value) == want for t in c.traits)


def test_supplement_covers_the_cards_it_names(supplement_texts):
    # 59 records; the Academy-only one (Reclamation) has no Arena card to state
    assert len(supplement_texts) >= 55


def test_no_printed_text_is_silently_dropped(data, corpus, supplement_texts):
    """A card whose printed text (in either source) has rules must carry abilities or an explicit
    unsupported marker, and the marker may not claim that the text is missing."""
    dropped, wrongly_missing = [], []
    for name, recs in data.items():
        text = printed_text(recs, supplement_texts.get(name, []))
        c = corpus.cards[name]
        if len(text) >= 12 and not has_rules(c) and not restates_a_trait(text, c):
            dropped.append(name)
        if len(text) >= 12 and any(u.reason == "rules-text-missing" for u in c.unsupported):
            wrongly_missing.append(name)
    assert not dropped, f"{len(dropped)} card(s) with printed rules but no abilities: {sorted(dropped)[:30]}"
    assert not wrongly_missing, (f"{len(wrongly_missing)} card(s) marked rules-text-missing although a source "
                                 f"has their text: {sorted(wrongly_missing)[:30]}")


# Facts that texts-supplement.json gives in its notes where cards.json is wrong or silent
# (the EXCEPTIONS above defer to these): name -> (armor, life, {bar: (dice, traits it must carry)}); armor
# "-" is the No Armor symbol, None not checked.
NOTE_FACTS = {
    "Spark Elemental": ("-", 3, {"Shock": (4, {"Trample"})}),  # notes: Armor -, Life 3, Shock (Trample, 4 dice)
    "Sohei Disciple": (None, None, {"Jab": (3, set())}),  # notes: the source has 'Jab' (3 dice)
}


def test_every_supplement_record_is_encoded(shared_dir, corpus):
    """Each texts-supplement.json record (Arena) is stated: its card carries encoded rules (abilities
    or an explicit unsupported clause with a reason), never the rules-text-missing marker; a mage
    whose ability block comes from there also has its attack bar; facts in the notes hold."""
    problems = []
    recs = json.loads((shared_dir / "cards" / "texts-supplement.json").read_text())
    arena = [r for r in recs if not r["set"].startswith("Mage Wars Academy")]
    assert len(arena) == 58, len(arena)
    for r in arena:
        c = corpus.cards.get(r["name"])
        if c is None:
            problems.append(f"{r['name']} ({r['set']}): no definition")
            continue
        if not has_rules(c):
            problems.append(f"{r['name']} ({r['set']}): the supplement has its rules text but the card states no rule")
        if any(u.reason == "rules-text-missing" for u in c.unsupported):
            problems.append(f"{r['name']} ({r['set']}): marked rules-text-missing although the supplement has its text")
        if c.kind == "magestats" and not any(a.kind == "melee" for a in c.attacks):
            problems.append(f"{r['name']} ({r['set']}): a mage without its melee attack bar")
    for name, (armor, life, bars) in NOTE_FACTS.items():
        c = corpus.cards[name]
        if armor is not None and c.armor != (None if armor == "-" else armor):  # "-": No Armor, `armor none`
            problems.append(f"{name}: armor {c.armor}, the supplement's notes give {armor}")
        if life is not None and c.life != life:
            problems.append(f"{name}: life {c.life}, the supplement's notes give {life}")
        for bar, (dice, traits) in bars.items():
            o = next((a for a in c.attacks if a.name == bar), None)
            if o is None or o.dice != dice or not traits <= {t.key for t in o.traits}:
                problems.append(f"{name}: bar {bar} should roll {dice} dice with {sorted(traits)}")
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems)


def test_rules_text_missing_only_where_no_source_has_text(data, corpus, supplement_texts):
    """The marker stays honest the other way too: it is used only where both sources are silent."""
    for name, c in corpus.cards.items():
        if any(u.reason == "rules-text-missing" for u in c.unsupported):
            assert len(printed_text(data[name], supplement_texts.get(name, []))) < 12, name


def test_every_bar_the_data_shows_is_on_the_card(data, corpus):
    """Bars known only from the data's display (mage basic attacks, equipment bars...) are checked too."""
    missing = []
    for name, recs in sorted(data.items()):
        ours = {a.name.lower() for a in corpus.cards[name].attacks}
        per_printing = [{b["name"].lower() for b in data_bars(r)} - ours for r in recs]
        lacking = set.intersection(*per_printing)
        if lacking and "attacks" not in EXCEPTIONS.get(name, {}):
            missing.append(f"{name}: {sorted(lacking)}")
    assert not missing, f"{len(missing)} card(s) lack a bar the data shows:\n" + "\n".join(missing[:40])


def test_display_parser_reads_real_bars():
    bars = display_bars("Thrust:\r\n[Quick] [Melee] [Dice=4] [Ethereal] [Piercing +2]\r\n     Spinning Slash:\r\n"
                        "[Full] [Melee] [Dice=4] [Ethereal] [Sweeping]\r\nSpinning Slash:\r\n"
                        "[Full] [Melee] [Dice=4] [Ethereal] [Doublestrike]", "Galvitar, Force Blade")
    assert [b["name"] for b in bars] == ["Thrust", "Spinning Slash"]
    assert bars[1]["traits"] == ["Ethereal", "Sweeping", "Doublestrike"] and bars[1]["action"] == "Full"
    storm = display_bars("Lightning Strike:\r\n[Full] [Ranged:0-2] [Lightning] [Dice=4] [d12] "
                         "[8-10 = Daze; 11+ = Stun] [+1 vs. Flying] [Ethereal]", "x")[0]
    assert storm["range"] == [0, 2] and storm["damage_type"] == "Lightning"
    assert storm["effects"] == [{"min": 8, "max": 10, "conditions": ["Daze"]},
                                {"min": 11, "max": None, "conditions": ["Stun"]}]


def test_no_rule_lives_in_a_detail_string():
    """Restrictions, permissions and discounts are stated with checked keywords, never free text."""
    found = []
    for f in sorted(data_dir("spells").rglob("*.mw")):
        for i, line in enumerate(f.read_text().splitlines(), 1):
            code = re.sub(r'"(?:[^"\\]|\\.)*"', lambda m: m.group(0).replace("#", ""), line).split("#")[0]
            # a bare pronoun that repeats a structured target: argument is allowed (engine compatibility)
            if re.search(r'\bdetail:\s*"', code) and not (re.search(r'\bdetail:\s*"(bearer|enchanted|this)"', code)
                                                          and re.search(r'\btarget:\s*(bearer|enchanted|this)\b', code)):
                found.append(f"{f.name}:{i}: {line.strip()}")
    assert not found, f"{len(found)} rule(s) in detail strings:\n" + "\n".join(found[:20])
