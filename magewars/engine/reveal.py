"""Reveal windows and the reveal process (supplement: Revealing Enchantments,
Duplicate Enchantments, One-Time Use Enchantments).

* After every step of the attack sequence each player in turn (initiative
  order) may reveal hidden enchantments they control; a player may reveal
  several, one at a time, then passes.
* Mandatory reveals: a `reveal must on EVENT during|after STEP` rule reveals
  the enchantment when that event is in progress at that step.
* The process: flip, counter window, pay the reveal cost, resolve.
* A newly revealed enchantment whose name duplicates a revealed one on the
  same object or zone is discarded without effect.
* A one-time enchantment (one that destroys itself) revealed when none of its
  effects apply is wasted: destroyed without effect.
* Hidden information: events naming a hidden enchantment are visible only to
  its controller.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..dsl import ast as A
from ..dsl.vocab import STEP_TITLES, step_title
from .gamepart import GamePart
from .cardindex import index, per_definition
from .decisions import Option
from . import placement
from .phrases import Ctx
from .restrictions import reveal_forbidden, reveal_forbidden_none
from .state import LIGHT_READS

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameObject


def _trait_value(game, obj, t) -> int:
    """A trait instance's X: its number, or the card's own X for a `+X` trait."""
    if isinstance(t.value, int):
        return t.value
    if isinstance(t.value, A.XValue):
        return t.value.coef * game.x_value(obj)
    return 0


@per_definition
def own_reveal_cost(call: A.Call) -> bool:
    """`costs(this, N, only: "enchantment_reveal")`: a codex entry's change to the reveal cost of the
    enchantment carrying it (Reveals.trait_changes).  Read once per node: every reveal cost asks it of
    each cost static of each trait the enchantment carries."""
    pos = [a.value for a in call.args if not a.key]
    only = next((a.value for a in call.args if a.key == "only"), None)
    return len(pos) == 2 and isinstance(pos[0], A.Phrase) and [w.text.lower() for w in pos[0].words] == ["this"] \
        and isinstance(only, A.StringLit) and only.value == "enchantment_reveal" \
        and all(a.key in (None, "only") for a in call.args)


@per_definition
def _own_card_reveal_cost(call: A.Call) -> bool:
    """A card's `costs(this, N, only: "reveal" | "enchantment_reveal")`: a change to its own reveal cost
    (once per node)."""
    pos = [a.value for a in call.args if not a.key]
    only = next((a.value for a in call.args if a.key == "only"), None)
    return len(pos) == 2 and isinstance(pos[0], A.Phrase) and [w.text.lower() for w in pos[0].words] == ["this"] \
        and isinstance(only, A.StringLit) and only.value in ("reveal", "enchantment_reveal")


def reveal_rules(obj: "GameObject") -> list[A.RevealRule]:
    return index(obj.card).reveal_rules


def _destroys_itself(effects) -> bool:
    for e in effects:
        if isinstance(e, A.Call) and e.name == "destroy" and e.args and isinstance(e.args[0].value, A.Phrase) \
                and e.args[0].value.text == "this":
            return True
        if isinstance(e, A.IfEffect) and (_destroys_itself(e.then) or _destroys_itself(e.otherwise or ())):
            return True
        if isinstance(e, A.OptionalEffect) and _destroys_itself(e.body):
            return True
    return False


def is_one_time(obj: "GameObject") -> bool:
    for ab in obj.card.abilities:
        inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
        if isinstance(inner, (A.TriggeredAbility, A.OneShotAbility)) and _destroys_itself(inner.effects):
            return True
    return False


def acts_on_its_event(card) -> bool:
    """A one-time enchantment whose effect, done as it is revealed, answers the event its reveal rules
    name: every reveal rule is keyed to events (`reveal must|may on EVENT...`) and an ability run at the
    reveal (`when revealed`) destroys the card.  Its "that spell", "that creature", "that attack" are
    the event's; revealed while none of those events is happening, its effect is irrelevant (Rules >
    Other Rules Notes > One-Time Use Enchantments)."""
    rules = index(card).reveal_rules
    if not rules or any(not r.on for r in rules):
        return False
    for ab in card.abilities:
        inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
        at_reveal = isinstance(inner, A.OneShotAbility) or (
            isinstance(inner, A.TriggeredAbility) and inner.event.name == "revealed")
        if at_reveal and _destroys_itself(inner.effects):
            return True
    return False


#: the "pass" option of every reveal window (an Option is never changed: one serves every window of every game)
_PASS = Option("pass")

def title_of(step: str) -> str:
    """How the log names a step: its title in the rulebook (dsl/vocab.py STEP_TITLES), as the step's
    own line does ("Roll Dice"); a step of no sequence (a phase) by its name's words."""
    return STEP_TITLES.get(step) or step_title(step)


