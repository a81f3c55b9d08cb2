"""Air rules: air missions through the Air Mission sub-machine, air-to-air combat, air
rebase and return to base.  This module only registers; the rules are in the modules
named after the seed sections they implement:

- ``mission_kinds``: what makes each air mission phase different (who flies as its bomber,
  its targets, cargo, extra activities, performance, why it may not exist in a game); an
  optional rule adds a kind on import (plugins/optional/carpet-bombing);
- ``missions``: the mission phases and the Air Mission subphases (Combat Air Patrol, bombers
  and escorts, interceptors, which subphases are skipped); ``mission_choices``: what may fly
  where, and previews of a flight;
- ``air_transport``: Air Transport, Paradrop (its forced land attack through the combat
  plugin's ``declare_forced_attack``), Reorganization by Air Transport;
- ``strategic_bombardment``: Strategic Bombardment and its table (no target without
  production, as in Barbarossa);
- ``air_to_air``: air-to-air combat (RAC 14.3): strengths, rounds, dice and results;
  ``air_combat_decisions``: Select Location, Arrange Units (secret until both are ready),
  the affected unit, abort or stay;
- ``anti_aircraft``: Plot Anti-aircraft Fire (AA divisions; the AA table); ``anti_aircraft_fire_results``: its results;
- ``performed``: Air Mission Performed; Ground Strike and Ground Support;
- ``return_to_base``: after a mission, the Return to Base Digression, the end of turn;
- ``rebase``: Air Rebase; ``rebase_overrun``: air units in the Rebase Overrun Units
  Digression; ``aircraft``: ranges, bases, fighters, tactical factors;
- ``state``, ``events``, ``commands``, ``describe``.

How it runs:
- the mission phases (Strategic Bombardment, Carpet Bombing and Ground Strike in the
  Independent Air Missions stage, Air Transport and Paradrop in Land Movement, Ground Support
  in Land Combat, Reorganization by Air Transport at the end of the impulse) are automatic
  steps: each records ``AirMissionBegan`` and pushes ``procedures.air-mission``, or is
  skipped with the reason nobody can fly it;
- in that sub-machine the non-phasing side flies CAP (``FlyCAP``), the phasing side its
  bombers, air transports (``FlyMission.cargo``: the unit carried or organized) and
  escorts (``FlyMission``), in Ground Support the non-phasing side too, then both sides fly
  interceptors (``FlyIntercept``); Surprise Points Used is skipped (Port Attack only);
- the Air-to-air Combat subphase finds every hex with flying units of both sides and a
  fighter, and runs ``procedures.air-to-air-combat`` for each (``SelectAirCombat``,
  ``ArrangeAirLine``, ``ChooseAirCasualty``, ``AirCombatAbortOrStay``: each mandatory, so
  FinishStep is refused until it is made); dice and results are decided in its automatic
  steps;
- anti-aircraft fire: each side's AA units plot shots (``PlotAAFire``), the dice are rolled
  when the plotting step ends and the bombers' owners apply the damage (``ApplyAADamage``);
- the mission is performed in the Air Mission Performed subphase (``performed.perform``);
- a unit aborted in air-to-air combat returns to base at once: when the result step (or
  the abort-or-stay step) ends, ``step_ended`` pushes ``digressions.return-to-base`` for its
  owner (Return to Base Digression; no friendly hex in range destroys it);
- every other unit that flew returns to base (``ReturnAirToBase``; with no base in reach,
  ``hex`` null: destroyed) and is face down (disorganized) afterwards; ``RebaseAir`` in the
  Air Rebase stage does not disorganize.

Action gating and activity counting are the turn plugin's (``check_action``,
``use_activity``); ground support targets are the combat plugin's declared attacks, to
which ``GroundSupportAdded`` adds the factors flown (kept here too, keyed by the defending
hex, in ``state["air"].ground_support``: read them with ``ground_support(state, hex)``).
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.rules.supply import IMPULSE_BEGUN_STEP, record_impulse_supply

from . import air_combat_decisions as decisions
from . import anti_aircraft as aa
from . import anti_aircraft_fire_results as aa_results
# noqa: F401 - they register with ``rules`` (describers, commands) and with mission_kinds (missions)
from . import air_transport, describe, mission_choices, rebase, rebase_overrun, return_to_base, strategic_bombardment  # noqa: F401,E501
from .air_to_air import (
    a2a_result,
    a2a_table,
    air_to_air_step,
    attacker_fires,
    both_staying,
    rating,
    result_step,
    round_skip,
    side_dm,
    strength,
)
from .air_combat_decisions import sides_seen_by
from .aircraft import (
    DATA,
    bases_in_reach,
    check_mission_weather,
    distance,
    friendly_base,
    is_carrier,
    is_fighter,
    reach,
    rules_data,
    tactical_factor,
)
from .commands import (
    AirCombatAbortOrStay,
    ApplyAADamage,
    ArrangeAirLine,
    ChooseAirCasualty,
    FlyCAP,
    FlyIntercept,
    FlyMission,
    PlotAAFire,
    RebaseAir,
    RebaseAirUnit,
    ReturnAirToBase,
    SelectAirCombat,
)
from . import events  # noqa: F401  (its events and reducers join ``rules``)
from .hooks import HOOKSPECS
from .missions import (
    attacked_hexes,
    fly_cap,
    fly_intercept,
    fly_mission,
    mission_phase_skip,
    start_mission,
    subphase_skip,
    viable_target,
)
from .performed import perform
from .return_to_base import units_to_return
from .state import (
    A2A,
    AM,
    ARRANGE_UNITS,
    GROUND_STRIKE,
    GROUND_SUPPORT,
    MISSION_KIND,
    ROUND,
    SELECT_LOCATION,
    AirState,
    Combat,
    Flight,
    Mission,
    air,
    ground_support,
    rules,
)

# What other plugins and tests use; HOOKSPECS: the hooks published to optional rules (hooks.py)
__all__ = [
    "A2A", "AM", "ARRANGE_UNITS", "DATA", "GROUND_STRIKE", "GROUND_SUPPORT", "HOOKSPECS", "MISSION_KIND", "ROUND",
    "SELECT_LOCATION", "AirState", "Combat", "Flight", "Mission", "a2a_result", "a2a_table", "air", "attacked_hexes",
    "bases_in_reach", "check_mission_weather", "distance", "friendly_base", "ground_support", "is_carrier",
    "is_fighter", "perform", "rating", "reach", "rules_data", "side_dm", "sides_seen_by", "strength",
    "tactical_factor", "units_to_return", "viable_target",
]


# the commands and automatic steps, in the order they were always registered
m, d, r = mission_choices, decisions, return_to_base
rules.command(FlyCAP, choices=m.fly_cap_choices, preview=m.fly_cap_preview)(fly_cap)
rules.command(FlyMission, choices=m.fly_mission_choices, preview=m.fly_mission_preview)(fly_mission)
rules.command(FlyIntercept, choices=m.fly_intercept_choices, preview=m.fly_intercept_preview)(fly_intercept)
rules.command(SelectAirCombat, choices=d.select_choices, preview=d.select_preview)(d.select_air_combat)
rules.command(ArrangeAirLine, choices=d.arrange_choices, preview=d.arrange_preview)(d.arrange_air_line)
rules.command(ChooseAirCasualty, choices=d.casualty_choices, preview=d.casualty_preview)(d.choose_air_casualty)
rules.command(AirCombatAbortOrStay, choices=d.abort_choices, preview=d.abort_preview)(d.abort_or_stay)
rules.command(ReturnAirToBase, choices=r.return_choices, preview=r.return_preview)(r.return_air_to_base)
rules.command(RebaseAir, choices=rebase.rebase_choices, preview=rebase.rebase_preview)(rebase.rebase_air)
rules.command(PlotAAFire, choices=aa.plot_choices, preview=aa.plot_preview)(aa.plot_aa_fire)
rules.command(RebaseAirUnit, choices=rebase_overrun.rebase_overrun_choices,
              preview=rebase_overrun.rebase_overrun_preview)(rebase_overrun.rebase_air_unit)
rules.command(ApplyAADamage, choices=aa_results.damage_choices, preview=aa_results.damage_preview)(aa_results.apply_aa_damage)
del m, d, r

rules.step_rule(*MISSION_KIND)(start_mission)  # every air mission phase (mission_kinds.py)
rules.step_rule(f"{AM}.air-to-air-combat")(air_to_air_step)
rules.step_rule(f"{AM}.air-mission-performed")(perform)
rules.step_rule(f"{ROUND}.attacking-unit-result")(result_step("attacker"))
rules.step_rule(f"{ROUND}.attacker-fires")(attacker_fires)
rules.step_rule(f"{ROUND}.defending-unit-result")(result_step("defender"))
rules.step_rule(f"{ROUND}.both-staying")(both_staying)


@hookimpl
def skip_step(state, step_id, spec):
    if step_id in MISSION_KIND:
        return mission_phase_skip(state, step_id)
    if step_id in aa.RESULT_STEPS and not aa_results.pending_hexes(state):
        return "no anti-aircraft fire was plotted, or it did no damage"
    if step_id.startswith(AM + "."):
        return subphase_skip(state, step_id)
    if step_id.startswith(ROUND + "."):
        return round_skip(state, step_id)
    if step_id == SELECT_LOCATION:
        c = air(state).mission.combat
        if c is not None and not c.ended:
            return "only one air-to-air combat"
    return None


@hookimpl
def repeat_step(ctx, step_id, spec):
    if step_id == ROUND:
        c = air(ctx.state).mission.combat
        return bool(c and not c.ended)
    return None


@hookimpl
def event_view(event, player, view, state):
    if event.type == "AirLineArranged":
        decisions.hide_arrangement(event, player, view, state)


@hookimpl
def player_view(state, player, view):
    decisions.hide_arranged_lines(state, player, view)


@hookimpl
def finish_step_refusal(state, step_id, power):
    return (return_to_base.finish_refusal(state, step_id, power) or decisions.finish_refusal(state, step_id or "", power)
            or aa_results.damage_refusal(state, step_id or "", power) or rebase_overrun.finish_refusal(state, step_id or "", power))


@hookimpl
def step_ended(ctx, step_id, spec):
    if step_id == IMPULSE_BEGUN_STEP:
        # Air Transport: "the cargo only becomes disorganized if it commenced the impulse out of supply"
        powers = air_transport.cargo_powers(ctx.state)
        if powers:
            record_impulse_supply(ctx, powers)
    if step_id == ARRANGE_UNITS:
        decisions.reveal_lines(ctx)  # both sides are ready
    if step_id in aa.PLOT_STEPS:
        aa_results.roll_aa_fire(ctx, step_id)  # Anti-aircraft Fire Results (Die Rolls)
    aa_results.disorganize_after_combat(ctx, step_id)  # AA units that fired at ground support
    # Air-to-air Combat: Attacking / Defending Unit's Result: "if a unit is aborted, a
    # digression is necessary for the owner to perform a return to base for the air unit";
    # so too for a voluntary abort (an "A" result to every unit of the side).
    if step_id.startswith(A2A + ".") and air(ctx.state).mission.returning:
        return_to_base.send_aborted_home(ctx)


RTB_DECIDER_KINDS = ("rule:returning-power", "rule:last-phasing-powers", "rule:last-non-phasing-powers")


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if kind in RTB_DECIDER_KINDS:
        return return_to_base.deciders(state, step_id, kind)
    if kind == "rule:aa-damage-recipients":
        return aa_results.recipients(state)
    return decisions.deciders(state, step_id, kind)


rules.export(globals())
