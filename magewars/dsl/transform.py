"""Parse tree -> typed AST (:mod:`magewars.dsl.ast`), keeping source spans.

The rules (:class:`AstRules`, one method per tree name, called with the node's position and its
children already converted) do not import Lark: they convert Lark's trees (through a Lark
`Transformer` made from them, :func:`to_ast`) and the trees of :mod:`magewars.dsl.fastparse`
alike.  A token is a `str` of a subclass (Lark's `Token`, or fastparse's); what a rule returns
as text is a plain `str`.
"""
from __future__ import annotations

import functools
from typing import Any

from . import ast as A


def _is_token(v: Any) -> bool:
    return isinstance(v, str) and type(v) is not str


def _unquote(tok) -> str:
    s = str(tok)[1:-1]
    if "\\" not in s:
        return s
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(n, n))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _clean(children):
    return [c for c in children if c is not None]


class AstRules:
    """The conversion of each kind of tree node, `rule(meta, children)`."""

    def __init__(self, path: str):
        self.path = path

    # -- helpers
    def _span(self, meta) -> A.Span:
        if getattr(meta, "empty", True) and not hasattr(meta, "line"):
            return A.NOSPAN
        return A.Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, tok) -> A.Span:
        return A.Span(self.path, tok.line, tok.column, tok.end_line or tok.line,
                      tok.end_column or tok.column + len(str(tok)))

    # -- files and definitions
    def start(self, meta, ch):
        return A.SourceFile(self.path, tuple(ch))

    def card_def(self, meta, ch):
        kind, name, *items = ch
        return A.CardDef(kind, _unquote(name), tuple(items), self._span(meta), self._tspan(name))

    def card_kind(self, meta, ch):
        return str(ch[0])  # "attack" "spell" -> "attack"

    def codex_def(self, meta, ch):
        kind, name, *items = ch
        return A.CodexDef(kind, _unquote(name), tuple(items), self._span(meta), self._tspan(name))

    def codex_kind(self, meta, ch):
        return str(ch[0])

    # -- small keyword rules: their text
    def _kw(self, meta, ch):
        return str(ch[0])

    school_join = slot_join = action_kw = stat_kw = trait_sep = must_may = step_rel = _kw
    param_kind = stack_mode = marker_kind = comparator = addop = sign = _kw
    none_kw = unlimited_kw = target_join = _kw

    def attack_kind(self, meta, ch):
        return A.AttackKind(str(ch[0]), self._span(meta))

    def special_kind(self, meta, ch):
        return A.SpecialKind(str(ch[0]), self._span(meta))

    # -- names and values
    def name(self, meta, ch):
        return A.Name(tuple(str(t) for t in ch), self._span(meta))

    def call_name(self, meta, ch):
        v = ch[0]
        return v.text if isinstance(v, A.Word) else str(v)

    def choose_kw(self, meta, ch):
        return str(ch[0])

    def xval(self, meta, ch):
        coef = int(ch[0]) if ch and ch[0] is not None else 1
        return A.XValue(coef, self._span(meta))

    def signed_int(self, meta, ch):
        sign, num = ch
        n = int(num)
        return -n if sign == "-" else n

    def signed_amount(self, meta, ch):
        sign, val = ch
        if _is_token(val):
            val = int(val)
        return A.Signed(sign, val, self._span(meta))

    def binop(self, meta, ch):
        left, op, right = ch
        return A.BinOp(self._val(left), op, self._val(right), self._span(meta))

    def _val(self, v):
        if _is_token(v):
            if v.type == "INT":
                return int(v)
            if v.type == "STRING":
                return A.StringLit(_unquote(v), self._tspan(v))
        return v

    # -- phrases
    def phrase(self, meta, ch):
        return A.Phrase(tuple(ch), self._span(meta))

    def word_name(self, meta, ch):
        return A.Word(str(ch[0]), "name", self._tspan(ch[0]))

    def pword(self, meta, ch):
        return A.Word(str(ch[0]), "word", self._tspan(ch[0]))

    def word_number(self, meta, ch):
        return A.Word(str(ch[0]), "number", self._tspan(ch[0]))

    # -- traits
    def param_signed(self, meta, ch):
        sign = ch[0]
        val = int(ch[1]) if len(ch) > 1 and ch[1] is not None else A.XValue(1, self._span(meta))
        return A.Param(sign, val, self._span(meta))

    def param_plain(self, meta, ch):
        return A.Param(None, int(ch[0]), self._span(meta))

    def param_x(self, meta, ch):
        return A.Param(None, A.XValue(1, self._span(meta)), self._span(meta))

    def trait_named(self, meta, ch):
        name, param = ch
        return A.TraitRef(name, param, (), self._span(meta))

    def trait_versus(self, meta, ch):
        param, *names = ch
        return A.TraitRef(A.Name(("vs",), self._span(meta)), param, tuple(names), self._span(meta))

    def trait_list(self, meta, ch):
        return ch

    def trait_group(self, meta, ch):
        return A.TraitGroup(tuple(ch), self._span(meta))

    # -- card items
    def printed(self, meta, ch):
        set_name, cid = ch
        return A.Printed(_unquote(set_name), _unquote(cid) if cid is not None else None, self._span(meta))

    def subtypes(self, meta, ch):
        return A.Subtypes(tuple(ch), self._span(meta))

    def school(self, meta, ch):
        reqs = tuple(c for c in ch if isinstance(c, A.SchoolReq))
        joins = tuple(c for c in ch if isinstance(c, str))
        return A.School(reqs, joins, self._span(meta))

    def school_req(self, meta, ch):
        return A.SchoolReq(ch[0], int(ch[1]), self._span(meta))

    def _amount(self, v):
        if _is_token(v):
            return int(v)
        return v

    def cost(self, meta, ch):
        cast, reveal = ch
        return A.Cost(self._amount(cast), self._amount(reveal) if reveal is not None else None, self._span(meta))

    def casting(self, meta, ch):
        return A.Casting(ch[0], self._span(meta))

    def spell_range(self, meta, ch):
        return A.Range(int(ch[0]), int(ch[1]), self._span(meta))

    def targets(self, meta, ch):
        phrases = tuple(c for c in ch if isinstance(c, A.Phrase))
        joins = tuple(c for c in ch if isinstance(c, str))
        return A.Targets(phrases, joins, self._span(meta))

    def stat(self, meta, ch):
        kind, value = ch
        return A.Stat(kind, None if value == "none" else value, self._span(meta))

    def defense(self, meta, ch):
        roll, uses, limit = ch
        return A.Defense(int(roll), uses, limit, self._span(meta))

    def defense_uses(self, meta, ch):
        return None if ch[0] == "unlimited" else int(ch[0])

    def defense_limit(self, meta, ch):
        return ch[0].kind

    def slot(self, meta, ch):
        names = tuple(c for c in ch if isinstance(c, A.Name))
        joins = tuple(c for c in ch if isinstance(c, str))
        return A.Slot(names, joins, self._span(meta))

    def traits(self, meta, ch):
        items = ch[0]
        traits = tuple(c for c in items if isinstance(c, A.TraitRef))
        seps = tuple(c for c in items if isinstance(c, str))
        return A.Traits(traits, seps, self._span(meta))

    def training(self, meta, ch):
        return A.Training(tuple(ch), self._span(meta))

    def school_cost(self, meta, ch):
        pairs = tuple((ch[i], int(ch[i + 1])) for i in range(0, len(ch), 2))
        return A.SchoolCost(pairs, self._span(meta))

    # -- attack bars
    def attack_bar(self, meta, ch):
        name, *items = ch
        return A.AttackBar(_unquote(name), tuple(items), self._span(meta))

    def attack_action(self, meta, ch):
        return A.AttackAction(ch[0], self._span(meta))

    def damage_type(self, meta, ch):
        return A.DamageType(ch[0], self._span(meta))

    def dice(self, meta, ch):
        return A.Dice(self._amount(ch[0]), self._span(meta))

    def effect_die(self, meta, ch):
        return A.EffectDie(tuple(ch), self._span(meta))

    def die_row(self, meta, ch):
        (low, high), *outcomes = ch
        return A.DieRow(low, high, tuple(outcomes), self._span(meta))

    def die_span(self, meta, ch):
        return (int(ch[0]), int(ch[1]))

    def die_open(self, meta, ch):
        return (int(ch[0]), None)

    def outcome(self, meta, ch):
        count, name = ch
        return A.Outcome(int(count) if count is not None else None, name, self._span(meta))

    # -- codex items
    def param_decl(self, meta, ch):
        return A.ParamDecl(ch[0], self._span(meta))

    def category(self, meta, ch):
        return A.Category(tuple(ch), self._span(meta))

    def stacking(self, meta, ch):
        return A.Stacking(ch[0], self._span(meta))

    def removal(self, meta, ch):
        v = ch[0]
        return A.Removal(None if v == "none" else self._amount(v), self._span(meta))

    def marker(self, meta, ch):
        return A.Marker(ch[0], self._span(meta))

    # -- meta items
    def summary(self, meta, ch):
        return A.Summary(_unquote(ch[0]), self._span(meta))

    def errata(self, meta, ch):
        return A.Errata(_unquote(ch[0]), self._span(meta))

    def unsupported(self, meta, ch):
        reason, clause = ch
        return A.UnsupportedItem(_unquote(reason), _unquote(clause) if clause is not None else None,
                                 self._span(meta))

    # -- abilities
    def static_ability(self, meta, ch):
        guard, effect = ch
        return A.StaticAbility(guard, effect, self._span(meta))

    def triggered_ability(self, meta, ch):
        event, guard, effects = ch
        return A.TriggeredAbility(event, guard, effects, self._span(meta))

    def timed_ability(self, meta, ch):
        timing, effects = ch
        return A.TimedAbility(timing, effects, self._span(meta))

    def activated_ability(self, meta, ch):
        costs, effects = ch
        return A.ActivatedAbility(tuple(costs or ()), effects, self._span(meta))

    def reveal_rule(self, meta, ch):
        mode = ch[0]
        step = ch[-1]
        whens = tuple(c for c in ch[1:-1])
        rel, stepname = step if step is not None else (None, None)
        return A.RevealRule(mode, whens, rel, stepname, self._span(meta))

    def oneshot_ability(self, meta, ch):
        return A.OneShotAbility(ch[0], self._span(meta))

    def once_per_round(self, meta, ch):
        return A.OncePerRound(ch[0], self._span(meta))

    def guard(self, meta, ch):
        return ch[0]

    def _bare_call(self, meta, ch):
        name, args = ch
        if args is None:
            return A.Call(name, (), self._span(meta), bare=True)
        return A.Call(name, args, self._span(meta))

    event = timing = _bare_call

    def reveal_mode(self, meta, ch):
        return ch[0]

    def reveal_when(self, meta, ch):
        return ch[0]

    def reveal_step(self, meta, ch):
        return (ch[0], ch[1])

    def activation_cost(self, meta, ch):
        return tuple(ch)

    def cost_action(self, meta, ch):
        return A.CostAction(ch[0], self._span(meta))

    def cost_mana(self, meta, ch):
        return A.CostMana(self._amount(ch[0]), self._span(meta))

    # -- effects
    def effect_seq(self, meta, ch):
        return tuple(ch)

    def effect_block(self, meta, ch):
        v = ch[0]
        return v if isinstance(v, tuple) else (v,)

    def gain(self, meta, ch):
        subject, traits, duration = ch
        return A.Gain(subject, traits, duration, self._span(meta))

    def lose(self, meta, ch):
        subject, traits, cannot = ch
        return A.Lose(subject, traits, bool(cannot), self._span(meta))

    def cannot_gain(self, meta, ch):
        return True

    def stat_change(self, meta, ch):
        subject, *rest = ch
        duration = rest[-1]
        mods = tuple(r for r in rest[:-1])
        return A.StatChange(subject, mods, duration, self._span(meta))

    def stat_mod(self, meta, ch):
        return A.StatMod(ch[0], ch[1], self._span(meta))

    def duration(self, meta, ch):
        return A.Duration(ch[0], self._span(meta))

    def if_effect(self, meta, ch):
        cond, then, other = ch
        return A.IfEffect(cond, then, other, self._span(meta))

    def optional_effect(self, meta, ch):
        return A.OptionalEffect(ch[0], self._span(meta))

    def choice_effect(self, meta, ch):
        return A.ChoiceEffect(tuple(c for c in ch if isinstance(c, tuple)), self._span(meta))

    def for_each(self, meta, ch):
        return A.ForEach(ch[0], ch[1], self._span(meta))

    def unsupported_effect(self, meta, ch):
        reason, clause = ch
        return A.Unsupported(_unquote(reason), _unquote(clause) if clause is not None else None,
                             self._span(meta))

    # -- conditions
    def cond_or(self, meta, ch):
        return ch[0] if len(ch) == 1 else A.CondOr(tuple(ch), self._span(meta))

    def cond_and(self, meta, ch):
        return ch[0] if len(ch) == 1 else A.CondAnd(tuple(ch), self._span(meta))

    def cond_negate(self, meta, ch):
        return A.CondNot(ch[0], self._span(meta))

    def compare(self, meta, ch):
        left, op, right = ch
        return A.Compare(self._val(left), op, self._val(right), self._span(meta))

    # -- calls
    def call(self, meta, ch):
        return A.Call(ch[0], ch[1], self._span(meta))

    def arglist(self, meta, ch):
        out = []
        for c in _clean(ch):
            if isinstance(c, A.Arg):
                out.append(c)
            else:
                v = self._val(c)
                out.append(A.Arg(None, v, getattr(v, "span", A.NOSPAN) if not isinstance(v, int)
                                 else self._span(meta)))
        return tuple(out)

    def kwarg(self, meta, ch):
        return A.Arg(ch[0], self._val(ch[1]), self._span(meta))


@functools.lru_cache(maxsize=1)
def _lark_transformer() -> type:
    """`ToAst`: a Lark Transformer (children first, `meta` passed, tokens left alone) whose
    methods are the rules of :class:`AstRules` (its own, so that `v_args` wraps them)."""
    from lark import Transformer, v_args

    def __init__(self, path: str):
        Transformer.__init__(self, visit_tokens=False)
        self.path = path

    body = {k: v for k, v in vars(AstRules).items() if k not in ("__dict__", "__weakref__", "__init__", "__qualname__")}
    body["__init__"] = __init__
    return v_args(meta=True)(type("ToAst", (Transformer,), body))


def to_ast(tree, path: str) -> A.SourceFile:
    """A Lark parse tree as the typed AST."""
    return _lark_transformer()(path).transform(tree)
