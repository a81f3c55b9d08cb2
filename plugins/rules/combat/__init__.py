"""Land combat: the seeds' "Land Combat" group and the Land Combat Resolution sub-machine.

Steps (full ids under ``wif.``):
- ``turn.impulse.land.combat.land-combat-declaration``: ``DeclareAttack`` (each new attack
  of a power on a hex is one land attack activity, Land or Combined action only);
- ``...ignore-notional.include-notional-units``: ``IncludeNotional`` (invasions and
  paradrops only: other plugins open such attacks with ``declare_forced_attack``);
- ``...defending-hq-support`` / ``...attacking-hq-support``: ``DeclareHQSupport`` (optional
  rule 13, on when the optional rule ``hq-support`` is ON (``plugins.optional.framework.is_on``)
  or the old game option ``"hq_support": true`` is set); ``...ground-support.hq-support-rolls`` rolls them on 1D10;
- ``...land-combat-resolution`` runs ``procedures.land-combat-resolution`` once per combat:
  ``SelectLandCombat``, ``UseSnowUnits``, ``ChooseLandCombatType``, ``ResolveCombat``, the
  die roll, ``ConvertToRetreat``, ``AssignLandLosses``, apply losses, ``RetreatUnit``,
  ``AdvanceUnit``.

Ground support hook for the air plugin: state ``state["combat"].ground_support[combat_id]
[side] = factors`` with side "attacker" or "defender", written only by the event
``GroundSupportAdded(combat=combat_id, side=..., factors=...)`` which the air plugin emits
(``from plugins.rules.combat import GroundSupportAdded``) when a ground support mission is
performed; the factors add up.  A combat's id is its defending hex key, "col,row"; the open
combats are ``state["combat"].combats`` (``attackers``, ``powers``, ``stage``).

Public functions: ``odds_preview(state, attackers, defender_hex)`` (odds, table chooser,
modifiers before committing), ``open_combats(state)``, ``declare_forced_attack(ctx, power,
hex, units, kind)`` for invasions and paradrops.

The sub-machine loop: the kernel ends a pushed sub-machine after its last child without
asking ``repeat_step``, so each further combat runs in a nested push made when the phasing
team leader selects it (``SelectLandCombat`` while other combats remain); when that nested
combat is over, the outer Select Land Combat step asks again.  The last remaining combat is
resolved in the outermost frame.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from kernel.builtin import DecisionFinished
from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from plugins.rules import core
from plugins.rules.units import UnitFlipped, UnitMoved

from . import odds as O
from .hooks import HOOKSPECS  # noqa: F401  (published hooks, see hooks.py)
from .odds import odds_preview  # noqa: F401  (public)

PROC = "wif.procedures.land-combat-resolution"
COMBAT = "wif.turn.impulse.land.combat"
RULE_DECL = "Land Combat Declaration"
RULE_LC = "Land Combat"


# ---------------------------------------------------------------- state
class Combat(BaseModel):
    id: str
    hex: tuple[int, int]
    attackers: list[str] = Field(default_factory=list)
    powers: list[str] = Field(default_factory=list)  # attacking powers, in order of declaration
    forced: str = ""  # "invasion" / "paradrop": a notional unit may defend
    notional: bool | None = None  # None: not asked; True: the notional unit defends
    hq: dict[str, list[str]] = Field(default_factory=dict)  # side -> HQs declared
    hq_shift: dict[str, int] = Field(default_factory=dict)  # side -> successful HQ support
    # declared -> selected -> typed -> rolled -> applied (-> cancelled)
    stage: str = "declared"
    table: str | None = None
    snow_units: bool | None = None
    result: dict | None = None
    converted: bool | None = None
    losses: dict[str, int] = Field(default_factory=dict)  # side -> losses still to take
    retreating: list[str] = Field(default_factory=list)
    # unit id -> hexes ("col,row") it has retreated out of: it never retreats back into them
    retreat_trail: dict[str, list[str]] = Field(default_factory=dict)
    # Shatter: a converted S/B with 2+ units to retreat sends those that can't to the pool
    excess_to_pool: bool = False
    advance: bool = False
    breakthrough: bool = False
    advanced: list[str] = Field(default_factory=list)
    second: list[str] = Field(default_factory=list)  # units advanced a second hex


class CombatState(BaseModel):
    stamp: tuple[int, int] = (0, 0)  # (turn, impulse) of the declarations held
    combats: dict[str, Combat] = Field(default_factory=dict)
    ground_support: dict[str, dict[str, float]] = Field(default_factory=dict)
    hq_used: list[str] = Field(default_factory=list)
    frames: dict[str, str | None] = Field(default_factory=dict)  # sequence stack depth -> combat


def cs(state) -> CombatState:
    return state["combat"]


def open_combats(state) -> list[Combat]:
    """Declared combats not yet resolved (nor cancelled), in declaration order."""
    return [c for c in cs(state).combats.values() if c.stage in ("declared", "selected", "typed")]


def _depth(state) -> int:
    return len(state.kernel.sequence.stack)


def current_combat(state) -> Combat | None:
    """The combat the innermost land combat resolution sub-machine is resolving."""
    cid = cs(state).frames.get(str(_depth(state)))
    return cs(state).combats.get(cid) if cid else None


# ---------------------------------------------------------------- events
class AttackDeclared(EventData):
    combat: str
    hex: tuple[int, int]
    power: str
    units: list[str]
    forced: str = ""


class AttackCancelled(EventData):
    combat: str
    reason: str


class NotionalDecided(EventData):
    combat: str
    power: str
    include: bool


class HQSupportDeclared(EventData):
    combat: str
    side: str  # "attacker" / "defender"
    hq: str


class HQSupportRolled(EventData):
    combat: str
    side: str
    hq: str
    roll: int
    needed: int
    success: bool


class GroundSupportAdded(EventData):
    """Emitted by the air plugin when a ground support mission is performed."""

    combat: str
    side: str  # "attacker" / "defender"
    factors: float


class LandCombatSelected(EventData):
    combat: str | None
    depth: int


class SnowUnitsDecided(EventData):
    combat: str
    use: bool


class LandCombatTableChosen(EventData):
    combat: str
    table: str
    side: str  # which side chose


class LandCombatResolved(EventData):
    combat: str
    hex: tuple[int, int]
    place: str
    table: str
    attack: int
    defence: int
    base_odds: str | None
    shifts: dict[str, int]
    odds: str
    drm: dict[str, int]
    roll: int | None
    modified: int | None
    result: str
    losses: dict[str, int]  # side -> land units to destroy


class ShatterConverted(EventData):
    combat: str
    convert: bool


class LandLossesTaken(EventData):
    combat: str
    side: str
    units: list[str]


class LandCombatOutcome(EventData):
    combat: str
    retreating: list[str]
    shattered: list[str]
    destroyed: list[str]
    disorganized: list[str]
    advance: bool
    breakthrough: bool
    excess_to_pool: bool = False


class UnitRetreated(EventData):
    combat: str
    unit: str
    from_hex: tuple[int, int]
    to_hex: tuple[int, int] | None  # None: destroyed
    priority: int = 0
    done: bool = True  # False: it ended in a hex still to be attacked, or over-stacked, and keeps retreating
    reason: str = ""
    to_pool: bool = False  # with to_hex None: it survives in the production pool (Shatter)


class UnitAdvanced(EventData):
    combat: str
    unit: str
    to_hex: tuple[int, int]
    second: bool = False
    disorganized: bool = False


EVENTS = (AttackDeclared, AttackCancelled, NotionalDecided, HQSupportDeclared, HQSupportRolled,
          GroundSupportAdded, LandCombatSelected, SnowUnitsDecided, LandCombatTableChosen,
          LandCombatResolved, ShatterConverted, LandLossesTaken, LandCombatOutcome, UnitRetreated,
          UnitAdvanced)


# ---------------------------------------------------------------- reducers
def _stamp(state) -> tuple[int, int]:
    return (state.kernel.turn, state.kernel.impulse)


def _r_declared(state, event):
    s = cs(state)
    d = event.data
    if tuple(s.stamp) != _stamp(state):  # a new impulse: last impulse's combats are over
        s.combats.clear()
        s.ground_support.clear()
        s.hq_used.clear()
        s.frames.clear()
        s.stamp = _stamp(state)
    c = s.combats.get(d["combat"])
    if c is None or c.stage not in ("declared",):
        c = s.combats[d["combat"]] = Combat(id=d["combat"], hex=tuple(d["hex"]))
    for u in d["units"]:
        if u not in c.attackers:
            c.attackers.append(u)
    if d["power"] not in c.powers:
        c.powers.append(d["power"])
    if d.get("forced"):
        c.forced = d["forced"]


def _combat(state, event) -> Combat:
    return cs(state).combats[event.data["combat"]]


def _r_cancelled(state, event):
    _combat(state, event).stage = "cancelled"


def _r_notional(state, event):
    _combat(state, event).notional = event.data["include"]


def _r_hq_declared(state, event):
    c = _combat(state, event)
    c.hq.setdefault(event.data["side"], []).append(event.data["hq"])
    cs(state).hq_used.append(event.data["hq"])


def _r_hq_rolled(state, event):
    if event.data["success"]:
        c = _combat(state, event)
        c.hq_shift[event.data["side"]] = c.hq_shift.get(event.data["side"], 0) + 1


def _r_ground_support(state, event):
    d = event.data
    entry = cs(state).ground_support.setdefault(d["combat"], {})
    entry[d["side"]] = entry.get(d["side"], 0.0) + d["factors"]


def _r_selected(state, event):
    d = event.data
    s = cs(state)
    s.frames[str(d["depth"])] = d["combat"]
    if d["combat"]:
        s.combats[d["combat"]].stage = "selected"


def _r_snow(state, event):
    _combat(state, event).snow_units = event.data["use"]


def _r_table(state, event):
    c = _combat(state, event)
    c.table = event.data["table"]
    c.stage = "typed"


def _r_resolved(state, event):
    c = _combat(state, event)
    c.stage = "rolled"
    c.result = dict(event.data)
    c.losses = dict(event.data["losses"])


def _r_converted(state, event):
    _combat(state, event).converted = event.data["convert"]


def _r_losses(state, event):
    c = _combat(state, event)
    side = event.data["side"]
    c.losses[side] = max(0, c.losses.get(side, 0) - len(event.data["units"]))


def _r_outcome(state, event):
    c = _combat(state, event)
    d = event.data
    c.stage = "applied"
    c.retreating = list(d["retreating"])
    c.advance = d["advance"]
    c.breakthrough = d["breakthrough"]
    c.excess_to_pool = d.get("excess_to_pool", False)


def _r_retreated(state, event):
    c = _combat(state, event)
    d = event.data
    c.retreat_trail.setdefault(d["unit"], []).append(core.hex_key(d["from_hex"]))
    if d["done"] and d["unit"] in c.retreating:
        c.retreating.remove(d["unit"])


def _r_advanced(state, event):
    c = _combat(state, event)
    if event.data["second"]:
        c.second.append(event.data["unit"])
    else:
        c.advanced.append(event.data["unit"])


REDUCERS = {
    "AttackDeclared": _r_declared, "AttackCancelled": _r_cancelled, "NotionalDecided": _r_notional,
    "HQSupportDeclared": _r_hq_declared, "HQSupportRolled": _r_hq_rolled,
    "GroundSupportAdded": _r_ground_support, "LandCombatSelected": _r_selected,
    "SnowUnitsDecided": _r_snow, "LandCombatTableChosen": _r_table, "LandCombatResolved": _r_resolved,
    "ShatterConverted": _r_converted, "LandLossesTaken": _r_losses, "LandCombatOutcome": _r_outcome,
    "UnitRetreated": _r_retreated, "UnitAdvanced": _r_advanced,
}


# ---------------------------------------------------------------- commands
class DeclareAttack(Command):
    hex: tuple[int, int]
    units: list[str]


class IncludeNotional(Command):
    hex: tuple[int, int]
    include: bool


class DeclareHQSupport(Command):
    hq: str
    hex: tuple[int, int]


class SelectLandCombat(Command):
    hex: tuple[int, int]


class UseSnowUnits(Command):
    use: bool


class ChooseLandCombatType(Command):
    table: str  # "blitz" / "assault"


class ResolveCombat(Command):
    pass


class ConvertToRetreat(Command):
    convert: bool


class AssignLandLosses(Command):
    units: list[str]


class RetreatUnit(Command):
    unit: str
    to_hex: tuple[int, int]


class AdvanceUnit(Command):
    unit: str
    to_hex: tuple[int, int]


# ---------------------------------------------------------------- shared helpers
def _units(state):
    return state["units"].units


def _side(state, power):
    return state.kernel.side_of(power)


def _attacking_side(state, c: Combat) -> str | None:
    return _side(state, c.powers[0]) if c.powers else state.kernel.active_side


def _defending_side(state, c: Combat) -> str | None:
    att = _attacking_side(state, c)
    return next((s for s in state.kernel.sides if s != att), None)


def _living_attackers(state, c: Combat) -> list:
    u = _units(state)
    return [u[i] for i in c.attackers if i in u and u[i].on_map]


def _defenders(state, c: Combat) -> list:
    return O.defenders(state, c.hex, c.powers[0]) if c.powers else []


def team_leader(state, side: str | None, prefer: Combat | None = None) -> str | None:
    """The side's decision maker: for the attacking side the power involved in the most land
    combats ("Land Combat"), else the side's first power."""
    if side is None:
        return None
    powers = list(state.kernel.sides.get(side, []))
    if not powers:
        return None
    counts = {p: sum(1 for c in cs(state).combats.values() if p in c.powers) for p in powers}
    return max(powers, key=lambda p: (counts[p], -powers.index(p)))


