"""Naval rules: naval units in ports and sea-area sections, naval movement, the war at sea.

This module only registers; the rules are in the modules named after the seed sections
they implement (README.md says what each holds and the data format of naval counters):

- ``state``: ``state["naval"]`` (who is at sea in which section, damage, what is aboard, the
  naval combat being fought); ``events``: its events and reducers;
- ``naval_units``: classes (data/naval.json), factors as damage changes them, ships and
  convoy points; ``embark``: transport capacity, carrier air units on carriers;
- ``sea_box_section``: sea areas, sections, ports, distances (read from the world map);
- ``naval_air``: Naval Air (``FlyToSeaArea``): aircraft at sea search, intercept and strike;
- ``naval_movement``: Naval Movement (``MoveNavalGroup``);
- ``naval_interception``: the Naval Interception Digression (``Intercept``, ``DeclineIntercept``,
  the interception search, ``StopOrFight``, the fight-through combat, ``StopInSeaBox``/``ContinueMove``);
- ``naval_combat``: the naval combat phases, Select Sea Area, Commit Subs, Search Die Rolls,
  Select Included Sea Boxes; ``naval_combat_round``: surprise, combat type, the round's end,
  voluntary aborts, the next round; ``naval_combat_abort_queue``: the Naval Combat Abort Queue
  and its digression (``MoveAbortingNaval``); ``naval_combat_results``: the chart, results, targets,
  damage, destruction, aborts to port; ``naval_combat_steps``: which step applies and who decides;
- ``naval_air_combat``: naval air combat's plane roles (``SetPlaneRole``), its air-to-air combat
  (the air plugin's), the ships' anti-aircraft fire and the air-to-sea attacks;
- ``overseas_supply``: overseas supply paths through sea areas to a friendly port, which the
  supply plugin's tracer asks (``supply.trace.OVERSEAS_LINKS``);
- ``port_attack``: Port Attack, an air mission kind of the air plugin's Air Mission sub-machine
  whose performance is an air-to-sea attack on the ships in port; ``port_attack_carrier_air``:
  carrier air units fly it from their carriers at sea (``FlyCarrierAirUnit``);
  ``carrier_combat_air_patrol``: they fly Combat Air Patrol over a threatened hex in
  every air mission phase;
- ``naval_transport``: embarking in port (``EmbarkUnits``), Unload Land Units (``DebarkUnit``),
  Invasion (``Invade``, a forced land attack through the combat plugin);
- ``shore_bombardment``: Attacking/Defending Shore Bombardment (``ShoreBombard``), Reorganization by
  Naval Transport (``NavalTransportReorganize``);
- ``return_to_base``: Stay At Sea, Return To Base at the end of the turn;
- ``previous_naval_moves``: Ships in Flames 16.1.1, a unit set up at sea (the sections a
  scenario's set-up may put it in, ``ShipsTakenFromSea``);
- ``naval_repair``: Naval Repair (Guadalcanal), ``RepairNavalUnit``;
- ``rig_naval``: lab games' ``RigShipsAtSea``, ``RigAboard``, ``RigNavalDamage``; scenario
  setups' ``place_at_sea`` and ``load``.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.rules.air import return_to_base as air_return

# noqa: F401 - they register with ``rules`` (events, reducers, commands, step rules)
from . import describe, events, naval_combat_events, naval_interception_events  # noqa: F401
from . import naval_combat, naval_combat_results, naval_combat_round, naval_movement, rig_naval, surprise_points  # noqa: F401
from . import carrier_air_rebase, carrier_combat_air_patrol, port_attack_carrier_air, port_attack_surprise  # noqa: F401
from . import previous_naval_moves  # noqa: F401
from . import kamikaze, naval_air, naval_air_combat, naval_air_support, naval_interception, overseas_supply, naval_repair, naval_transport, port_attack, shore_bombardment
from . import naval_combat_abort_queue as abort_queue
from . import naval_combat_steps as steps
from . import return_to_base as rtb
from .hooks import HOOKSPECS  # noqa: F401  (published hooks, see hooks.py)
from .naval_units import naval_problem
from .state import NON_PHASING_NAVAL_COMBAT, PHASING_NAVAL_COMBAT, RETURN_TO_BASE, STAY_AT_SEA, rules


@hookimpl
def unit_problem(unit):
    return naval_problem(unit)


@hookimpl
def skip_step(state, step_id, spec):
    if step_id in (PHASING_NAVAL_COMBAT, NON_PHASING_NAVAL_COMBAT):
        return naval_combat.phase_skip(state, step_id)
    if step_id in STAY_AT_SEA:
        return rtb.stay_skip(state, step_id)
    return (naval_air.naval_air_skip(state, step_id) or port_attack.port_attack_skip(state, step_id) or naval_transport.landing_skip(state, step_id) or naval_repair.repair_skip(state, step_id)
            or shore_bombardment.bombard_skip(state, step_id) or shore_bombardment.reorganize_skip(state, step_id)
            or search_and_seizure_skip(state, step_id) or naval_interception.skip(state, step_id)
            or abort_queue.skip(state, step_id) or surprise_points.port_spend_skip(state, step_id)
            or steps.skip(state, step_id))


SEARCH_AND_SEIZURE = "wif.turn.end-of-turn.search-and-seizure"


def search_and_seizure_skip(state, step_id: str) -> str | None:
    # Search and Seizure Form: MP_B "must have convoy points in the sea area that are
    # transporting resources or build points"; this edition's convoys carry none yet
    if step_id != SEARCH_AND_SEIZURE:
        return None
    return ("Search and Seizure: no convoy points carry resources or build points overseas (convoys do not "
            "transport them in this edition), so there is nothing to seize")


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if step_id in STAY_AT_SEA:
        return rtb.deciders(state, step_id)
    if step_id in RETURN_TO_BASE:
        # air units and naval units at sea return in the same phase
        air_powers = air_return.deciders(state, step_id, kind) or []
        return sorted(set(air_powers) | set(rtb.deciders(state, step_id)))
    if step_id.startswith(naval_interception.DIGRESSION):
        return naval_interception.deciders(state, step_id, kind)
    if step_id == abort_queue.MOVE_STEP:
        return abort_queue.deciders(state, step_id, kind)
    if step_id == surprise_points.pas.SPEND_STEP:
        return surprise_points.port_deciders(state)
    return steps.deciders(state, step_id, kind)


@hookimpl
def finish_step_refusal(state, step_id, power):
    step_id = step_id or ""
    return (rtb.finish_refusal(state, step_id, power) or naval_interception.finish_refusal(state, step_id, power)
            or abort_queue.finish_refusal(state, step_id, power) or steps.finish_refusal(state, step_id, power))


@hookimpl
def repeat_step(ctx, step_id, spec):
    if step_id == abort_queue.DIGRESSION:
        return abort_queue.repeat(ctx.state, step_id)
    return steps.repeat(ctx.state, step_id)


@hookimpl
def step_ended(ctx, step_id, spec):
    if step_id in STAY_AT_SEA:
        naval_air.return_air_from_sea(ctx, rtb.side_powers(ctx.state, step_id))
    if step_id in RETURN_TO_BASE:
        rtb.destroy_stranded(ctx, step_id)
    naval_repair.return_repaired(ctx, step_id)
    naval_air_combat.a2a_over(ctx, step_id)  # the air-to-air combat of a naval air combat is over
    naval_air_combat.aa_step_ended(ctx, step_id)
    naval_air_combat.reorganize_aboard(ctx, step_id)
    carrier_combat_air_patrol.land_when_no_bomber_flew(ctx, step_id)


@hookimpl
def air_combat_value_modifiers(state, combat, side):
    return surprise_points.air_value_modifiers(state, combat, side)


@hookimpl
def aircraft_destroyed(ctx, unit, reason, hex_):
    naval_air_combat.naval_aircraft_lost(ctx, unit)


rules.export(globals())
from .ui import *  # noqa: E402,F401,F403 - the front end's hooks (app/uihooks.py), ui.__all__
