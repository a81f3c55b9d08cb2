"""Optional rule Offensive chits (seeds, "Pick HQ" L4258-4362; "Choose Action": "If a major
power possesses an offensive chit, then he may use it at this time").

``PlayOffensiveChit {hq, reorganize_hqs}``, in the Choose Action step before the power chooses
its action: the chit is used up (``OffensiveChitPlayed``).  With ``hq`` (an organized, in-supply
HQ of the power on the map) the benefits apply within the HQ's range, its reorganization value
in hexes ("ignoring terrain, neutral countries, enemy units and their ZOCs"), for the impulse:
an extra die in every ground strike (air or land action: the air plugin's hook
``ground_strike_extra_dice``) and doubled bombing factors in ground support (air action:
``ground_support_factor``); a combined action allows "the maximum number of activities that
would be allowed if you had chosen a naval, an air and a land action" (core's ``ActionWidened``,
read by turn's activity limits); "at the end of your impulse, the chosen HQ becomes disorganized".
Land action: ``DoubleWithOffensiveChit {units}`` while a land combat is resolved, before its
die roll: "you can double the combat factors of this major power's land units within range of
the HQ when you calculate the final odds for the overrun or land combat", at most twice the HQ's
reorganization value a impulse, each unit once per combat (``double_problem``; combat's hook
``land_attack_factor`` doubles them).
Not in this edition, in the seeds' words: doubling in an overrun (an overrun's odds are judged
inside the land move that makes it, which has no such field yet); "every land unit reorganized
by that HQ only costs half the usual reorganization point cost" and its air and combined twins
(reorganization costs here are paid with the HQ's own reorganization range, not points);
"double field artillery ... combat factors for ground support" (field artillery gives no ground
support here).  Not in Barbarossa, which has neither: the naval action's re-rolls ("specify one
of your organized HQs that is in a port hex.  Any naval or aircraft unit stacked in that hex that
initiates a naval combat ... may require ... re-roll dice": the scenario has no naval units or
naval combat; the seeds also list a rule "Naval offensive chit" with "the prerequisite: Offensive
chits", catalogued apart) and buying chits ("Each offensive chit costs 15 build points and takes 3 turns to
build": the scenario has no production, so the chits are authored).
With ``reorganize_hqs`` every HQ of the power is reorganized at once ("instead of gaining the
normal benefits").  Chits held: ``data/offensive_chits.json`` (authored: see its header).
Handler, choices and preview ask ``play_problem``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from kernel.choices import Field as ChoiceField, Option, one_of
from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from kernel.registry import Registry
from plugins.optional.framework import is_on
from plugins.rules import core
from plugins.rules.combat.state import current_combat
from plugins.rules.supply import in_supply, reorg_value
from plugins.rules.units import UnitFlipped, units

rules = Registry()

RULE_ID = "offensive-chits"
RULE = "Offensive chits"
STEP = "wif.turn.impulse.new-impulse.choose-action"
IMPULSE_END = "wif.turn.impulse.end-of-impulse.end-of-turn-check"
DATA = Path(__file__).resolve().parent / "data" / "offensive_chits.json"


@cache
def _data() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


@rules.state("optional.offensive-chits")
class ChitState(BaseModel):
    used: dict[str, int] = Field(default_factory=dict)  # power -> chits played
    # power -> {"hq", "turn", "impulse", "doubled": {combat hex key: unit ids}}: the chit played
    # this impulse with an HQ's benefits, and the land units it doubled in each combat
    playing: dict[str, dict] = Field(default_factory=dict)


@rules.event
class OffensiveChitPlayed(EventData):
    power: str
    hq: str | None = None
    reorganize_hqs: bool = False


@rules.event
class LandFactorsDoubled(EventData):
    power: str
    combat: str  # the combat's id, its defending hex "col,row"
    units: list[str]


class DoubleWithOffensiveChit(Command):
    units: list[str]


class PlayOffensiveChit(Command):
    hq: str | None = None  # the HQ receiving the benefits
    reorganize_hqs: bool = False  # instead: reorganize every HQ of the power


def chit_state(state) -> ChitState:
    return state["optional.offensive-chits"]


@rules.reducer("OffensiveChitPlayed")
def _played(state, event) -> None:
    d = event.data
    s = chit_state(state)
    s.used[d["power"]] = s.used.get(d["power"], 0) + 1
    s.playing = {p: v for p, v in s.playing.items()
                 if (v["turn"], v["impulse"]) == (state.kernel.turn, state.kernel.impulse)}
    if d.get("hq"):
        s.playing[d["power"]] = {"hq": d["hq"], "turn": state.kernel.turn, "impulse": state.kernel.impulse,
                                 "doubled": {}}


@rules.reducer("LandFactorsDoubled")
def _doubled(state, event) -> None:
    d = event.data
    chit_state(state).playing[d["power"]].setdefault("doubled", {}).setdefault(d["combat"], []).extend(d["units"])


def chits_held(state, power: str) -> int:
    """Chits the power holds now (authored per scenario, less those played)."""
    turns = _data()["scenarios"].get(state.kernel.scenario or "", {}).get(power, [])
    return max(0, sum(1 for t in turns if t <= state.kernel.turn) - chit_state(state).used.get(power, 0))


def playing_hq(state, power: str):
    """The HQ of the chit ``power`` played this impulse, or None."""
    p = chit_state(state).playing.get(power)
    if p is None or (p["turn"], p["impulse"]) != (state.kernel.turn, state.kernel.impulse):
        return None
    return units(state).units.get(p["hq"])


def in_range(state, power: str, hex_) -> bool:
    """Is ``hex_`` within the range of the HQ of ``power``'s chit this impulse?"""
    hq = playing_hq(state, power)
    if hq is None or not hq.on_map or hex_ is None:
        return False
    return core.world_map().grid.distance(tuple(hq.hex), tuple(hex_)) <= reorg_value(hq)