def _defending_leader(state, c: Combat) -> str | None:
    dfn = _defenders(state, c)
    side = _defending_side(state, c)
    if dfn:
        powers = [u.power for u in dfn]
        return max(dict.fromkeys(powers), key=powers.count)
    return team_leader(state, side)


def _finish(ctx, actor: str) -> None:
    """The actor's decision in the current step is complete: end it (as FinishStep does)."""
    seq = ctx.state.kernel.sequence
    who = ctx.decider_for(actor)
    ctx.emit(DecisionFinished(step=seq.current or "", who=who))
    if not ctx.state.kernel.sequence.pending:
        ctx.advance()


def _options(state) -> dict:
    return state.kernel.options or {}


def hq_support_in_play(state) -> bool:
    """Optional rule HQ support (option 13): ON through the optional-rule framework (so a
    toggle during play counts), or the older game option ``"hq_support": true``."""
    if _options(state).get("hq_support"):
        return True
    try:
        from plugins.optional.framework import is_on
    except Exception:  # the framework is not installed: only the options say
        return "hq-support" in (_options(state).get("optional_rules") or [])
    return is_on(state, "hq-support")


def _reject_wrong_side(state, actor: str, want_active: bool, rule: str) -> None:
    active = state.kernel.active_side
    if (_side(state, actor) == active) != want_active:
        who = "phasing" if want_active else "non-phasing"
        raise Rejected(f"{rule}: only the {who} side decides here; {actor} is not on it")