class _WindowTexts(dict):
    """step -> the prompt of a reveal window after it and its line when nothing is revealed, made once
    per step name on first use (every window of every attack says them): `_TEXTS[step]`."""

    def __missing__(self, step: str) -> tuple:
        s = title_of(step)
        got = self[step] = (f"reveal after {s}?", f"reveal window after {s}: nothing revealed")
        return got


_TEXTS = _WindowTexts()


class Reveals(GamePart):
    def __init__(self, game: "Game"):
        super().__init__(game)  # (held weakly: engine/gamepart.py)
        self._state, self._effects = game.state, game.effects  # (the game's, for its lifetime)
        self.windows = 0
        self.countering: list = []  # enchantments whose reveal is being countered (innermost last)
        self._hidden: dict = {}  # controller -> hidden enchantments, as of state version _hidden_version
        self._hidden_version = -1
        self._must_any = False  # _any_must_reveal, as of that state version too
        self._cost_key: tuple = ()  # what the kept reveal costs were worked out from (reveal_cost)
        self._cost_attack = None  # ... and the attack under way then
        self._cost_status = None  # ... and its status
        self._cost_light = False  # whether working them out read a light field (state.LIGHT_READS)
        self._cost_version = -1  # the state version they were last asked at
        self._costs: dict = {}  # object id -> its reveal cost, as of _cost_key
        self._cands: dict = {}  # player -> [state, version, mana, cost table, candidates, options]: _candidates_now
        self._opts: dict = {}  # object id -> the Option offering it in a window (_offer)

    def can_counter(self, o, revealing) -> bool:
        """A hidden enchantment whose reveal rule answers another enchantment being revealed:
        `reveals(WHO, WHAT)` read as Game.event_matches reads the event when `reveal` fires it (the
        enchantment revealed its subject, the revealing player's Mage `who`)."""
        g = self.game
        info = {"who": g.state.mage_of(revealing.controller)}
        here = Ctx(this=revealing, it=revealing)
        for r in reveal_rules(o):
            for ev in r.on:
                if ev.name != "reveals":
                    continue
                if g.event_matches(ev, o, revealing, here, info):
                    return True
        return False

    # ------------------------------------------------------------ eligibility
    def hidden_of(self, player: str) -> list["GameObject"]:
        """The face-down enchantments `player` controls (one pass over the objects per state
        version: every change of what is hidden or in play bumps the version)."""
        return list(self._hidden_table().get(player, ()))

    def _hidden_table(self) -> dict:
        """controller -> the face-down enchantments in play it controls (hidden_of); the same pass
        finds whether any of them has a `must` reveal rule (_any_must_reveal)."""
        st = self._state
        self._effects.reads_others()  # (kept across objects: a derived value reading it reads them all)
        if self._hidden_version != st.version:
            by: dict = {}
            must = False
            for o in st.objects.values():
                if o.hidden and o.in_play and o.card.kind == "enchantment":
                    by.setdefault(o.controller, []).append(o)
                    must = must or bool(index(o.card).must_reveal)
            self._hidden, self._must_any, self._hidden_version = by, must, st.version
        return self._hidden

    def reveal_cost(self, obj: "GameObject") -> int:
        """The printed reveal cost (X counted), changed by `costs(..., only: "enchantment_reveal")`
        statics of objects in play (engine/placement.py).

        Every reveal window asks it of every face-down enchantment, so the answer is kept while
        what it is worked out from stays the same: the state (its shape version, and its version
        when working it out read a light field such as damage), the round, the values of X and
        the uses of limited cost changes; and the attack under way and its status when working it
        out read a light field (values read no step: the windows of one attack share the answer).
        The attack is read only through `Game.current_attack`, whose reads are counted (the values
        a reveal cost evaluates get no attack in their context): a cost worked out reading no light
        field did not read the attack, and stays valid when the attack or its status changes."""
        c = obj.card.reveal_cost
        if c is None:
            return 0
        self._effects.reads_others()
        return self._kept_cost(self._cost_table(self.game), obj, c)

    def _cost_table(self, g: "Game") -> dict:
        """The kept reveal costs (object id -> cost), emptied first when what they were worked out from
        changed (reveal_cost says what that is).  The same dict is handed out while they stay valid.
        `g`: the game, which every caller has in hand (self.game is a call through a weak link)."""
        st = g.state
        LIGHT_READS[0] += 2  # (Game.current_attack and GameState.round read their stores so, counting each read)
        atk = g._current_attack
        xs, uses = g.x_values, getattr(g, "cost_uses", None)
        key = (st.shape_version, st._round, tuple(xs.items()) if xs else (), tuple(uses.items()) if uses else ())
        status = getattr(atk, "status", None)
        if key != self._cost_key or (self._cost_light and (
                st.version != self._cost_version or atk is not self._cost_attack or status != self._cost_status)):
            self._cost_key, self._costs, self._cost_light = key, {}, False
        self._cost_attack, self._cost_status = atk, status
        self._cost_version = st.version
        return self._costs

    def _kept_cost(self, costs: dict, obj: "GameObject", c) -> int:
        got = costs.get(obj.id)
        if got is None:
            reads = LIGHT_READS[0]
            got = costs[obj.id] = self._reveal_cost(obj, c)
            # a cost worked out without reading damage, mana or another light field survives a
            # change of those alone (the only changes that bump the version but not the shape)
            self._cost_light |= LIGHT_READS[0] != reads
        return got

    def _reveal_cost(self, obj: "GameObject", c) -> int:
        base = c if isinstance(c, int) else self.game.x_value(obj) * getattr(c, "coef", 1)
        return max(0, base + sum(n for _, n in self.cost_changes(obj)))

    def cost_changes(self, obj: "GameObject") -> list:
        """(source label, amount) of each change to this enchantment's reveal cost now."""
        g = self.game
        host = g.state.host(obj)
        caster = g.state.mage_of(obj.controller) or obj
        out = list(self.trait_changes(obj))
        for ab in obj.card.abilities:  # its own `static [if G] costs(this, N, only: "reveal")`, hidden or not
            call = getattr(ab, "effect", None)
            if isinstance(ab, A.StaticAbility) and isinstance(call, A.Call) and call.name == placement.COSTS \
                    and _own_card_reveal_cost(call):
                ctx = Ctx(this=obj, it=obj)
                if ab.guard is None or g.evaluate(ab.guard, ctx):
                    n = g.evaluate(call.args[1].value, ctx)
                    if isinstance(n, int) and n:
                        out.append((f"{obj.label()} itself", n))
        # (no face-up card in play states a cost change: nothing to ask, and the round, a light field
        # placement.cost_changes reads for limited uses, is not read, so the kept cost survives damage)
        if not placement.has_cost_changes(g):
            return out
        for src, call, minimum in placement.cost_changes(g, caster, obj, (host,) if host else (), "reveal"):
            if src is obj and _own_card_reveal_cost(call):
                continue  # counted above
            n = g.evaluate(call.args[1].value, Ctx(this=src, it=obj))
            if isinstance(n, int) and n:
                out.append((src.label(), n))
        return out

    def trait_changes(self, obj: "GameObject") -> list:
        """(trait, amount) of each change the enchantment's own traits make to its reveal cost: a codex
        entry stating `static [if GUARD] costs(this, N, only: "enchantment_reveal")`, N counted with
        that trait's value as X (each instance of a stacking trait adds its own).  Hidden or not, the
        enchantment carries its printed traits, so this holds for every reader of the reveal cost."""
        g = self.game
        if obj.card.kind != "enchantment" or not obj.card.traits:
            return []
        out = []
        traits = g.effects.derived(obj).traits
        for key, insts in traits.items():
            for ab in g.codex_statics(key, placement.COSTS):
                if not own_reveal_cost(ab.effect):
                    continue
                ctx = Ctx(this=obj, it=obj)
                ctx.extra["probe"] = True  # asked at every reveal window: no events, nothing revealed
                if ab.guard is not None and not g.evaluate(ab.guard, ctx):
                    continue
                for t in insts:
                    ctx = Ctx(this=obj, it=obj)
                    ctx.extra["x"] = _trait_value(g, obj, t)
                    n = g.evaluate(ab.effect.args[1].value, ctx)
                    if isinstance(n, int) and n:
                        out.append((key, n))
        return out

    def rule_applies(self, obj: "GameObject", rule: A.RevealRule, rel: str, step: str, atk) -> bool:
        if rule.step is not None and (rule.step != step or (rule.step_rel or "during") != rel):
            return False
        if rule.step is None and rel != "after":
            return False
        if not rule.on:
            return True
        if atk is None:
            return False
        for ev in rule.on:
            for (name, oid) in atk.events:
                if name != ev.name:
                    continue
                subj = self.game.state.objects.get(oid)
                if self.game.event_matches(ev, obj, subj, Ctx(attack=atk)):
                    return True
        return False

    # ------------------------------------------------------------ windows
    def _any_must_reveal(self) -> bool:
        """Does any face-down enchantment in play have a `must` reveal rule (per state version: what is
        hidden and in play changes only with the version; found with the hidden table)?"""
        self._hidden_table()
        return self._must_any

    def mandatory(self, rel: str, step: str, atk) -> None:
        if not self._any_must_reveal():  # no face-down card has a rule saying when it must be revealed
            return
        g = self.game
        for player in g.state.order:
            for obj in self.hidden_of(player):
                for rule in index(obj.card).must_reveal:
                    if self.rule_applies(obj, rule, rel, step, atk):
                        g.emit("rule", f"{obj.label()} must be revealed {rel} {title_of(step)}",
                               secret_for=obj.controller,
                               public_text=f"{obj.public_label()} must be revealed {rel} {title_of(step)}")
                        self.reveal(obj, atk, forced=True)
                        break
                if atk is not None and atk.status == "canceled":
                    return

    def window(self, step: str, atk=None, g: Optional["Game"] = None, during: bool = False) -> None:
        """Reveal window after `step`: mandatory `after` reveals (`during`: the step's `during` ones
        first, for a step that checks them only at its end: the move sequence's), then each player in
        turn.  `g`: the game, when the caller has it in hand (self.game is a call through the weak link)."""
        if g is None:
            g = self.game
        self.windows += 1
        if self._hidden_version == self._state.version:  # (_hidden_table's kept answer, without its call)
            frames = self._effects._frames
            if frames:  # (as _hidden_table: read from across objects)
                frames[-1][1] = None
            hidden = self._hidden
        else:
            hidden = self._hidden_table()
        if self._must_any:  # a face-down card has a rule saying when it must be revealed (mandatory)
            if during:
                self.mandatory("during", step, atk)
            self.mandatory("after", step, atk)
            hidden = self._hidden_table()  # (as of now: a mandatory reveal changed it)
        prompt, nothing = _TEXTS[step]
        if not hidden:  # nothing face down: nobody to ask
            g.emit_data("window", nothing, {"step": step})
            return
        revealed_any = False
        LIGHT_READS[0] += 1  # (the order read as the `order` property and LightList would, without their two calls)
        for player in list.__iter__(g.state._order):
            # (the table read above holds until a card is revealed: a pass changes nothing)
            if not (self._hidden_table() if revealed_any else hidden).get(player):
                continue  # nothing face down of theirs, as of now: no candidate (as _candidates_now finds first)
            while True:  # (a player with nothing face down, as of now, has no candidate: _candidates_now)
                opts = self._window_options(player, g)
                if opts is None:
                    break
                ch = g.decide("reveal", player, opts, prompt=prompt, default=0, step=step)
                if ch.value is None:
                    break
                self.reveal(ch.value, atk)
                revealed_any = True
                if atk is not None and atk.status == "canceled":
                    return
        if not revealed_any:
            g.emit_data("window", nothing, {"step": step})

    def _window_options(self, player: str, g: "Game") -> Optional[list]:
        """A window's options for `player` (_offer), or None when they may reveal nothing now.  Kept
        with a kept candidates list (_candidates_now), which holds while what they are worked out from
        stays the same; a fresh list each time (the decision's own)."""
        cands, kept = self._candidates_now(player, g)
        if not cands:
            return None
        if kept is None:
            return self._offer(cands)
        opts = kept[5]
        if opts is None:
            opts = kept[5] = tuple(self._offer(cands))
        return list(opts)

    def _offer(self, cands: list) -> list:
        """A window's options: pass, then each candidate.  An Option is never changed and is compared by
        value, so the one offering an object is kept (per object id, checked against the object and its
        name): every window offers the same."""
        opts = [_PASS]
        kept = self._opts
        for o in cands:
            opt = kept.get(o.id)
            if opt is None or opt.value is not o or opt.label != o.name:
                opt = kept[o.id] = Option(o.name, o)
            opts.append(opt)
        return opts

    def _candidates(self, player: str) -> list:
        """The face-down enchantments `player` may reveal now (_candidates_now), as a list of its own."""
        return list(self._candidates_now(player, self.game)[0])

    def _candidates_now(self, player: str, g: "Game") -> tuple:
        """The face-down enchantments `player` may reveal now: those whose reveal cost they can pay and
        that nothing forbids revealing (reveal_forbidden), in the order hidden_of gives them.

        Every window asks it of every player; the list is kept per player while the state (its object and
        version), the player's mana and the kept reveal costs (the same table: _cost_table) stay the same,
        and only when the pooled check answered that nothing can forbid revealing any of them
        (reveal_forbidden_none: an answer that holds for the derived epoch, which moves only with the state
        version, and is not given while an effect forbids something, shared conditions are placed or a
        derived value is being worked out, the cases where this is not kept either).  A list with a
        forbidding statement in reach is worked out card by card each time (it may read the step, the
        attack, the phase).

        Returns the candidates (a sequence not to be changed) and the kept entry they come from, None
        when they are not kept (_window_options keeps a window's options in it).  `g`: the game, which
        the window asking has in hand (self.game is a call through a weak link)."""
        st = g.state
        objs = self._hidden_table().get(player)  # (which also tells a computation under way it read others)
        if not objs:
            return (), None
        mana = st.players[player].mana
        costs = self._cost_table(g)
        kept = self._cands.get(player)
        if kept is not None and kept[0] is st and kept[1] == st.version and kept[2] == mana and kept[3] is costs \
                and not getattr(g, "effect_restrictions", None) and not getattr(g, "placers", None) \
                and not g.effects._computing:
            return kept[4], kept
        # the costs first, card by card as reveal_cost keeps them; then whether any affordable one may be
        # forbidden, pooled (each is asked on its own only when something in reach states it)
        cheap = [o for o in objs if (0 if o.card.reveal_cost is None else
                                     self._kept_cost(costs, o, o.card.reveal_cost)) <= mana]
        if reveal_forbidden_none(g, cheap):
            if not getattr(g, "effect_restrictions", None) and not getattr(g, "placers", None) \
                    and not g.effects._computing and st.version == self._hidden_version:
                kept = self._cands[player] = [st, st.version, mana, costs, tuple(cheap), None]
                return kept[4], kept  # (the window fills in its options now, not at the next window)
            return cheap, None
        return [o for o in cheap if not reveal_forbidden(g, o)], None

    # ------------------------------------------------------------ the process
    def reveal(self, obj: "GameObject", atk=None, forced: bool = False, subject=None) -> bool:
        """Reveal `obj`; `subject` is the object its abilities call "it"/"that" (the creature that set
        off a trap), its host when not given."""
        g = self.game
        st = g.state
        player = st.players[obj.controller]
        why = reveal_forbidden(g, obj)
        if why:
            g.emit("rule", f"{obj.label()} cannot be revealed now: {why}", secret_for=player.name,
                   public_text=f"{obj.public_label()} cannot be revealed now", rule=why.rule)
            return False
        cost = self.reveal_cost(obj)
        if cost > player.mana:
            g.emit("reveal", f"{player.name} cannot pay {cost} mana to reveal {obj.label()}: it stays hidden",
                   secret_for=player.name, public_text=f"{player.name} cannot reveal {obj.public_label()}")
            return False
        host = st.host(obj)
        where = host.label() if host else (obj.attached_zone or "?")
        # 1. flip
        obj.hidden = False
        st.touch()
        g.emit("reveal", f"{player.name} reveals {obj.label()} on {where}", object=obj.id, card=obj.name)
        # 2. counter the enchantment
        counters = []
        for p in st.order:
            for o in self.hidden_of(p):
                if o is not obj and self.can_counter(o, obj):
                    counters.append(o)
        if counters:
            # Only the players offered a counter see this window: announcing it to
            # everyone would tell them a counter-capable card lies face down.
            g.emit("window", f"counter window for the reveal of {obj.label()}", step="counter_reveal",
                   audience=tuple(sorted({o.controller for o in counters})))
        for o in counters:
            if not o.hidden or not o.in_play:
                continue
            ch = g.decide("reveal", o.controller, [Option("pass"), Option(o.name, o)],
                          prompt=f"counter the reveal of {obj.name}?", default=0, step="counter_reveal")
            if ch.value is not None:
                self.countering.append(obj)
                try:
                    self.reveal(ch.value, atk)
                finally:
                    self.countering.pop()
                if not obj.in_play:
                    g.emit("rule", f"{obj.label()} was countered before its reveal cost was paid")
                    return True
        # 3. pay the reveal cost
        changes = self.cost_changes(obj)
        if changes:
            host_ = st.host(obj)
            placement.use_cost_changes(g, st.mage_of(obj.controller) or obj, obj, (host_,) if host_ else (),
                                       "reveal")
            g.emit("rule", f"reveal cost of {obj.label()} changed: "
                           + "; ".join(f"{n:+d} ({lbl})" for lbl, n in changes))
        if cost:
            player.mana -= cost
            st.touch()
            g.emit("mana", f"{player.name} pays the reveal cost {cost} (mana now {player.mana})")
        # duplicate: a revealed enchantment of the same name on the same object or zone
        same = [o for o in st.in_play() if o is not obj and not o.hidden and o.name == obj.name
                and o.kind == "enchantment" and ((host is not None and o.attached_to == obj.attached_to)
                                                 or (obj.attached_zone and o.attached_zone == obj.attached_zone))]
        if same:
            g.discard(obj, f"duplicate of revealed {same[0].label()} on {where}: no effect")
            return True
        # 4. resolve: its effects begin now
        obj.timestamp = st.next_timestamp()
        st.touch()
        if not forced and acts_on_its_event(obj.card) and not self._keyed_event_now(obj, atk):
            # (a forced reveal is one its rule's event set off)
            g.emit("rule", f"{obj.label()} is a one-time enchantment revealed while none of the events it "
                           f"answers is happening: wasted")
            g.destroy(obj, why="one-time effect wasted")
        else:
            ran = False
            # revealed while a spell is cast (engine/casting.py), "that spell" is the spell
            it = atk.spell if getattr(atk, "is_casting", False) and atk.spell is not None else \
                (subject if subject is not None else host)
            ctx = Ctx(this=obj, attack=atk, it=it)
            for ab in obj.card.abilities:
                inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
                if isinstance(inner, A.OneShotAbility):
                    g.run_effects(inner.effects, ctx)
                    ran = True
                elif isinstance(inner, A.TriggeredAbility):
                    if inner.event.name == "revealed" or self._event_now(inner.event, obj, atk):
                        if inner.guard is None or g.evaluate(inner.guard, ctx):
                            g.emit("trigger", f"{obj.label()}: its '{inner.event.name}' ability resolves")
                            g.run_effects(inner.effects, ctx)
                            ran = True
            attacked_now = atk is not None and host is not None and host in (atk.target, atk.defender, atk.attacker)
            if not ran and is_one_time(obj) and obj.in_play and not attacked_now:
                g.emit("rule", f"{obj.label()} is a one-time enchantment revealed when its effect is irrelevant: wasted")
                g.destroy(obj, why="one-time effect wasted")
        # `when reveals(WHO, WHAT)` abilities: WHO is the revealing player (by their Mage), WHAT the enchantment
        g.fire("reveals", obj, Ctx(this=obj, attack=atk, it=obj), who=st.mage_of(obj.controller))
        g.check_state()
        return True

    def _keyed_event_now(self, obj, atk) -> bool:
        """Whether an event one of `obj`'s reveal rules names is happening now: one of the attack's or
        spell's events (as rule_applies reads them, whatever the step), or, while another enchantment's
        reveal is being countered, that reveal (`reveals(...)`, as can_counter reads it)."""
        if self.countering and self.can_counter(obj, self.countering[-1]):
            return True
        return any(self._event_now(ev, obj, atk) for r in reveal_rules(obj) for ev in r.on)

    def _event_now(self, ev: A.Call, obj, atk) -> bool:
        if atk is None:
            return False
        for (name, oid) in atk.events:
            if name == ev.name:
                if self.game.event_matches(ev, obj, self.game.state.objects.get(oid), Ctx(attack=atk)):
                    return True
        return False