def power_problem(state, power: str) -> str | None:
    if not is_on(state, RULE_ID):
        return f"{RULE}: this optional rule is not in play"
    k = state.kernel
    if k.sequence.current != STEP or power not in k.sequence.pending:
        return f"{RULE}: a chit is played when its major power chooses its action (Choose Action)"
    if core.action_of(state, power) is not None:
        return f"{RULE}: {power} has chosen its action already; a chit is played at the start of the action"
    if not any(power in pair for pair in core.world(state).at_war):
        return f"{RULE}: only a major power at war with another major power may use an offensive chit"
    if chits_held(state, power) < 1:
        return f"{RULE}: {power} holds no offensive chit"
    return None


def hq_problem(state, power: str, hq_id: str) -> str | None:
    hq = units(state).units.get(hq_id)
    if hq is None:
        return f"{RULE}: there is no unit {hq_id!r}"
    if not core.is_hq(hq) or not hq.on_map or hq.power != power:
        return f"{RULE}: {hq.name or hq.id} is not an HQ of {power} on the map"
    if not hq.face_up:
        return f"{RULE}: {hq.name or hq.id} is disorganized; the chit names an organized HQ"
    if not in_supply(state, hq.id):
        return f"{RULE}: {hq.name or hq.id} is out of supply; the benefits come from an in-supply HQ"
    return None


def play_problem(state, power: str, hq_id: str | None, reorganize_hqs: bool) -> str | None:
    """Why ``power`` may not play an offensive chit so now, or None."""
    problem = power_problem(state, power)
    if problem:
        return problem
    if reorganize_hqs:
        if hq_id:
            return f"{RULE}: reorganizing every HQ is instead of an HQ's benefits; name no HQ"
        return None
    if not hq_id:
        return f"{RULE}: name the HQ that receives the benefits, or reorganize every HQ"
    return hq_problem(state, power, hq_id)


def play_offensive_chit(ctx, cmd: PlayOffensiveChit) -> None:
    problem = play_problem(ctx.state, cmd.actor, cmd.hq, cmd.reorganize_hqs)
    if problem:
        raise Rejected(problem)
    ctx.emit(OffensiveChitPlayed(power=cmd.actor, hq=cmd.hq, reorganize_hqs=cmd.reorganize_hqs))
    if not cmd.reorganize_hqs:
        # Combined action: "the maximum number of activities that would be allowed if you had
        # chosen a naval, an air and a land action" (applies if the power chooses Combined)
        ctx.emit(core.ActionWidened(power=cmd.actor))
    if cmd.reorganize_hqs:
        for u in sorted(units(ctx.state).units.values(), key=lambda u: u.id):
            if u.power == cmd.actor and core.is_hq(u) and u.on_map and not u.face_up:
                ctx.emit(UnitFlipped(unit=u.id, face_up=True))