# ---------------------------------------------------------------- declaration
def _check_land_action(state, power: str) -> None:
    """Land Combat Declaration: "In order to declare land attacks a major power must have
    taken either a Land or Combined action"."""
    try:
        from plugins.rules.turn.activities import check_action
    except Exception:
        check_action = None
    if check_action is not None:
        check_action(state, power, "land-combat-declaration")
        return
    action = core.action_of(state, power)
    if action not in ("land", "combined"):
        raise Rejected(f"{RULE_DECL}: {power} must have taken a Land or Combined action to declare "
                       f"land attacks (it chose {action or 'no action'})")


def _use_attack(ctx, power: str) -> None:
    """Activity Limits: every land attack counts (imported lazily from the turn plugin)."""
    try:
        from plugins.rules.turn.activities import use_activity
    except Exception:
        return
    use_activity(ctx, power, "land-attack")


def _validate_attackers(state, power: str, hex_, unit_ids, already: set[str]) -> list:
    units = _units(state)
    out = []
    if not unit_ids:
        raise Rejected(f"{RULE_DECL}: name at least one land unit to attack with")
    for uid in unit_ids:
        u = units.get(uid)
        if u is None:
            raise Rejected(f"{RULE_DECL}: there is no unit {uid!r}")
        if u.power != power:
            raise Rejected(f"{RULE_DECL}: {u.name or uid} is controlled by {u.power}, not {power}")
        if u.branch != "land" or not u.on_map:
            raise Rejected(f"{RULE_DECL}: {u.name or uid} is not a land unit on the map")
        if not u.face_up:
            raise Rejected(f"{RULE_DECL}: {u.name or uid} is disorganized and can't attack "
                           "(Reorganize Units: organizing units 'will enable them to move and attack again')")
        if not O.adjacent(u.hex, hex_):
            raise Rejected(f"{RULE_LC}: land units attack enemy land units they are adjacent to; "
                           f"{u.name or uid} at {u.hex[0]},{u.hex[1]} is not next to {hex_[0]},{hex_[1]}")
        if O.hexside_kind(state, u.hex, hex_) == "lake":
            raise Rejected(f"{RULE_LC}: {u.name or uid} can't attack across a lake hexside")
        if uid in already:
            raise Rejected(f"{RULE_DECL}: {u.name or uid} is already attacking another hex this impulse")
        out.append(u)
    return out


def declare_attack(ctx, cmd: DeclareAttack) -> None:
    state = ctx.state
    power = cmd.actor
    if power not in state.kernel.powers():
        raise Rejected(f"{RULE_DECL}: attacks are declared by a major power, not {power}")
    hex_ = O.norm(cmd.hex)
    _check_land_action(state, power)
    if not core.world_map().is_land(hex_):
        raise Rejected(f"{RULE_LC}: {hex_[0]},{hex_[1]} is not a land hex")
    dfn = O.defenders(state, hex_, power)
    if not dfn:
        friendly = [u for u in O.land_units(state, hex_) if _side(state, u.power) == _side(state, power)]
        what = "holds friendly units" if friendly else "holds no enemy land units"
        raise Rejected(f"{RULE_LC}: your land units can attack enemy land units; hex {hex_[0]},{hex_[1]} {what}")
    key = core.hex_key(hex_)
    s = cs(state)
    fresh = tuple(s.stamp) != _stamp(state)
    existing = None if fresh else s.combats.get(key)
    already = set() if fresh else {u for c in s.combats.values() if c.id != key and c.stage != "cancelled"
                                   for u in c.attackers}
    if existing is not None and existing.stage not in ("declared",):
        raise Rejected(f"{RULE_DECL}: the attack on {O.place_name(hex_)} has already been resolved this impulse")
    new_ids = [u for u in cmd.units if not (existing and u in existing.attackers)]
    _validate_attackers(state, power, hex_, new_ids or cmd.units, already)
    if existing is None or power not in existing.powers:
        _use_attack(ctx, power)  # a new land attack by this power
    ctx.emit(AttackDeclared(combat=key, hex=hex_, power=power, units=list(cmd.units)))


def declare_forced_attack(ctx, power: str, hex_, units: list[str], kind: str) -> None:
    """For the land and air plugins: an invasion or paradrop commits ``units`` to a land
    attack on ``hex_`` (Invasion / Paradrop: "forces a land attack on the hex"); counted as
    a land attack by the caller's activity rules.  The defender may include its notional
    unit (Ignore Notional)."""
    ctx.emit(AttackDeclared(combat=core.hex_key(O.norm(hex_)), hex=O.norm(hex_), power=power,
                            units=list(units), forced=kind))


# ---------------------------------------------------------------- notional units
def _notional_pending(state, power: str | None = None) -> list[Combat]:
    out = []
    for c in open_combats(state):
        if c.forced and c.notional is None:
            if power is None or _defending_leader(state, c) == power:
                out.append(c)
    return out


def include_notional(ctx, cmd: IncludeNotional) -> None:
    key = core.hex_key(O.norm(cmd.hex))
    c = cs(ctx.state).combats.get(key)
    if c is None or c not in _notional_pending(ctx.state, cmd.actor):
        raise Rejected(f"Ignore Notional: {cmd.actor} has no invasion or paradrop at {key} to decide on")
    ctx.emit(NotionalDecided(combat=key, power=cmd.actor, include=cmd.include))
    if not cmd.include and not _defenders(ctx.state, c):
        # "If you do so (and there are no other friendly land units in the hex), then ...
        # there is no attack, and the attacker occupies the hex"
        ctx.emit(AttackCancelled(combat=key, reason="the notional unit is ignored: no attack, the hex is occupied"))
        for u in _living_attackers(ctx.state, c):
            if u.hex != c.hex:
                ctx.emit(UnitMoved(unit=u.id, to_hex=c.hex))
        ctx.emit(core.HexControlChanged(hex=c.hex, power=c.powers[0]))
    if not _notional_pending(ctx.state, cmd.actor):
        _finish(ctx, cmd.actor)


