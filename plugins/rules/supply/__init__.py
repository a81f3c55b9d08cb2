"""Supply and reorganization.

Public functions other plugins call (they list ``supply`` under ``requires``):

- ``in_supply(state, unit_id) -> bool`` — the seeds check it before a unit moves, flies,
  sails or reorganizes others, for both sides before an overrun and at the moment of
  combat, and for the attackers at land combat declaration ("Supply Sources and Paths");
- ``supply_map(state, side) -> set[hex]`` — hexes where a unit of the side's major powers
  is in supply (a Soviet or German counter; minor-country units may use more cities);
- ``out_of_supply(state, side) -> list[unit id]`` and ``in_supply_units(state, ids)``;
- ``has_basic_supply_path(state, unit_id)`` — a basic supply path of any length to a
  source (the notional unit's "-1 if it cannot trace a basic supply path of any length");
- ``hex_has_basic_supply_path(state, power, hex)`` — the same for a notional unit in a hex;
- ``supply_range(state, hex)`` — 4/3/2 hexes by the weather in the hex (Weather Report);
- ``can_reorganize(state, hq_id, unit_id)`` — why an HQ may not reorganize a unit, or None
  (``reorganization.py``, with ``HQReorganize``'s choices and preview);
- ``began_impulse_out_of_supply(state, unit_id)`` — the unit was out of supply when the
  impulse began (recorded by ``ImpulseSupplyRecorded`` once the actions are chosen, before
  any unit moves): "the cargo only becomes disorganized if it commenced the impulse out of
  supply" (Air Transport: the air plugin records it, for the units it may carry, with
  ``record_impulse_supply(ctx, powers)``);
- ``supplied_this_impulse(state, unit_id)`` — put in supply for this impulse by a rule: the
  event ``ImpulseSupplyGranted`` (emitted by e.g. Emergency HQ supply) is the hook point, and
  ``in_supply`` answers True for those units until the impulse ends.

Effects of being out of supply that the seeds state, for the plugins that own them:
an out-of-supply unit that embarks becomes disorganized (naval transport); air-transport
cargo that began the impulse out of supply is disorganized; a paradrop must start in
supply; AA must be organized and in supply to fire; an attack is resolved unless no
in-supply land unit able to make it remains; victory needs an in-supply land unit in a
factory hex; a notional unit that cannot trace a basic supply path of any length has 1
combat factor less (combat's ``notional_factors``); an overrun needs the overrunning unit
in supply (land's overrun, see its data file).  The seeds state no effect on land movement
(it is only checked before a unit moves) and none on reorganization ("Lack of supply does
not stop an HQ from reorganizing units, or a unit from being reorganized").  Partisans and
units at sea are always in supply.

Steps run here: "Reorganization by HQ" (End of Impulse, each phasing major power:
``HQReorganize``) and "End of Turn Reorganization" (automatic: every disorganized unit on
the map is reorganized, the Oil and isolated-units options not being in play).
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.rules import core
from plugins.rules.land.movement import effective_weather

from . import trace
from .hooks import HOOKSPECS  # noqa: F401  (published hooks, see hooks.py)
from .reorganization import (  # noqa: F401 - the plugin's public names
    HQReorganize,
    anything_to_reorganize,
    can_reorganize,
    end_of_turn_reorganization,
    hq_points_left,
    reorg_value,
)
from .state import (  # noqa: F401
    EndOfTurnReorganized,
    HQReorganized,
    HQPrimarySupplyGranted,
    ImpulseSupplyGranted,
    ImpulseSupplyRecorded,
    SupplyState,
    now,
    rules,
    supply_state,
)

HQ_STEP = "wif.turn.impulse.end-of-impulse.reorganization-by-hq"
IMPULSE_BEGUN_STEP = "wif.turn.impulse.new-impulse.choose-action"  # the last step before anything moves
EOT_STEP = "wif.turn.end-of-turn.end-of-turn-reorganization"
AT_SEA = ("sea", "at-sea", "sea-box")


# ---------------------------------------------------------------- public questions
def _unit(state, unit_id: str):
    unit = state["units"].units.get(unit_id)
    if unit is None:
        raise KeyError(f"no unit {unit_id!r}")
    return unit


def in_supply(state, unit_id: str) -> bool:
    """Supply Sources and Paths: can the unit trace a supply path to a primary source
    (directly, or through secondary and tertiary sources)?"""
    unit = _unit(state, unit_id)
    if unit.where in AT_SEA:
        return True  # "Units at sea are always in supply."
    if not unit.on_map:
        return False
    if supplied_this_impulse(state, unit_id):
        return True  # e.g. optional rule Emergency HQ supply ("as if they were in supply this impulse")
    hex_ = tuple(unit.hex)
    if core.world_map().is_sea(hex_):
        return True
    if unit.type in trace.ALWAYS_SUPPLIED_TYPES:
        return True
    extra = trace.country_of_nationality(unit.nationality) if unit.nationality not in ("", unit.power) else None
    return hex_ in trace.result_for(state, unit.power, extra).supplied


def supply_map(state, side: str) -> set:
    """Hexes in supply for a unit of any major power of ``side``."""
    out: set = set()
    for power in state.kernel.sides.get(side, []):
        out |= trace.result_for(state, power).supplied
    return out


def supply_sources(state, power: str) -> dict:
    """Active secondary and tertiary source hexes of a power -> "secondary"/"tertiary"."""
    return dict(trace.result_for(state, power).active)


def in_supply_units(state, unit_ids) -> list[str]:
    return [u for u in unit_ids if in_supply(state, u)]


def out_of_supply(state, side: str) -> list[str]:
    powers = set(state.kernel.sides.get(side, []))
    return sorted(u.id for u in state["units"].units.values()
                  if u.power in powers and u.on_map and not in_supply(state, u.id))


def supply_range(state, hex_) -> int:
    """Weather Report: 4 hexes in fine, 3 in snow, 2 in rain, storm or blizzard."""
    weather = effective_weather(core.weather_in(state, hex_), core.world_map().terrain(tuple(hex_)))
    return trace.RANGE.get(weather, trace.MAX_RANGE)


def has_basic_supply_path(state, unit_id: str) -> bool:
    """A basic supply path of any length to a primary or an active secondary/tertiary source."""
    unit = _unit(state, unit_id)
    if in_supply(state, unit_id):
        return True
    if not unit.on_map:
        return False
    extra = trace.country_of_nationality(unit.nationality) if unit.nationality not in ("", unit.power) else None
    return tuple(unit.hex) in _basic_paths_any_length(state, unit.power, extra)


def hex_has_basic_supply_path(state, power: str, hex_) -> bool:
    """A basic supply path of any length from ``hex_`` for ``power`` (the notional unit's
    "-1 if it cannot trace a basic supply path of any length", Ignore Notional)."""
    return tuple(hex_) in _basic_paths_any_length(state, power)


def _basic_paths_any_length(state, power: str, extra_country: str | None = None) -> dict:
    """Basic supply path costs of any length from each hex to ``power``'s sources: searched
    once a position (the position's tracer) and kept while no hex it reached changes control
    or blocking (a whole-map search: every combat's notional unit asks it)."""
    result = trace.result_for(state, power, extra_country)
    tracer = trace.tracer_for(state, power)
    sources = result.sources

    def compute():
        dist = tracer.search(sources, railway=False, limit=trace.UNLIMITED)
        return dist, dist
    key = frozenset(sources.items()) if isinstance(sources, dict) else frozenset(sources)
    return trace.reused(tracer, ("basic, any length", key), compute)


def began_impulse_out_of_supply(state, unit_id: str) -> bool:
    """Air Transport: did the unit commence this impulse out of supply?"""
    s = supply_state(state)
    return tuple(s.began_out_of_supply_at) == now(state) and unit_id in s.began_out_of_supply


def supplied_this_impulse(state, unit_id: str) -> bool:
    """Has a rule put the unit in supply for the current impulse (``ImpulseSupplyGranted``)?"""
    granted = supply_state(state).impulse_supply.get(unit_id)
    return bool(granted) and tuple(granted) == now(state)


def record_impulse_supply(ctx, powers) -> None:
    """Record which land units of ``powers`` begin the impulse out of supply (Air Transport's
    cargo rule; the air plugin names the powers that may fly an air transport this impulse:
    a whole-map trace per power is the costliest thing an impulse's start does)."""
    state = ctx.state
    wanted = set(powers)
    lacking = [u.id for u in state["units"].units.values()
               if u.power in wanted and u.branch == "land" and u.on_map and not in_supply(state, u.id)]
    ctx.emit(ImpulseSupplyRecorded(out_of_supply=sorted(lacking)))


# ---------------------------------------------------------------- hooks
rules.step_rule(EOT_STEP)(end_of_turn_reorganization)


@hookimpl
def skip_step(state, step_id, spec):
    if step_id == HQ_STEP and not anything_to_reorganize(state):
        return "no HQ of the phasing side can reorganize a disorganized unit"
    return None


@rules.describe("HQReorganized")
def _say_reorganized(event, state):
    d = event.data
    units = state["units"].units
    hq, unit = units.get(d["hq"]), units.get(d["unit"])
    hq_name = (hq.name or hq.id) if hq else d["hq"]
    unit_name = (unit.name or unit.id) if unit else d["unit"]
    done = "reorganizes" if d["organized"] else "spends a point towards reorganizing"
    return f"{event.actor}: HQ {hq_name} {done} {unit_name} ({d['points']} point(s), {d['points_left']} left)"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


@rules.describe("ImpulseSupplyGranted")
def _say_granted(event, state):
    d = event.data
    return f"{d['rule']}: {len(d['units'])} unit(s) in supply this impulse from {d['source']}"


@rules.describe("HQPrimarySupplyGranted")
def _say_primary(event, state):
    d = event.data
    return f"{d['rule']}: HQ {d['hq']} is a primary supply source for the rest of the turn ({d['source']})"


@rules.describe("ImpulseSupplyRecorded")
def _say_recorded(event, state):
    return f"The impulse begins with {_plural(len(event.data['out_of_supply']), 'land unit')} out of supply"


@rules.describe("EndOfTurnReorganized")
def _say_eot_reorganized(event, state):
    return f"End of Turn Reorganization: {_plural(len(event.data['units']), 'disorganized unit')} reorganized"


@hookimpl
def overrun_refusal(state, unit, hex_):
    """Supply is checked "immediately before resolving an overrun": an out-of-supply unit may
    not overrun (authored effect, land's data/overrun.json; seeds, "Overrun")."""
    if not in_supply(state, unit.id):
        return (f"Overrun: {unit.name or unit.id} is out of supply; an overrun needs the "
                "overrunning unit in supply (Supply Sources and Paths)")
    return None


rules.export(globals())

from .ui import *  # noqa: E402,F401,F403 - the front end's hooks (app/uihooks.py), ui.__all__