def play_choices(state, actor: str, step_id: str):
    if power_problem(state, actor) is not None:
        return None
    us = units(state).units
    hqs = sorted(u.id for u in us.values() if u.power == actor and core.is_hq(u) and u.on_map
                 and hq_problem(state, actor, u.id) is None)
    options = [Option(False, "an HQ's benefits this impulse",
                      then=lambda: [one_of("hq", "unit", hqs, label=lambda h: f"HQ {us[h].name or h}")])]
    if not hqs:
        options = []
    options.append(Option(True, "reorganize every HQ instead"))
    return [ChoiceField("reorganize_hqs", "bool", options)]


def play_preview(state, cmd: PlayOffensiveChit) -> dict:
    problem = play_problem(state, cmd.actor, cmd.hq, cmd.reorganize_hqs)
    if problem:
        raise Rejected(problem)
    if cmd.reorganize_hqs:
        flipped = sorted(u.id for u in units(state).units.values()
                         if u.power == cmd.actor and core.is_hq(u) and u.on_map and not u.face_up)
        return {"reorganized": flipped, "chits_left": chits_held(state, cmd.actor) - 1}
    hq = units(state).units[cmd.hq]
    return {"hq": cmd.hq, "range": reorg_value(hq), "chits_left": chits_held(state, cmd.actor) - 1}


rules.command(PlayOffensiveChit, anytime=True, choices=play_choices, preview=play_preview)(play_offensive_chit)


# ---------------------------------------------------------------- land action: doubled factors
OPEN_BEFORE_ROLL = ("selected", "typed")


def _doubled_here(state, power: str) -> dict[str, list[str]]:
    return chit_state(state).playing[power].get("doubled", {}) if playing_hq(state, power) is not None else {}


def doubles_left(state, power: str) -> int:
    """Units ``power`` may still double this impulse: twice the HQ's reorganization value, less
    those doubled (a unit doubled in two combats counts twice)."""
    hq = playing_hq(state, power)
    if hq is None:
        return 0
    return 2 * reorg_value(hq) - sum(len(ids) for ids in _doubled_here(state, power).values())


def doubling_combat(state, power: str):
    """The land combat ``power`` may double units in now, or a reason why none."""
    if not is_on(state, RULE_ID):
        return None, f"{RULE}: this optional rule is not in play"
    if playing_hq(state, power) is None:
        return None, f"{RULE}: {power} played no offensive chit on an HQ this impulse"
    if core.action_of(state, power) != "land":
        return None, f"{RULE}: land units are doubled in a land action (Pick HQ, Land action)"
    c = current_combat(state)
    if c is None or c.stage not in OPEN_BEFORE_ROLL:
        return None, f"{RULE}: units are doubled in a land combat being resolved, before its die roll"
    return c, None


def doublable(state, power: str, c) -> list[str]:
    """The attackers of combat ``c`` ``power`` may double: its land units within the HQ's range
    not doubled in this combat yet ("You can only double each unit once per ... land combat")."""
    us = units(state).units
    done = set(_doubled_here(state, power).get(c.id, []))
    return [uid for uid in c.attackers if uid in us and us[uid].power == power and uid not in done
            and in_range(state, power, us[uid].hex)]


def double_problem(state, power: str, unit_ids: list[str]) -> str | None:
    """Why ``power`` may not double ``unit_ids`` in the land combat being resolved, or None."""
    c, problem = doubling_combat(state, power)
    if problem:
        return problem
    if not unit_ids:
        return f"{RULE}: name the land units to double"
    if len(set(unit_ids)) != len(unit_ids):
        return f"{RULE}: a unit is doubled once per combat; {', '.join(unit_ids)} names one twice"
    allowed = set(doublable(state, power, c))
    for uid in unit_ids:
        if uid not in allowed:
            return (f"{RULE}: {uid!r} is no attacker of {power} within the HQ's range in the combat at "
                    f"{c.id} that is not doubled yet")
    left = doubles_left(state, power)
    if len(unit_ids) > left:
        return f"{RULE}: {power} may double {left} more unit(s) this impulse (twice the HQ's reorganization value)"
    return None