# ---------------------------------------------------------------- HQ support
def declare_hq_support(ctx, cmd: DeclareHQSupport) -> None:
    state = ctx.state
    rule = "HQ Support (option 13)"
    if not hq_support_in_play(state):
        raise Rejected(f"{rule}: this optional rule is not in play")
    key = core.hex_key(O.norm(cmd.hex))
    c = cs(state).combats.get(key)
    if c is None or c.stage == "cancelled":
        raise Rejected(f"{rule}: no land attack is declared against {key}")
    hq = _units(state).get(cmd.hq)
    if hq is None or hq.power != cmd.actor or O.unit_type(hq) not in O.HQ_TYPES or not hq.on_map:
        raise Rejected(f"{rule}: {cmd.hq} is not an HQ of {cmd.actor} on the map")
    if not hq.face_up:
        raise Rejected(f"{rule}: {hq.name or hq.id} is disorganized")
    if hq.id in cs(state).hq_used:
        raise Rejected(f"{rule}: {hq.name or hq.id} already supports a combat this impulse")
    side = "attacker" if _side(state, cmd.actor) == _attacking_side(state, c) else "defender"
    step = state.kernel.sequence.current or ""
    if (side == "attacker") != step.endswith("attacking-hq-support"):
        raise Rejected(f"{rule}: the {side} announces its HQ support in the "
                       f"{'Attacking' if side == 'attacker' else 'Defending'} HQ Support phase")
    fx = O.effects()["hq_support"]
    reach = int(hq.factors.get(fx["range_factor"], hq.factors.get("combat", 0)))
    dist = core.world_map().grid.distance(O.norm(hq.hex), c.hex)
    if dist > reach:
        raise Rejected(f"{rule}: {hq.name or hq.id} is {dist} hexes from {O.place_name(c.hex)}, "
                       f"beyond its reorganization value {reach}")
    ctx.emit(HQSupportDeclared(combat=key, side=side, hq=hq.id))


def hq_support_rolls(ctx, step_id: str) -> None:
    """Determination of Whether HQ Support Occurs (1D10 Land CRT): rolled after ground support."""
    fx = O.effects()["hq_support"]
    for c in open_combats(ctx.state):
        for side, hqs in sorted(c.hq.items()):
            for hq_id in hqs:
                hq = _units(ctx.state).get(hq_id)
                if hq is None or not hq.on_map:
                    continue
                needed = int(hq.factors.get(fx["success_factor"], hq.factors.get("combat", 0)))
                (roll,) = ctx.roll(f"HQ support by {hq.name or hq.id} at {O.place_name(c.hex)} (combat {c.id})")
                ctx.emit(HQSupportRolled(combat=c.id, side=side, hq=hq_id, roll=roll, needed=needed,
                                         success=roll <= needed))


# ---------------------------------------------------------------- resolution driver
def _prune(ctx) -> None:
    """Land Combat Resolution: "All the land attacks that have been declared have to be
    resolved, unless the resolution of earlier attacks results in zero in-supply land units
    remaining to make the attack." """
    in_supply = None
    if "supply" in ctx.host.infos:  # only when the supply rules are played in this game
        try:
            from plugins.rules.supply import in_supply
        except Exception:
            in_supply = None
    for c in open_combats(ctx.state):
        if c.stage != "declared":
            continue
        able = [u for u in _living_attackers(ctx.state, c) if O.adjacent(u.hex, c.hex) or u.hex == c.hex]
        if in_supply is not None:
            able = [u for u in able if in_supply(ctx.state, u.id)]
        if not able:
            ctx.emit(AttackCancelled(combat=c.id, reason="no in-supply land unit is left to make the attack"))
        elif not _defenders(ctx.state, c) and not (c.forced and c.notional):
            ctx.emit(AttackCancelled(combat=c.id, reason="no enemy land unit is left in the hex"))


def _waiting_combats(state) -> list[Combat]:
    return [c for c in open_combats(state) if c.stage == "declared"]


def land_combat_resolution(ctx, step_id: str) -> None:
    """Land Combat Resolution: run the sub-machine until every declared attack is resolved."""
    _prune(ctx)
    waiting = _waiting_combats(ctx.state)
    if not waiting:
        return
    depth = _depth(ctx.state) + 1
    ctx.emit(LandCombatSelected(combat=waiting[0].id if len(waiting) == 1 else None, depth=depth))
    ctx.push("procedures.land-combat-resolution")


def select_land_combat(ctx, cmd: SelectLandCombat) -> None:
    state = ctx.state
    _prune(ctx)
    key = core.hex_key(O.norm(cmd.hex))
    waiting = _waiting_combats(state)
    c = cs(state).combats.get(key)
    if c is None or c not in waiting:
        left = ", ".join(O.place_name(w.hex) for w in waiting) or "none"
        raise Rejected(f"Select Land Combat: no declared combat waits at {key} (waiting: {left})")
    depth = _depth(state)
    if len(waiting) > 1:
        # The sub-machine is run again for this combat (nested); this step then asks again.
        ctx.emit(LandCombatSelected(combat=key, depth=depth + 1))
        ctx.push("procedures.land-combat-resolution")
        return
    ctx.emit(LandCombatSelected(combat=key, depth=depth))
    _finish(ctx, cmd.actor)


def use_snow_units(ctx, cmd: UseSnowUnits) -> None:
    c = current_combat(ctx.state)
    ctx.emit(SnowUnitsDecided(combat=c.id, use=cmd.use))
    _finish(ctx, cmd.actor)


def _evaluate(state, c: Combat, table: str | None = None, hook=None, extra_shifts: dict | None = None) -> dict:
    return O.evaluate(state, c.attackers, c.hex, notional=bool(c.forced and c.notional),
                      ground_support=cs(state).ground_support.get(c.id), hq_shift=c.hq_shift,
                      snow_units=c.snow_units, table=table or c.table, hook=hook, extra_shifts=extra_shifts)


def _chooser_side(state, c: Combat) -> str:
    ev = _evaluate(state, c)
    return _attacking_side(state, c) if ev["chooser"] == "attacker" else _defending_side(state, c)


def _chooser_power(state, c: Combat) -> str | None:
    ev = _evaluate(state, c)
    return team_leader(state, _attacking_side(state, c)) if ev["chooser"] == "attacker" else _defending_leader(state, c)


def choose_type(ctx, cmd: ChooseLandCombatType) -> None:
    c = current_combat(ctx.state)
    table = cmd.table.lower()
    if table not in ("blitz", "assault"):
        raise Rejected("Choose Combat Type: the tables are 'blitz' and 'assault'")
    ctx.emit(LandCombatTableChosen(combat=c.id, table=table, side=_side(ctx.state, cmd.actor) or ""))
    _finish(ctx, cmd.actor)


def resolve_combat(ctx, cmd: ResolveCombat) -> None:
    _finish(ctx, cmd.actor)


