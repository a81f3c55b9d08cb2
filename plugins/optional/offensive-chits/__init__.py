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
Land action (``land_action.py``): land units doubled in overruns and land combats, and half-cost
reorganization (also in air and combined actions).
"You can also double field artillery (see RAC 22.4.2) combat factors for ground support": the
field artillery's ground support of the optional rule Artillery asks ``ground_support_factor``
too (land action, within range).  Not in Barbarossa, which
has neither: the naval action's re-rolls ("specify one of your organized HQs that is in a port
hex.  Any naval or aircraft unit stacked in that hex that initiates a naval combat ... may
require ... re-roll dice": the scenario has no naval units or naval combat; the seeds also list a
rule "Naval offensive chit" with "the prerequisite: Offensive chits", catalogued apart) and
buying chits ("Each offensive chit costs 15 build points and takes 3 turns to build": the
scenario has no production, so the chits are authored).
With ``reorganize_hqs`` every HQ of the power is reorganized at once ("instead of gaining the
normal benefits").  Chits held: ``data/offensive_chits.json`` (authored: see its header).
Handler, choices and preview ask ``play_problem``.
"""

from __future__ import annotations

from plugins.rules.core.names import power_name

from kernel.choices import Field as ChoiceField, Option, one_of
from kernel.errors import Rejected
from kernel.events import Command
from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on
from plugins.rules import core
from plugins.rules.supply import in_supply, reorg_value
from plugins.rules.units import UnitFlipped, units

from .land_action import (  # noqa: F401 - hookimpls and names of the land action
    DoubleWithOffensiveChit,
    doublable,
    double_problem,
    doubles_left,
    land_attack_factor,
    reorganization_cost,
)
from .state import (  # noqa: F401 - the plugin's public names
    OVERRUN,
    RULE,
    RULE_ID,
    ChitState,
    LandFactorsDoubled,
    OffensiveChitPlayed,
    chit_state,
    chits_held,
    in_range,
    playing_hq,
    rules,
)

STEP = "wif.turn.impulse.new-impulse.choose-action"
IMPULSE_END = "wif.turn.impulse.end-of-impulse.end-of-turn-check"


class PlayOffensiveChit(Command):
    hq: str | None = None  # the HQ receiving the benefits
    reorganize_hqs: bool = False  # instead: reorganize every HQ of the power


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
    range of the HQ".  Land action: "You can also double field artillery ... combat factors for
    ground support" (the only land units that give ground support: plugins/optional/artillery)."""
    if not is_on(state, RULE_ID):
        return None
    action = core.action_of(state, unit.power)
    if (action, unit.branch) not in (("air", "air"), ("land", "land")):
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
        return f"{power_name(d['power'])} plays an offensive chit: every HQ is reorganized"
    hq = units(state).units.get(d["hq"])
    return f"{power_name(d['power'])} plays an offensive chit on HQ {hq.name if hq and hq.name else d['hq']}"


rules.export(globals())
