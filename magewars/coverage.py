"""How much of the card pool the language states and the engine runs, per set and per type.

A card is *parsed* and *checked* when it is in the compiled corpus (the shipped corpus only loads
when it has no errors, so both hold for every card listed).  It is *fully expressed* when no clause
of it or of its attack bars is marked unsupported (a card whose rules text was never encoded carries
the `rules-text-missing` reason) and no clause leans on a `detail:` free-text argument.

It *executes* when every clause of the card — abilities, statics, triggers, timings, actions,
reveal rules, its attack bars' clauses and effect-die outcomes — and every clause of the codex
entries it carries (its traits, its attack bars' traits, the conditions its effect rows place) is
run by the engine: every call, event, timing, value and construct in it is in the engine's registry
(magewars/engine/registry.py).  Each construct that does not run is listed with its location and
why: `unsupported` (marked in the card file, with its reason), `refused loudly` (the engine says so
at run time) or `dropped silently` (the engine never looks at it and says nothing).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace
from typing import Optional

from .dsl import ast as A
from .dsl import vocab
from .dsl.model import CardDefinition, CodexDefinition, Corpus
from .dsl.walk import Clause, carried, clauses, effects_of, nodes
from .engine import registry as R
from .dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

TYPE_LABEL = {"attack": "attack spell"}
UNSUPPORTED = "unsupported"
FIELDS = ("cards", "parsed", "checked", "full", "executes")


@light_dataclass(frozen=True)
class Finding:
    """A construct that does not run, where it is written and why."""
    owner: str  # card or codex entry whose text holds it
    where: str  # path:line:col
    construct: str  # what it is, e.g. "when condition_removed", "static set_x", "value in_los"
    status: str  # unsupported | refused loudly | dropped silently
    reason: str
    codex: bool = False  # the owner is a codex entry (a card and an entry may share a name)

    def key(self) -> str:
        """A stable one-line key (no line numbers) for allow-lists."""
        return f"{'codex ' if self.codex else ''}{self.owner} | {self.construct}"

    def to_json(self, via: Optional[str] = None) -> dict:
        out = {"owner": self.owner, "codex": self.codex, "where": self.where, "construct": self.construct,
               "status": self.status, "reason": self.reason}
        if via:
            out["via"] = via
        return out


def _where(span: A.Span) -> str:
    return f"{span.path}:{span.line}:{span.col}"


def _span(node, fallback: A.Span) -> A.Span:
    sp = getattr(node, "span", None)
    return sp if isinstance(sp, A.Span) and sp.line > 0 else fallback


def _all_unsupported(effects) -> bool:
    return bool(effects) and all(isinstance(e, A.Unsupported) for e in effects)


def _subject_word(eff) -> Optional[str]:
    subj = getattr(eff, "subject", None)
    if isinstance(subj, A.Phrase) and subj.words:
        return subj.words[0].text.lower()
    return None


def _event_or_timing(ab) -> Optional[tuple]:
    """Status of a triggered (`when EVENT`) or timed (`at TIMING`) ability, card or codex alike."""
    if isinstance(ab, A.TriggeredAbility):
        st = R.trigger_status(ab.event)
        return st, _label(ab), "" if st == R.RUNS else "the engine never fires this event"
    if isinstance(ab, A.TimedAbility):
        st = R.timing_status(ab.timing.name)
        return st, _label(ab), "" if st == R.RUNS else "no phase of the round runs this timing"
    return None


def _shell(defn, clause: Clause, codex: Optional[dict] = None) -> tuple[str, str, str]:
    """Does the engine run this ability at all?  (status, construct, why)"""
    ab = clause.ability
    if clause.holder == "bar":
        adef = next((a for a in getattr(defn, "attacks", ()) if a.name == clause.bar), None)
        if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and not clause.once \
                and R.passage_bar_static_runs(ab.effect, adef):
            return R.RUNS, "", ""
        if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and (ab.effect.name in R.BAR_STATIC_CALLS or ab.effect.name in R.BAR_STATICS_READ_BY_EFFECTS
                                                                             or ab.effect.name in R.BAR_STATICS_READ_BY_ACTIONS
                                                                             or R.bar_restriction_runs(ab.effect)) \
                and not clause.once:
            return R.RUNS, "", ""
        if isinstance(ab, A.StaticAbility) and not clause.once and R.bar_static_runs(ab):
            return R.RUNS, "", ""
        if isinstance(ab, A.TriggeredAbility) and ab.event.name in R.BAR_EVENTS \
                and R.trigger_status(ab.event) == R.RUNS:
            return R.RUNS, "", ""
        if isinstance(ab, A.OneShotAbility) and R.BAR_EFFECTS_RUN:
            return R.RUNS, "", ""
        return (R.SILENT, f"attack bar '{clause.bar}': {_label(ab)}",
                "the attack sequence never reads this clause of an attack bar")
    if clause.holder == "codex":
        if not clause.once and _codex_static_runs(defn, ab):
            return R.RUNS, "", ""
        if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == "must":
            return R.must_status(ab.effect), _label(ab), "a mandatory action naming no target the engine can " \
                                                         "read is reported when the creature activates"
        if isinstance(ab, A.OneShotAbility) and R.CODEX_OUTCOME_EFFECTS and defn.marker == R.CODEX_OUTCOME_MARKER:
            return R.RUNS, "", ""
        if isinstance(ab, A.OneShotAbility) and R.ATTACK_TRAIT_EFFECTS_RUN and "Attack" in defn.categories \
                and not clause.once:
            return R.RUNS, "", ""
        got = _event_or_timing(ab)
        if got is not None:
            return got
        if isinstance(ab, A.ActivatedAbility) and defn.kind == "trait" and R.CODEX_TRAIT_ACTIONS_RUN:
            return R.RUNS, "", ""
        return (R.SILENT, _label(ab), "the engine does not run this clause of a codex entry yet")
    if isinstance(ab, A.StaticAbility):
        if clause.once and isinstance(ab.effect, A.Call) and ab.effect.name in R.ONCE_STATIC_CALLS:
            status, why = R.static_call_status(ab.effect)
            return status, f"once per round {_label(ab)}", why
        if clause.once:
            return (R.SILENT, f"once per round {_label(ab)}",
                    "a once-per-round static is skipped by the continuous-effects layer")
        eff = ab.effect
        if isinstance(eff, A.Call):
            status, why = R.static_call_status(eff, codex, defn if isinstance(defn, CardDefinition) else None)
            return status, _label(ab), why
        if isinstance(eff, R.STATIC_NODES) or isinstance(eff, A.Unsupported):
            return R.RUNS, "", ""
        if isinstance(eff, A.ForEach):
            status, why = R.static_foreach_status(eff)
            return status, _label(ab), why
        if isinstance(eff, A.OptionalEffect) and len(eff.body) == 1 and isinstance(eff.body[0], A.Call) \
                and R.DEFENSE_OPTIONAL_STATICS(eff.body[0]):
            return R.RUNS, "", ""  # `static may modify_defense_roll(N)`: read in Avoid Attack (defenses.py)
        return (R.SILENT, _label(ab),
                "the continuous-effects layer skips a static that is not a call, gain, lose or stat change")
    if isinstance(defn, CardDefinition) and defn.kind in R.SPENT_KINDS and (
            isinstance(ab, A.TimedAbility) or (isinstance(ab, A.TriggeredAbility)
                                               and ab.event.name not in R.SPENT_EVENTS
                                               and not R.lingers(defn))):
        return (R.SILENT, f"{'once per round ' if clause.once else ''}{_label(ab)}",
                f"a {defn.kind} is discarded when it resolves, so an ability printed on it never hears "
                f"this later event")
    got = _event_or_timing(ab)
    if got is not None:
        return got
    if isinstance(ab, A.ActivatedAbility):
        if R.ACTIONS_RUN:
            return R.RUNS, "", ""
        return R.SILENT, "action", "the engine never offers or runs action abilities"
    if isinstance(ab, A.OneShotAbility):
        if isinstance(defn, CardDefinition) and defn.kind in R.ONE_SHOT_KINDS:
            return R.RUNS, "", ""
        return R.SILENT, "effect:", f"the engine never runs the effect: of a {getattr(defn, 'kind', '?')} card"
    if isinstance(ab, A.RevealRule):
        if ab.mode != "must":
            return R.RUNS, "", ""  # a may-reveal is offered at every window
        for ev in ab.on:
            if R.reveal_event_status(ev.name) != R.RUNS:
                return R.SILENT, f"reveal must on {ev.name}", "no attack records this event for reveal rules"
        st = R.reveal_step_status(ab.step_rel, ab.step)
        return (st, f"reveal must {ab.step_rel or 'during'} {ab.step}",
                "" if st == R.RUNS else "no mandatory reveal is checked at this point")
    raise TypeError(f"coverage: unknown ability {type(ab).__name__}")


def _codex_static_runs(defn, ab) -> bool:
    """Does the engine apply this static of a codex entry (registry: CODEX_*)?"""
    if not isinstance(ab, A.StaticAbility):
        return False
    eff = ab.effect
    marker = defn.marker in R.CODEX_MARKERS
    if isinstance(eff, A.Gain) and not marker and R.codex_attached_gain(eff.subject):
        return True  # what is attached to the carrier gains them (Effects.collect)
    if isinstance(eff, R.STATIC_NODES):
        if _subject_word(eff) not in R.CODEX_STATIC_SUBJECTS:
            return False
        if isinstance(eff, A.StatChange) and not marker:  # a trait's stat change (Effects._trait_stats)
            return all(m.stat in R.STATS_CHANGED for m in eff.mods)
        return marker or isinstance(eff, (A.Gain, A.Lose))
    if isinstance(eff, A.ForEach):
        return all(isinstance(b, (A.Gain, A.Lose)) and _subject_word(b) in R.CODEX_STATIC_SUBJECTS for b in eff.body)
    if not isinstance(eff, A.Call):
        return False
    if R.restriction_runs(eff, codex=True):
        return True  # read by the general query when the engine acts (engine/restrictions.py)
    if eff.name == R.COSTS:  # only an entry's change to its own enchantment's reveal cost is read
        return R.codex_costs_runs(eff)
    if eff.name in R.SPELLBOOK_STATIC_CALLS or eff.name in R.CAST_STATIC_CALLS:
        return True  # read by the spellbook validator or the casting sequence
    if eff.name in R.CODEX_ATTACK_SHAPE:
        return "Attack" in defn.categories
    first = eff.args[0].value if eff.args else None
    second = eff.args[1].value if len(eff.args) > 1 else None
    this = isinstance(first, A.Phrase) and [w.text.lower() for w in first.words] == ["this"]
    if eff.name in R.CODEX_CONDITION_CALLS and eff.name != "immune":
        return marker
    if eff.name in R.CODEX_MARKER_X_CALLS:
        return marker and isinstance(defn.removal, A.XValue)
    if eff.name in R.CODEX_MARKER_SUBTYPE_CALLS:
        return marker and this
    if eff.name in R.CODEX_TRAIT_CALLS:
        return eff.name != "no_armor" or this
    if eff.name == "immune":
        if this:
            return isinstance(second, (A.TraitGroup, A.Phrase)) or (
                isinstance(second, A.StringLit) and second.value in R.CODEX_IMMUNE_STRINGS_READ)
        if R.CODEX_OUTCOME_EFFECTS and defn.marker == R.CODEX_OUTCOME_MARKER and isinstance(second, A.StringLit) \
                and second.value == defn.name and any(isinstance(b, A.OneShotAbility) for b in defn.abilities):
            return True  # who an effect-die outcome does not touch (movement.run_outcome)
        return marker and isinstance(second, A.TraitGroup) and any(r.name.text == defn.name for r in second.traits)
    kw = {a.key: a.value for a in eff.args if a.key}
    if eff.name in ("cannot", "can") and "target" in kw and isinstance(second, A.StringLit):
        if eff.name == "cannot":  # attack legality (codex_rules) or movement (movement.restriction)
            return second.value in R.CODEX_ATTACK_CANNOT or (this and second.value in R.CODEX_CANNOT_READ)
        if second.value in R.CODEX_ATTACK_CAN and "Attack" in defn.categories:
            return True
        ign = kw.get("ignoring")
        return second.value == "ranged_attack" and isinstance(ign, A.StringLit) and ign.value in R.CODEX_RANGED_IGNORING
    if eff.name == "ignore" and "Attack" in defn.categories and isinstance(second, A.StringLit) \
            and second.value in R.CODEX_ATTACK_IGNORE_READ and isinstance(first, A.Phrase) \
            and [w.text.lower() for w in first.words] in (["attacker"], ["this"]):
        return True  # the attack (or its attacker) ignores that rule (codex_rules.ignores_los_walls)
    if eff.name == "ignore" and this and isinstance(second, A.TraitGroup):
        # the entry's own stat changes ignore those traits' restrictions (Effects._life_blocker)
        return any(isinstance(b, A.StaticAbility) and isinstance(b.effect, A.StatChange) for b in defn.abilities)
    if eff.name in ("cannot", "can") and this and isinstance(second, A.StringLit):
        return second.value in (R.CODEX_CANNOT_READ if eff.name == "cannot" else R.CODEX_CAN_READ)
    if eff.name == "cannot" and isinstance(second, A.StringLit):
        return second.value in R.MOVEMENT_CANNOT_ANY_SUBJECT
    if eff.name == "ignore" and this and isinstance(second, A.StringLit):
        return second.value in R.CODEX_IGNORE_READ
    if eff.name in R.MOVEMENT_STATIC_CALLS:
        return this
    return False


def _label(ab) -> str:
    if isinstance(ab, A.StaticAbility):
        e = ab.effect
        return "static " + (e.name if isinstance(e, A.Call) else type(e).__name__.lower())
    if isinstance(ab, A.TriggeredAbility):
        return f"when {ab.event.name}"
    if isinstance(ab, A.TimedAbility):
        return f"at {ab.timing.name}"
    if isinstance(ab, A.ActivatedAbility):
        return "action"
    if isinstance(ab, A.OneShotAbility):
        return "effect:"
    if isinstance(ab, A.RevealRule):
        return "reveal"
    return type(ab).__name__


def clause_findings(defn, clause: Clause, codex: Optional[dict] = None) -> list[Finding]:
    """Every construct of one clause that does not run (unsupported markers are reported separately)."""
    out: list[Finding] = []
    here = clause.span if clause.span.line > 0 else defn.span
    status, construct, why = _shell(defn, clause, codex)
    if status != R.RUNS:
        body = effects_of(clause.ability)
        if isinstance(clause.ability, A.StaticAbility):
            body = (clause.ability.effect,)
        if not _all_unsupported(body):
            out.append(Finding(defn.name, _where(here), construct, status, why))
    for n in nodes(clause):
        node = n.node
        where = _where(_span(node, here))
        if n.role == "detail":
            # free text is a fact of the card's wording, whether or not the clause runs
            out.append(Finding(defn.name, where, f"detail: in {_owner_call(clause)}", R.SILENT,
                               "a detail: argument is free text the engine does not read"))
        elif status != R.RUNS:
            continue
        elif n.role == "value" and node.name not in R.VALUES:
            out.append(Finding(defn.name, where, f"value {node.name}",
                               R.SILENT if n.static else R.LOUD,
                               "a static's value the engine cannot compute is taken as true or skipped"
                               if n.static else "the engine does not compute this value (reported at run time)"))
        elif n.role in ("effect", "cost") and isinstance(node, A.Call) and not R.effect_call_runs(node):
            out.append(Finding(defn.name, where, node.name, R.LOUD,
                               "the engine does not implement this effect (reported at run time)"))
        elif n.role in ("effect", "cost") and isinstance(node, A.Call) and R.effect_refused(node):
            out.append(Finding(defn.name, where, node.name, R.LOUD,
                               f"{R.effect_refused(node)} (reported at run time)"))
        elif n.role in ("effect", "static") and isinstance(node, (A.Gain, A.StatChange)):
            dur = node.duration.until if node.duration else None
            if n.role == "effect" and dur is not None and dur not in R.DURATIONS_END:
                out.append(Finding(defn.name, where, f"until end of {dur}", R.SILENT,
                                   f"an effect lasting until the end of the {dur} is applied and never ends"))
            if isinstance(node, A.StatChange):
                for m in node.mods:
                    if m.stat not in R.STATS_CHANGED:
                        out.append(Finding(defn.name, where, f"gets {m.stat}", R.SILENT,
                                           f"a change to {m.stat} is skipped by the continuous-effects layer"))
    return out


def _owner_call(clause: Clause) -> str:
    ab = clause.ability
    if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call):
        return f"static {ab.effect.name}"
    return _label(ab)


def definition_findings(defn, codex: dict) -> list[Finding]:
    """Every construct of a definition (not of what it carries) that does not run, unsupported ones first."""
    out = [Finding(defn.name, _where(u.span), f"unsupported {u.reason}", UNSUPPORTED, u.clause or u.reason)
           for u in defn.unsupported]
    if isinstance(defn, CardDefinition):
        for bar in defn.attacks:
            out.extend(Finding(defn.name, _where(u.span), f"unsupported {u.reason}", UNSUPPORTED, u.clause or u.reason)
                       for u in bar.unsupported)
    for cl in clauses(defn):
        out.extend(clause_findings(defn, cl, codex))
    if isinstance(defn, CodexDefinition):
        out = [replace(f, codex=True) for f in out]
    if isinstance(defn, CardDefinition):
        for bar in defn.attacks:
            for row in bar.effect_die:
                for (name, _n) in row.outcomes:
                    # an outcome is placed as a marker; for an entry that is no marker that does nothing
                    entry = codex.get(name)
                    if entry is not None and entry.marker not in R.CODEX_MARKERS and not (
                            R.CODEX_OUTCOME_EFFECTS and entry.marker == R.CODEX_OUTCOME_MARKER
                            and any(isinstance(ab, A.OneShotAbility) for ab in entry.abilities)):
                        out.append(Finding(defn.name, _where(bar.span), f"effect die {name}", R.SILENT,
                                           f"the effect die places a {name} marker, which does nothing: "
                                           f"{name} is not a condition or token"))
    return _dedupe(out)


def _dedupe(fs: list[Finding]) -> list[Finding]:
    seen, out = set(), []
    for f in fs:
        k = (f.where, f.construct, f.status)
        if k not in seen:
            seen.add(k)
            out.append(f)
    return out


def analyse(corpus: Corpus) -> dict:
    """Per card: fully expressed, executes, and each construct that does not run (own and carried)."""
    codex_f = {name: definition_findings(d, corpus.codex) for name, d in corpus.codex.items()}
    cards = {}
    for c in corpus.cards.values():
        own = definition_findings(c, corpus.codex)
        via = []
        for cr in carried(c, corpus):
            label = f"{cr.via} {cr.name}" + (f" of attack '{cr.bar}'" if cr.bar else "")
            via.extend((label, f) for f in codex_f[cr.name])
        detail = any(f.construct.startswith("detail:") for f in own)
        cards[c.name] = {"card": c, "own": own, "carried": via,
                         "fully_expressed": c.fully_expressed and not detail,
                         "executes": not own and not via}
    return {"cards": cards, "codex": codex_f}


def silent_drops(corpus: Corpus) -> list[Finding]:
    """Every construct of the corpus the engine would drop without a word (not marked unsupported,
    not refused loudly at run time), each once (codex clauses under the codex entry's own name)."""
    a = analyse(corpus)
    out = [f for fs in a["codex"].values() for f in fs if f.status == R.SILENT]
    out += [f for rec in a["cards"].values() for f in rec["own"] if f.status == R.SILENT]
    return out


def _blocker(f: Finding) -> str:
    return f.construct if f.status == UNSUPPORTED else f"{f.status}: {f.construct}"


def compute_coverage(corpus: Corpus) -> dict:
    a = analyse(corpus)
    by_set: dict[str, Counter] = defaultdict(Counter)
    by_type: dict[str, Counter] = defaultdict(Counter)
    reasons: Counter = Counter()
    reason_cards: dict[str, list[str]] = defaultdict(list)
    blockers: Counter = Counter()
    total = Counter()
    per_card = []
    for name, rec in a["cards"].items():
        c: CardDefinition = rec["card"]
        full, ex = rec["fully_expressed"], rec["executes"]
        sets = sorted({s for s, _ in c.printings}) or ["(no printing)"]
        t = TYPE_LABEL.get(c.kind, c.kind)
        for counter in [by_set[s] for s in sets] + [by_type[t], total]:
            counter["cards"] += 1
            counter["parsed"] += 1
            counter["checked"] += 1
            counter["full"] += int(full)
            counter["executes"] += int(ex)
        for r in sorted({u.reason for u in c.unsupported} | {u.reason for b in c.attacks for u in b.unsupported}):
            reasons[r] += 1
            reason_cards[r].append(c.name)
        for k in sorted({_blocker(f) for f in rec["own"]}
                        | {f"{_blocker(f)} (codex {f.owner})" for _, f in rec["carried"]}):
            blockers[k] += 1
        per_card.append({
            "name": c.name, "type": t, "sets": sets, "fully_expressed": full, "executes": ex,
            "not_executing": [f.to_json() for f in rec["own"]] + [f.to_json(via) for via, f in rec["carried"]],
        })

    def pct(n, d):
        return round(100.0 * n / d, 1) if d else 0.0

    def rows(d):
        return [{"name": k, **{f: v[f] for f in FIELDS}, "percent_full": pct(v["full"], v["cards"]),
                 "percent_executes": pct(v["executes"], v["cards"])} for k, v in sorted(d.items())]

    codex_exec = sum(1 for fs in a["codex"].values() if not fs)
    silent = [f for fs in a["codex"].values() for f in fs if f.status == R.SILENT] + \
             [f for rec in a["cards"].values() for f in rec["own"] if f.status == R.SILENT]
    own_exec = sum(1 for rec in a["cards"].values() if not rec["own"])
    return {
        "total": {**{f: total[f] for f in FIELDS}, "percent_full": pct(total["full"], total["cards"]),
                  "percent_executes": pct(total["executes"], total["cards"]),
                  "own_clauses_execute": own_exec},
        "by_set": rows(by_set),
        "by_type": rows(by_type),
        "unsupported_reasons": [{"reason": r, "cards": n, "examples": sorted(reason_cards[r])[:5]}
                                for r, n in reasons.most_common()],
        "not_executing_by_construct": [{"construct": k, "cards": n} for k, n in blockers.most_common()],
        "engine": {**{k: {"runs": v[0], "of": v[1]} for k, v in R.summary().items()},
                   "effects": effects_run(corpus)},
        "codex": {"entries": len(corpus.codex),
                  "with_unsupported": sum(1 for d in corpus.codex.values() if d.unsupported),
                  "executes": codex_exec},
        "silent_drops": len(silent),
        "cards": per_card,
        "codex_entries": [{"name": n, "kind": corpus.codex[n].kind, "executes": not fs,
                           "not_executing": [f.to_json() for f in fs]} for n, fs in sorted(a["codex"].items())],
    }


def effects_run(corpus: Corpus) -> dict:
    """How many of the vocabulary's effects the engine runs: those it executes when an ability resolves
    (registry.EFFECTS), and those that are statics (the continuous-effects layer, the casting sequence,
    the attack sequence... read them) every shipped use of which runs, judged clause by clause as the
    rest of this report judges them.  The others are listed: a static with a shipped use that does
    not run, an effect the engine refuses, or one no shipped card or codex entry uses."""
    static_uses: dict[str, set] = defaultdict(set)  # effect name -> statuses of its `static NAME(...)` clauses
    used = set()
    for defn in [*corpus.cards.values(), *corpus.codex.values()]:
        for cl in clauses(defn):
            ab = cl.ability
            if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call):
                static_uses[ab.effect.name].add(_shell(defn, cl, corpus.codex)[0])
            for n in nodes(cl):
                if isinstance(n.node, A.Call):
                    used.add(n.node.name)
    names = set(vocab.EFFECT_FUNCS)
    resolving = names & R.EFFECTS
    static = {n for n in names - resolving if static_uses.get(n) == {R.RUNS}}
    rest = sorted(names - resolving - static)
    return {"runs": len(resolving) + len(static), "of": len(names), "when_resolving": len(resolving),
            "as_statics": len(static),
            "not_run": {n: ("a static use does not run" if n in static_uses else
                            "refused loudly" if n in used else "used by no shipped card") for n in rest}}