def land_combat_die_rolls(ctx, step_id: str) -> None:
    """Land Combat Die Rolls: roll 1D10, add the modifiers, read the table."""
    c = current_combat(ctx.state)
    hook = ctx.host.pm.hook
    ev = _evaluate(ctx.state, c, hook=hook)
    table = c.table or "assault"
    place = ev["place"]
    losses = None
    drm = ev["drm"]
    if ev["automatic"]:
        roll = modified = None
        result = "*/2B" if table == "blitz" else "*/2S"
        odds = "auto"
    else:
        # Optional rules: a roll for a better odds column first (Fractional odds), then
        # another results table (2D10 Land CRT); neither: the 1D10 tables.
        better = hook.land_odds_roll(ctx=ctx, combat=c, evaluation=ev)
        if better:
            ev = _evaluate(ctx.state, c, hook=hook, extra_shifts={better["reason"]: better["shift"]})
            drm = ev["drm"]
        other = hook.land_combat_result(ctx=ctx, combat=c, evaluation=ev, table=table)
        if other:
            roll, modified, result, drm = other["roll"], other["modified"], other["result"], other["drm"]
            losses = other.get("losses")
        else:
            (roll,) = ctx.roll(f"land combat at {place} (combat {c.id}, {ev['odds']} {table})")
            modified = roll + sum(drm.values())
            result = O.lookup(table, ev["level"], modified)
        odds = ev["odds"]
    p = O.parse_result(result)
    ctx.emit(LandCombatResolved(
        combat=c.id, hex=c.hex, place=place, table=table, attack=ev["attack"], defence=ev["defence"],
        base_odds=ev["base_odds"], shifts=ev["shifts"], odds=odds, drm=drm, roll=roll,
        modified=modified, result=result,
        losses=losses or {"attacker": p["attacker_losses"], "defender": p["defender_losses"]}))


def convert_to_retreat(ctx, cmd: ConvertToRetreat) -> None:
    c = current_combat(ctx.state)
    ctx.emit(ShatterConverted(combat=c.id, convert=cmd.convert))
    _finish(ctx, cmd.actor)


def _loss_pool(state, c: Combat, side: str) -> list:
    return _living_attackers(state, c) if side == "attacker" else _defenders(state, c)


def _sides_to_choose(state, c: Combat) -> dict[str, str]:
    """side -> the power that chooses its losses (only where there is a real choice)."""
    out = {}
    if c.stage != "rolled":
        return out
    for side in ("attacker", "defender"):
        n = c.losses.get(side, 0)
        pool = _loss_pool(state, c, side)
        if 0 < n < len(pool):
            leader = team_leader(state, _attacking_side(state, c)) if side == "attacker" else _defending_leader(state, c)
            out[side] = leader
    return out


def _destroy(ctx, unit_id: str) -> None:
    ctx.emit(UnitMoved(unit=unit_id, to_hex=None, to_where="eliminated"))


def assign_losses(ctx, cmd: AssignLandLosses) -> None:
    """Assign Losses: "The owning player always chooses losses in a land combat." """
    state = ctx.state
    c = current_combat(state)
    sides = [s for s, p in _sides_to_choose(state, c).items() if p == cmd.actor]
    if not sides:
        raise Rejected(f"Assign Losses: {cmd.actor} has no losses to choose in this combat")
    side = sides[0]
    need = c.losses[side]
    pool = {u.id: u for u in _loss_pool(state, c, side)}
    chosen = list(dict.fromkeys(cmd.units))
    if len(chosen) != need or any(u not in pool for u in chosen):
        names = ", ".join(pool)
        raise Rejected(f"Land Combat: the result destroys {need} {side} land unit(s); choose exactly {need} "
                       f"of your units in this combat ({names})")
    if side == "attacker" and c.snow_units:
        hook = ctx.host.pm.hook
        if not any(O.is_snow_unit(pool[u], state, hook) or hook.first_loss_eligible(state=state, unit=pool[u], combat=c)
                   for u in chosen):
            raise Rejected("Weather Report: having used the snow units' benefit, your first loss must be "
                           "one of those units")
    ctx.emit(LandLossesTaken(combat=c.id, side=side, units=chosen))
    for u in chosen:
        _destroy(ctx, u)
    if not _sides_to_choose(ctx.state, c).get(side):
        _finish(ctx, cmd.actor)


def apply_losses(ctx, step_id: str) -> None:
    """Apply Losses, then shatter, retreat stack and disorganization ("Land Combat": Retreats,
    Shatter, Disorganization step)."""
    state = ctx.state
    c = current_combat(state)
    # Uniform outcomes: a side whose losses reach all its units loses them all.
    for side in ("attacker", "defender"):
        n = c.losses.get(side, 0)
        pool = _loss_pool(state, c, side)
        if n > 0:
            gone = [u.id for u in pool][:n] if n < len(pool) else [u.id for u in pool]
            ctx.emit(LandLossesTaken(combat=c.id, side=side, units=gone))
            for u in gone:
                _destroy(ctx, u)
    p = O.parse_result(c.result["result"])
    shatter = (p["shatter"] or p["breakthrough"]) and not c.converted
    retreat = p["retreat"] or ((p["shatter"] or p["breakthrough"]) and bool(c.converted))
    survivors = _defenders(state, c)
    shattered, destroyed, retreating = [], [], []
    if shatter:
        for u in survivors:
            if retreat_options(state, c, u.id, c.hex)[1]:
                shattered.append(u.id)  # "put each surviving defending land unit in the production pool"
            else:
                destroyed.append(u.id)  # "Destroy any units that could not have retreated."
    elif retreat:
        retreating = [u.id for u in survivors]
    disorganized = []
    if not p["asterisk"]:
        organized = [u.id for u in _living_attackers(state, c) if u.face_up]
        chosen = ctx.host.pm.hook.land_combat_disorganized(state=state, combat=c, side="attacker", units=organized,
                                                           result=c.result)
        disorganized += organized if chosen is None else list(chosen)
    losses = c.result["losses"]
    if retreating or losses["defender"] > losses["attacker"]:
        disorganized += [u.id for u in survivors if u.face_up and u.id not in shattered + destroyed]
    for uid in shattered:
        ctx.emit(UnitMoved(unit=uid, to_hex=None, to_where="production-pool"))
    for uid in destroyed:
        _destroy(ctx, uid)
    for uid in disorganized:
        ctx.emit(UnitFlipped(unit=uid, face_up=False))
    empty = not [u for u in O.land_units(state, c.hex) if u.id not in retreating
                 and O.hostile(state, c.powers[0], u.power) and O.unit_type(u) not in O.SUPPLY_TYPES]
    advance = (empty or bool(retreating)) and bool(_living_attackers(state, c))
    # Shatter: "If it is possible for only 1 unit to retreat and there are 2 or more units to
    # retreat, then all the units will survive and the excess placed in the production pool
    # ... provided the attacker changes the S/B result to a retreat."
    converted_sb = (p["shatter"] or p["breakthrough"]) and bool(c.converted)
    excess_to_pool = (converted_sb and len(retreating) >= 2
                      and any(retreat_options(state, c, uid, c.hex)[1] for uid in retreating))
    ctx.emit(LandCombatOutcome(combat=c.id, retreating=retreating, shattered=shattered, destroyed=destroyed,
                               disorganized=disorganized, advance=advance,
                               breakthrough=p["breakthrough"] and not c.converted, excess_to_pool=excess_to_pool))
    _auto_retreats(ctx, c)