def double_with_chit(ctx, cmd: DoubleWithOffensiveChit) -> None:
    problem = double_problem(ctx.state, cmd.actor, cmd.units)
    if problem:
        raise Rejected(problem)
    c = current_combat(ctx.state)
    ctx.emit(LandFactorsDoubled(power=cmd.actor, combat=c.id, units=list(cmd.units)))


def double_choices(state, actor: str, step_id: str):
    c, problem = doubling_combat(state, actor)
    if problem:
        return None
    found, left = doublable(state, actor, c), doubles_left(state, actor)
    if not found or left < 1:
        return None
    us = units(state).units
    return [ChoiceField("units", "units", [Option(uid, us[uid].name or uid) for uid in found], min=1,
                        max=min(left, len(found)), label="land units to double")]


def double_preview(state, cmd: DoubleWithOffensiveChit) -> dict:
    problem = double_problem(state, cmd.actor, cmd.units)
    if problem:
        raise Rejected(problem)
    us = units(state).units
    return {"doubled": list(cmd.units), "combat_factors_added": sum(us[u].factors.get("combat", 0) for u in cmd.units),
            "doubles_left": doubles_left(state, cmd.actor) - len(cmd.units)}


rules.command(DoubleWithOffensiveChit, anytime=True, choices=double_choices, preview=double_preview)(double_with_chit)


@hookimpl(optionalhook=True)
def land_attack_factor(state, unit, hex_, factor):
    """Land action: a unit doubled in the combat at ``hex_`` attacks with twice its factors."""
    if not is_on(state, RULE_ID) or unit.power not in chit_state(state).playing:
        return None
    return factor * 2 if unit.id in _doubled_here(state, unit.power).get(core.hex_key(hex_), []) else None


@rules.describe("LandFactorsDoubled")
def _say_doubled(event, state):
    d = event.data
    us = units(state).units
    names = ", ".join(us[u].name or u if u in us else u for u in d["units"])
    return f"{d['power']} doubles with its offensive chit, in the combat at {d['combat']}: {names}"


# ---------------------------------------------------------------- the benefits
@hookimpl(optionalhook=True)
def ground_strike_extra_dice(state, bomber, target):
    """Air and land actions: "receive an extra die roll during ground strike" within range."""
    if not is_on(state, RULE_ID) or core.action_of(state, bomber.power) not in ("air", "land"):
        return None
    target_unit = units(state).units.get(target) if isinstance(target, str) else target
    where = getattr(target_unit, "hex", None)
    return 1 if in_range(state, bomber.power, where) else None


@hookimpl(optionalhook=True)
def ground_support_factor(state, unit, hex_, side, factor):
    """Air action: aircraft "double their bombing factors in any other air mission ... within
    range of the HQ"."""
    if not is_on(state, RULE_ID) or core.action_of(state, unit.power) != "air":
        return None
    return factor * 2 if in_range(state, unit.power, hex_) else None


@hookimpl
def step_ended(ctx, step_id, spec):
    """ "At the end of your impulse, the chosen HQ becomes disorganized if it isn't already." """
    if step_id != IMPULSE_END or not is_on(ctx.state, RULE_ID):
        return
    for power in sorted(chit_state(ctx.state).playing):
        hq = playing_hq(ctx.state, power)
        if hq is not None and hq.face_up:
            ctx.emit(UnitFlipped(unit=hq.id, face_up=False))


@rules.describe("OffensiveChitPlayed")
def _say_played(event, state):
    d = event.data
    if d["reorganize_hqs"]:
        return f"{d['power']} plays an offensive chit: every HQ is reorganized"
    hq = units(state).units.get(d["hq"])
    return f"{d['power']} plays an offensive chit on HQ {hq.name if hq and hq.name else d['hq']}"


rules.export(globals())