def render_coverage(report: dict, by: str = "both") -> str:
    lines = []

    def table(title, rows):
        from .console import make_table, table_text
        numbers = ("cards", "parsed", "checked", "full", "% full", "executes", "% exec")
        t = make_table(title, *numbers, right=numbers)
        for r in rows:
            t.add_row(r["name"], str(r["cards"]), str(r["parsed"]), str(r["checked"]), str(r["full"]),
                      f"{r['percent_full']:.1f}", str(r["executes"]), f"{r['percent_executes']:.1f}")
        lines.append(table_text(t))
        lines.append("")

    if by in ("set", "both"):
        table("set", report["by_set"])
    if by in ("type", "both"):
        table("type", report["by_type"])
    t = report["total"]
    lines.append(f"total: {t['cards']} cards, {t['parsed']} parsed, {t['checked']} checked, "
                 f"{t['full']} fully expressed ({t['percent_full']:.1f}%), "
                 f"{t['executes']} execute every clause ({t['percent_executes']:.1f}%; "
                 f"{t['own_clauses_execute']} counting only the card's own clauses)")
    e = report["engine"]
    lines.append("engine runs: " + ", ".join(f"{v['runs']} of {v['of']} {k}" for k, v in e.items())
                 + f"; {report['silent_drops']} constructs dropped silently")
    eff = e["effects"]
    why: dict[str, list] = defaultdict(list)
    for n, w in eff["not_run"].items():
        why[w].append(n)
    lines.append(f"  effects: {eff['when_resolving']} run when an ability resolves, {eff['as_statics']} are statics "
                 f"every shipped use of which runs; not run: "
                 + ("; ".join(f"{w}: {', '.join(ns)}" for w, ns in why.items()) or "none"))
    if report["unsupported_reasons"]:
        lines.append("")
        from .console import make_table, table_text
        t = make_table("cards", "reason", "e.g.", right=("cards",),
                       title="unsupported clauses, by reason (cards affected):")
        for r in report["unsupported_reasons"]:
            t.add_row(str(r["cards"]), r["reason"], ", ".join(r["examples"][:3]))
        lines.append(table_text(t, width=160))
    if report["not_executing_by_construct"]:
        lines.append("")
        from .console import make_table, table_text
        t = make_table("cards", "construct", right=("cards",),
                       title="what keeps cards from executing (cards affected, top 25; --json lists each card):")
        for r in report["not_executing_by_construct"][:25]:
            t.add_row(str(r["cards"]), r["construct"])
        lines.append(table_text(t, width=160))
    c = report["codex"]
    lines.append("")
    lines.append(f"codex: {c['entries']} entries, {c['with_unsupported']} with unsupported clauses, "
                 f"{c['executes']} whose every clause the engine runs")
    return "\n".join(lines)


def render_silent(corpus: Corpus) -> str:
    """The silent drops as allow-list lines (`owner | construct`), sorted, each once."""
    return "\n".join(sorted({f.key() for f in silent_drops(corpus)}))