# ---------------------------------------------------------------- retreats
def _stack_ok(state, hex_, unit) -> bool:
    land = O._land()
    here = [u for u in O.land_units(state, hex_) if u.id != unit.id] + [unit]
    if land is not None:
        try:
            return land.land_stack_ok(here)
        except Exception:
            pass
    n = len(here)  # Over-Stacked Hex: 2 land units, 3 if the 3rd is a division, artillery or supply
    return n <= 2 or (n == 3 and any(O.is_division(u) or O.unit_type(u) in ("art", "sup", "supply") for u in here))


def _enemy_zoc(state, power: str) -> set:
    land = O._land()
    if land is not None:
        try:
            return land.enemy_zoc(state, power)
        except Exception:
            pass
    out = set()
    grid = core.world_map().grid
    for u in state["units"].units.values():
        if u.branch == "land" and u.on_map and O.hostile(state, power, u.power):
            out.add(O.norm(u.hex))
            if not O.is_division(u):
                out.update(grid.neighbours(O.norm(u.hex)))
    return out


def _can_enter(state, unit, hex_, from_hex) -> bool:
    """A hex a land unit could move into: land it can enter, no enemy land units, not neutral."""
    m = core.world_map()
    land = O._land()
    if land is not None:
        try:
            if land.hex_cost(state, hex_) is None:
                return False
        except Exception:
            land = None
    if land is None and not m.is_land(hex_):
        return False
    if O.hexside_kind(state, from_hex, hex_) == "lake":
        return False
    if any(O.hostile(state, unit.power, u.power) for u in O.land_units(state, hex_)):
        return False
    owner = core.hex_controller(state, hex_)
    if owner is None:
        return False  # a neutral country
    return owner == unit.power or _side(state, owner) == _side(state, unit.power) or O.hostile(state, unit.power, owner)


def retreat_options(state, c: Combat, unit_id: str, from_hex) -> tuple[int, list]:
    """Land Combat, Retreats: the legal hexes of the best priority (1-4) for one unit.

    1 not in an enemy ZOC and not over-stacking; 2 not in an enemy ZOC, over-stacking; 3 in an
    enemy ZOC with a friendly land unit, not over-stacking; 4 the same, over-stacking.  Never
    back into the hex the retreat started from (nor, continuing a retreat, into a hex the unit
    has already retreated out of)."""
    unit = _units(state)[unit_id]
    zoc = _enemy_zoc(state, unit.power)
    left = {core.key_hex(k) for k in c.retreat_trail.get(unit_id, [])}
    best: dict[int, list] = {}
    for n in core.world_map().grid.neighbours(O.norm(from_hex)):
        if n == c.hex or n in left or not _can_enter(state, unit, n, from_hex):
            continue
        friends = [u for u in O.land_units(state, n) if _side(state, u.power) == _side(state, unit.power)]
        over = not _stack_ok(state, n, unit)
        if n not in zoc:
            pr = 2 if over else 1
        elif friends:
            pr = 4 if over else 3
        else:
            continue
        best.setdefault(pr, []).append(n)
    if not best:
        return 0, []
    pr = min(best)
    return pr, sorted(best[pr])


def _retreat_one(ctx, c: Combat, unit_id: str, to_hex, pr: int) -> None:
    """Move one retreating unit.  Retreats: "If the unit ends in a hex which is still to be
    attacked, or where it is overstacked, continue retreating the unit according to the same
    priorities (or destroy it if this is not possible)" — so a priority 2 or 4 retreat goes
    on from the over-stacked hex instead of destroying the unit at once."""
    state = ctx.state
    unit = _units(state)[unit_id]
    start = O.norm(unit.hex)
    still_attacked = any(o.hex == O.norm(to_hex) and o.id != c.id for o in _waiting_combats(state))
    over = pr in (2, 4)
    reason = ("over-stacked there: keeps retreating" if over
              else "ends in a hex still to be attacked: keeps retreating" if still_attacked else "")
    ctx.emit(UnitMoved(unit=unit_id, to_hex=O.norm(to_hex)))
    ctx.emit(UnitRetreated(combat=c.id, unit=unit_id, from_hex=start, to_hex=O.norm(to_hex), priority=pr,
                           done=not (still_attacked or over), reason=reason))


def _cannot_retreat(ctx, c: Combat, unit) -> None:
    """Retreats: "Destroy a unit if it can't retreat under any of these priorities" (and "If
    overstacking causes units to be destroyed, retreating units are destroyed") — unless a
    converted S/B result lets the excess survive in the production pool (Shatter)."""
    here = O.norm(unit.hex)
    if c.excess_to_pool:
        ctx.emit(UnitRetreated(combat=c.id, unit=unit.id, from_hex=here, to_hex=None, to_pool=True,
                               reason="only some units could retreat: the excess goes to the production pool"))
        ctx.emit(UnitMoved(unit=unit.id, to_hex=None, to_where="production-pool"))
        return
    over = c.retreat_trail.get(unit.id) and not _stack_ok(ctx.state, here, unit)
    ctx.emit(UnitRetreated(combat=c.id, unit=unit.id, from_hex=here, to_hex=None,
                           reason="over-stacked and no hex to retreat on into" if over else "no hex to retreat into"))
    _destroy(ctx, unit.id)


def _auto_retreats(ctx, c: Combat) -> None:
    """Retreat Units: "Should there be only one possible retreat hex, then MWIF implements the
    retreat"; a unit that can't retreat is destroyed."""
    changed = True
    while changed:
        changed = False
        c = cs(ctx.state).combats[c.id]
        for uid in list(c.retreating):
            unit = _units(ctx.state)[uid]
            pr, hexes = retreat_options(ctx.state, c, uid, unit.hex)
            if not hexes:
                _cannot_retreat(ctx, c, unit)
                changed = True
            elif len(hexes) == 1:
                _retreat_one(ctx, c, uid, hexes[0], pr)
                changed = True
            if changed:
                break


def retreat_unit(ctx, cmd: RetreatUnit) -> None:
    state = ctx.state
    c = current_combat(state)
    if cmd.unit not in c.retreating:
        raise Rejected(f"Retreat Units: {cmd.unit} is not retreating from this combat")
    unit = _units(state)[cmd.unit]
    pr, hexes = retreat_options(state, c, cmd.unit, unit.hex)
    to = O.norm(cmd.to_hex)
    if to not in hexes:
        raise Rejected(f"Land Combat, retreats: {unit.name or unit.id} must retreat by priority {pr} into one of "
                       f"{', '.join(f'{h[0]},{h[1]}' for h in hexes)}")
    _retreat_one(ctx, c, cmd.unit, to, pr)
    _auto_retreats(ctx, c)
    if not cs(ctx.state).combats[c.id].retreating:
        _finish(ctx, cmd.actor)


