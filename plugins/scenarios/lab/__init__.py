"""The laboratory scenario: build any situation from game options.

    Game.new("lab", path, options={
        "units": [{"id": "g1", "power": "germany", "branch": "land", "type": "inf",
                   "factors": {"combat": 4, "move": 3}, "hex": [30, 40]}, …],
        "countries": {"GE": "germany", "SU": "ussr"},   # default: these two
        "hex_control": {"30,40": "germany"},
        "at_war": [["germany", "ussr"]],                 # default: at war
        "weather": {"1": "fine"},
        "actions": {"germany": "land"},
        "active_side": "axis",                           # default: axis
        "start_at": "turn.impulse.land.movement.land-movement",
        "last_turn": 5,                                  # core LastTurnSet (0: open-ended)
        "calendar": [1941, "may-jun"],                   # turn 1's date, when "turn" is loaded
    }, extra_plugins=["land"])

Everything it sets is an ordinary event, so a lab game replays and verifies like any other.
Options are recorded in the save, so a test situation is reproducible from its file.
"""

from __future__ import annotations

from kernel.errors import Rejected
from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec
from plugins.rules.core import (
    ActionChosen,
    CountryControlSet,
    HexControlChanged,
    LastTurnSet,
    WarDeclared,
    WeatherSet,
    key_hex,
)
from plugins.rules.units import Unit, UnitCreated

SIDES = {"axis": ["germany"], "allies": ["ussr"]}


def setup(ctx) -> None:
    options = ctx.state.kernel.options
    for country, power in (options.get("countries") or {"GE": "germany", "SU": "ussr"}).items():
        ctx.emit(CountryControlSet(country=country, power=power))
    for pair in options.get("at_war", [["germany", "ussr"]]):
        ctx.emit(WarDeclared(powers=tuple(pair)))
    if options.get("weather"):
        ctx.emit(WeatherSet(weather={str(k): v for k, v in options["weather"].items()}))
    for key, power in (options.get("hex_control") or {}).items():
        ctx.emit(HexControlChanged(hex=key_hex(key), power=power))
    for raw in options.get("units", []):
        unit = Unit.model_validate(raw)
        problem = ctx.host.pm.hook.unit_problem(unit=unit.model_dump())
        if problem:
            raise Rejected(f"lab option 'units': {problem}")
        ctx.emit(UnitCreated(unit=unit))
    if options.get("last_turn"):
        ctx.emit(LastTurnSet(turn=int(options["last_turn"])))
    if options.get("calendar") and "CalendarSet" in ctx.host.events:
        year, bimonth = options["calendar"]
        ctx.emit(ctx.host.events["CalendarSet"].model(year=int(year), bimonth=bimonth))
    side = options.get("active_side", "axis")
    if side:
        ctx.set_active_side(side)
    for power, action in (options.get("actions") or {}).items():
        ctx.emit(ActionChosen(power=power, action=action))


@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(
        id="lab", name="Laboratory", sides=SIDES, sequence="wif", setup=setup,
        start_at=lambda options: options.get("start_at", "turn.impulse.land.movement.land-movement"),
        description="Test situations built from options."))