# ---------------------------------------------------------------- advance after combat
def _hex_cost(state, hex_) -> int:
    land = O._land()
    if land is not None:
        try:
            cost = land.hex_cost(state, hex_)
            if cost is not None:
                return cost
        except Exception:
            pass
    return 1 if O.hex_terrain(state, hex_) in ("clear", "desert") else 2


def advance_unit(ctx, cmd: AdvanceUnit) -> None:
    """Land Combat, advancing after combat step."""
    state = ctx.state
    c = current_combat(state)
    rule = "Land Combat, advance after combat"
    unit = _units(state).get(cmd.unit)
    if unit is None or cmd.unit not in c.attackers or not unit.on_map:
        raise Rejected(f"{rule}: only surviving attacking units of this combat can advance ({cmd.unit} is not one)")
    to = O.norm(cmd.to_hex)
    second = to != c.hex
    enemy_here = any(O.hostile(state, unit.power, u.power) for u in O.land_units(state, to))
    if enemy_here and not (second and c.breakthrough):
        raise Rejected(f"{rule}: ignore enemy ZOCs but not enemy land units; {to[0]},{to[1]} holds enemy land units")
    overrun = None
    if not second:
        if cmd.unit in c.advanced:
            raise Rejected(f"{rule}: {unit.name or unit.id} has already advanced")
        if not O.adjacent(unit.hex, c.hex):
            raise Rejected(f"{rule}: {unit.name or unit.id} is not next to the attacked hex")
    else:
        if not c.breakthrough:
            raise Rejected(f"{rule}: only a 'B' result (not converted) allows a second hex; the first hex of the "
                           "advance must be the defending hex")
        if cmd.unit not in c.advanced or cmd.unit in c.second or O.norm(unit.hex) != c.hex:
            raise Rejected(f"{rule}: the first hex of the advance must be the defending hex, and a unit advances "
                           "a second hex only once")
        if not O.adjacent(c.hex, to):
            raise Rejected(f"{rule}: the second hex must be next to the defending hex")
        if _hex_cost(state, c.hex) != 1:
            raise Rejected(f"{rule}: a second hex only if the defending hex cost 1 movement point (weather included)")
        t = O.unit_type(unit)
        if t not in O.ARM_TYPES | O.MECH_TYPES:
            leaders = [_units(state)[i] for i in c.second if O.norm(_units(state)[i].hex) == to
                       and O.unit_type(_units(state)[i]) in O.ARM_TYPES | O.MECH_TYPES]
            if t not in ("mot", "cav") or not leaders or (
                    not O.is_division(unit) and all(O.is_division(x) for x in leaders)):
                raise Rejected(f"{rule}: a second hex is for HQ-A, ARM and MECH units, and MOT and CAV stacked with "
                               "the same HQ-A, ARM or MECH unit (MOT/CAV corps not with only an ARM/MECH division)")
        if enemy_here:
            if "land" not in ctx.host.infos:
                raise Rejected(f"{rule}: {to[0]},{to[1]} holds enemy land units (no overrun rules in this game)")
            overrun = _second_hex_overrun(state, unit, to, rule)
        elif not _can_enter(state, unit, to, c.hex):
            raise Rejected(f"{rule}: {unit.name or unit.id} can't move into {to[0]},{to[1]}")
    if overrun is None and not _stack_ok(state, to, unit):
        raise Rejected(f"{rule}: Over-Stacked Hex: {to[0]},{to[1]} can't hold {unit.name or unit.id}")
    cost = _hex_cost(state, to)
    disorg = cost >= 2 if second else cost > int(unit.factors.get("move", 0))
    if overrun is not None:
        from plugins.rules.land import LandUnitsOverrun

        odds, defenders = overrun
        ctx.emit(LandUnitsOverrun(hex=to, units=defenders, by=unit.id, power=unit.power, odds=odds))
        for uid in defenders:
            _destroy(ctx, uid)  # the hex is then empty of land units: no over-stacking
    ctx.emit(UnitMoved(unit=unit.id, to_hex=to))
    ctx.emit(UnitAdvanced(combat=c.id, unit=unit.id, to_hex=to, second=second, disorganized=disorg))
    if disorg and _units(ctx.state)[unit.id].face_up:
        ctx.emit(UnitFlipped(unit=unit.id, face_up=False))
    if core.hex_controller(ctx.state, to) != unit.power:
        ctx.emit(core.HexControlChanged(hex=to, power=unit.power))
    for other in _waiting_combats(ctx.state):
        if other.hex == to:
            ctx.emit(AttackCancelled(combat=other.id, reason="the hex was occupied by an advance after combat"))


def _second_hex_overrun(state, unit, to, rule: str) -> tuple[float, list[str]]:
    """Land Combat: "You can conduct an overrun (see RAC 11.11.6) in the second hex" — judged
    by the land plugin's overrun check (odds, movement points, supply) from the defending hex;
    returns (odds, the overrun units' ids)."""
    from plugins.rules.land.overrun import overrun_check

    try:
        _path, _cost, odds, defenders = overrun_check(state, unit, path=[to])
    except Rejected as refused:
        raise Rejected(f"{rule}: the second hex holds enemy land units and can't be overrun: {refused}")
    return odds, defenders


# ---------------------------------------------------------------- hooks
COMMANDS = (
    (DeclareAttack, declare_attack), (IncludeNotional, include_notional), (DeclareHQSupport, declare_hq_support),
    (SelectLandCombat, select_land_combat), (UseSnowUnits, use_snow_units), (ChooseLandCombatType, choose_type),
    (ResolveCombat, resolve_combat), (ConvertToRetreat, convert_to_retreat), (AssignLandLosses, assign_losses),
    (RetreatUnit, retreat_unit), (AdvanceUnit, advance_unit),
)


@hookimpl
def event_hexes(event, state):
    """The hexes a land-combat event touched: the defending hex (a combat's id is its hex
    key), and where a unit retreated or advanced from and to."""
    d = event.data
    if event.type not in {m.__name__ for m in EVENTS} or not d.get("combat"):
        return None
    try:
        hexes = [core.key_hex(d["combat"])]
    except ValueError:
        return None
    for field in ("from_hex", "to_hex"):
        if d.get(field) is not None:
            hexes.append(tuple(d[field]))
    return hexes


@hookimpl
def register_state(register):
    register("combat", CombatState)


@hookimpl
def register_events(register):
    for model in EVENTS:
        register(model)


@hookimpl
def register_reducers(register):
    for name, fn in REDUCERS.items():
        register(name, fn)


@hookimpl
def register_commands(register):
    for model, handler in COMMANDS:
        register(model, handler)


@hookimpl
def register_step_rules(register):
    register(f"{COMBAT}.ground-support.hq-support-rolls", hq_support_rolls)
    register(f"{COMBAT}.land-combat-resolution", land_combat_resolution)
    register(f"{PROC}.land-combat-die-rolls", land_combat_die_rolls)
    register(f"{PROC}.assign-losses.apply-losses", apply_losses)


def _declared_this_impulse(state) -> list[Combat]:
    s = cs(state)
    if tuple(s.stamp) != _stamp(state):
        return []
    return [c for c in s.combats.values() if c.stage != "cancelled"]


@hookimpl
def skip_step(state, step_id, spec):
    if step_id == f"{COMBAT}.ignore-notional":
        if not any(c.forced for c in _declared_this_impulse(state)):
            return "no invasion or paradrop was made"
        return None
    if step_id in (f"{COMBAT}.defending-hq-support", f"{COMBAT}.attacking-hq-support",
                   f"{COMBAT}.ground-support.hq-support-rolls"):
        if not hq_support_in_play(state):
            return "optional rule HQ support (option 13) is not in play"
        if not _declared_this_impulse(state):
            return "no land attack was declared"
        if step_id.endswith("hq-support-rolls") and not any(c.hq for c in _declared_this_impulse(state)):
            return "no HQ support was declared"
        return None
    if not step_id.startswith(PROC + "."):
        return None
    c = current_combat(state)
    leaf = step_id[len(PROC) + 1:]
    if c is None:
        return None if leaf == "select-land-combat" else "no land combat left to resolve"
    if leaf == "select-land-combat":
        return f"the combat at {O.place_name(c.hex)} is chosen"
    if leaf == "non-phasing-snow-decision":
        return "snow units give the defending side no benefit in land combat (Weather Report)"
    if leaf == "phasing-snow-decision":
        if c.stage != "selected" or not _evaluate(state, c)["snow_units_eligible"]:
            return "no benefit from snow units in this combat"
        return None
    if leaf in ("choose-combat-type", "choose-combat-type.assault-or-blitz"):
        return None if c.stage == "selected" else "the combat type is chosen"
    if leaf in ("choose-combat-type.resolve-combat", "land-combat-die-rolls"):
        return None if c.stage == "typed" else "the combat is resolved"
    if leaf == "convert-shattered-results":
        p = O.parse_result(c.result["result"]) if c.result else {}
        if c.stage != "rolled" or not (p.get("shatter") or p.get("breakthrough")):
            return "the result is not Shattered or Breakthrough"
        return None
    if leaf in ("assign-losses", "assign-losses.apply-losses"):
        return None if c.stage == "rolled" else "losses are applied"
    if leaf == "change-hex-control":
        return "no invasion or paradrop succeeded in this combat"
    if leaf == "retreat-units":
        return None if c.stage == "applied" and c.retreating else "no unit to retreat"
    if leaf == "advance-after-combat":
        return None if c.stage == "applied" and c.advance else "the attacked hex still holds enemy land units"
    return None


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if step_id == f"{COMBAT}.ignore-notional.include-notional-units":
        return sorted({p for c in _notional_pending(state) if (p := _defending_leader(state, c))})
    if not step_id.startswith(PROC + "."):
        return None
    c = current_combat(state)
    if c is None:
        if kind == "rule:phasing-team-leader":
            leader = team_leader(state, state.kernel.active_side)
            return [leader] if leader else []
        return []
    if kind in ("rule:phasing-team-leader", "rule:phasing-dm"):
        leader = team_leader(state, _attacking_side(state, c))
        return [leader] if leader else []
    if kind == "rule:non-phasing-dm":
        leader = _defending_leader(state, c)
        return [leader] if leader else []
    if kind in ("rule:land-combat-type-chooser", "rule:land-combat-type-team-leader"):
        p = _chooser_power(state, c)
        return [p] if p else []
    if kind == "rule:team-leaders":
        return sorted(set(_sides_to_choose(state, c).values()))
    return None


def _hx(h) -> str:
    return O.place_name(tuple(h))


@hookimpl
def describe_event(event, state):
    d = event.data
    t = event.type
    if t == "AttackDeclared":
        what = f" ({d['forced']})" if d.get("forced") else ""
        return f"{d['power']} declares an attack{what} on {_hx(d['hex'])} with {', '.join(_names(state, d['units']))}"
    if t == "AttackCancelled":
        return f"The attack on {_hx(core.key_hex(d['combat']))} is off: {d['reason']}"
    if t == "NotionalDecided":
        return f"{d['power']} {'includes' if d['include'] else 'ignores'} the notional unit at {_hx(core.key_hex(d['combat']))}"
    if t == "HQSupportDeclared":
        return f"{_names(state, [d['hq']])[0]} announces {d['side']} HQ support at {_hx(core.key_hex(d['combat']))}"
    if t == "HQSupportRolled":
        ok = "succeeds" if d["success"] else "fails"
        return f"HQ support by {_names(state, [d['hq']])[0]} {ok} (roll {d['roll']}, needed {d['needed']} or less)"
    if t == "GroundSupportAdded":
        return f"Ground support adds {d['factors']:g} factors to the {d['side']} at {_hx(core.key_hex(d['combat']))}"
    if t == "LandCombatSelected":
        return f"Land combat at {_hx(core.key_hex(d['combat']))} is resolved next" if d["combat"] else None
    if t == "SnowUnitsDecided":
        return f"The attacker {'uses' if d['use'] else 'does not use'} its snow units' benefit"
    if t == "LandCombatTableChosen":
        return f"The {d['side']} side chooses the {d['table'].capitalize()} table at {_hx(core.key_hex(d['combat']))}"
    if t == "LandCombatResolved":
        table = d["table"].capitalize()
        if d["roll"] is None:
            return f"Land combat at {d['place']}, no defending factors, {table} → {d['result']} (automatic)"
        mod = f" (modified {d['modified']})" if d["modified"] != d["roll"] else ""
        return (f"Land combat at {d['place']}, {d['attack']} against {d['defence']}, {d['odds']} {table}, "
                f"roll {d['roll']}{mod} → {d['result']}")
    if t == "ShatterConverted":
        return "The attacker converts the result to a retreat" if d["convert"] else "The attacker keeps the result"
    if t == "LandLossesTaken":
        return f"The {d['side']} loses {', '.join(_names(state, d['units']))}"
    if t == "LandCombatOutcome":
        parts = []
        if d["shattered"]:
            parts.append("shattered to the production pool: " + ", ".join(_names(state, d["shattered"])))
        if d["retreating"]:
            parts.append("to retreat: " + ", ".join(_names(state, d["retreating"])))
        if d["disorganized"]:
            parts.append(f"{len(d['disorganized'])} unit(s) disorganized")
        if d["advance"]:
            parts.append("the attacker may advance" + (" (breakthrough)" if d["breakthrough"] else ""))
        return "Combat outcome: " + ("; ".join(parts) or "no further effect")
    if t == "UnitRetreated":
        name = _names(state, [d["unit"]])[0]
        if d["to_hex"] is None:
            fate = "goes to the production pool" if d.get("to_pool") else "is destroyed"
            return f"{name} can't retreat and {fate} ({d['reason']})"
        return f"{name} retreats to {_hx(d['to_hex'])}" + (f" and {d['reason']}" if d["reason"] else "")
    if t == "UnitAdvanced":
        name = _names(state, [d["unit"]])[0]
        extra = " (disorganized)" if d["disorganized"] else ""
        return f"{name} advances after combat into {_hx(d['to_hex'])}{extra}"
    return None


def _names(state, ids) -> list[str]:
    units = state["units"].units
    return [(units[i].name or units[i].type) if i in units else i for i in ids]
