"""The rig: commands that build any situation in a lab game, in any scenario.

A lab game is started with ``Game.new(scenario, path, lab=True, extra_plugins=["rig"])``
(``tests/helpers.py`` ``lab_game`` does it, adding ``rig-turn`` when the turn plugin is in
play).  Every rig command is allowed in any step (``anytime``), recorded in the log like any
command, offered by ``Game.choices`` in a lab game only, and refused in a normal game by
the kernel's ``lab_refusal`` (kernel/lab.py, which also holds ``RigDice`` and ``RigStep``).
A rig command emits the events the rules emit (UnitCreated, HexControlChanged, WeatherSet…),
so the rules see a rigged situation exactly as one reached by play.

It is a rules plugin of its own, not part of the lab scenario, so that it loads into any
scenario (Barbarossa included); it needs only core and units, so loading it adds no rule of
play to a lab game.
"""

from __future__ import annotations

from functools import cache

from kernel.choices import Field, Option, one_of
from kernel.errors import Rejected
from kernel.events import Command
from kernel.lab import lab_refusal, rig_offered_to
from kernel.registry import Registry
from plugins.rules import core
from plugins.rules.units import Unit, UnitCreated, UnitFactorsChanged, UnitFlipped, UnitMoved, units

rules = Registry()


def _refuse(problem: str | None) -> None:
    if problem:
        raise Rejected(problem)


def _powers(state) -> list[str]:
    return state.kernel.powers()


def _power_problem(state, name: str, power: str | None, allow_none: bool = True) -> str | None:
    if power is None:
        return None if allow_none else f"{name}: a power is needed"
    if power not in _powers(state):
        return f"{name}: {power!r} is not a power of this game ({', '.join(_powers(state))})"
    return None


def _hex_problem(name: str, hex_) -> str | None:
    if not core.world_map().grid.contains(tuple(hex_)):
        return f"{name}: hex {tuple(hex_)} is not on the map"
    return None


def _map_hexes(state) -> list[tuple[int, int]]:
    """The hexes a rig choice offers: where units are, and hexes whose control was set."""
    found = {tuple(u.hex) for u in units(state).units.values() if u.on_map}
    found |= {core.key_hex(k) for k in core.world(state).hex_control}
    return sorted(found)


def _countries(state) -> list[str]:
    m = core.world_map()
    found = set(core.world(state).countries) | set(core.world(state).conquered)
    found |= {m.country_code(h) for h in _map_hexes(state)} - {None}
    return sorted(found)


def _power_options(state, none_label: str) -> list[Option]:
    return [Option(p, p) for p in _powers(state)] + [Option(None, none_label)]


# ---------------------------------------------------------------- RigUnit
class RigUnit(Command):
    """Lab: put a counter on the map (or in a pool) with any factors, halves included.  A new
    ``unit.id`` creates it; an existing one is moved, re-faced and given the new factors (its
    power, branch and type must stay)."""

    unit: Unit


def why_not_rig_unit(state, unit: Unit) -> str | None:
    refusal = lab_refusal(state, "RigUnit")
    if refusal:
        return refusal
    if _power_problem(state, "RigUnit", unit.power):
        return _power_problem(state, "RigUnit", unit.power)
    if unit.where == "map" and unit.hex is None:
        return f"RigUnit: unit {unit.id!r} is on the map (where 'map') but has no hex"
    if unit.hex is not None and _hex_problem("RigUnit", unit.hex):
        return f"RigUnit: unit {unit.id!r}: hex {tuple(unit.hex)} is not on the map"
    bad = {k: v for k, v in unit.factors.items() if v < 0}
    if bad:
        return f"RigUnit: unit {unit.id!r} has negative factors {bad}"
    old = units(state).units.get(unit.id)
    if old is not None and (old.power, old.branch, old.type) != (unit.power, unit.branch, unit.type):
        return (f"RigUnit: unit {unit.id!r} exists as a {old.power} {old.branch} {old.type}; "
                "give another id for another counter")
    return None


def _fresh_id(state, base: str) -> str:
    known = units(state).units
    n = 1
    while f"{base}-rig{n}" in known:
        n += 1
    return f"{base}-rig{n}"


def rig_unit_choices(state, actor, step_id):
    """A copy of any counter in play, at its hex, face up or down (a front end or script that
    wants other factors types them in: the command takes any ``unit``)."""
    if lab_refusal(state, "RigUnit") or not rig_offered_to(state, actor):
        return None
    seen: dict[tuple, Unit] = {}
    for u in units(state).units.values():
        if u.on_map:
            seen.setdefault((u.power, u.branch, u.type, u.size, tuple(sorted(u.factors.items())), u.hex), u)

    def copies():
        out = []
        for u in seen.values():
            for face_up in (True, False):
                copy = u.model_copy(update={"id": _fresh_id(state, u.id), "face_up": face_up}).model_dump(mode="json")
                side = "" if face_up else ", face down"
                out.append(Option(copy, f"a copy of {u.name or u.id} ({u.power} {u.type} {u.factors}) at "
                                        f"{tuple(u.hex)}{side}"))
        return out

    return [_field("unit", copies)] if seen else None


def _field(name, build):
    return Field(name, "option", build)


def rig_unit_preview(state, cmd: RigUnit):
    _refuse(why_not_rig_unit(state, cmd.unit))
    old = units(state).units.get(cmd.unit.id)
    return {"unit": cmd.unit.id, "creates": old is None, "hex": cmd.unit.hex, "factors": cmd.unit.factors}


@rules.command(RigUnit, anytime=True, choices=rig_unit_choices, preview=rig_unit_preview)
def rig_unit(ctx, cmd: RigUnit) -> None:
    _refuse(why_not_rig_unit(ctx.state, cmd.unit))
    problem = ctx.host.pm.hook.unit_problem(unit=cmd.unit.model_dump())  # e.g. a naval class no table has
    if problem:
        raise Rejected(f"RigUnit: {problem}")
    new = cmd.unit
    old = units(ctx.state).units.get(new.id)
    if old is None:
        ctx.emit(UnitCreated(unit=new))
        return
    if (old.hex, old.where) != (new.hex, new.where):
        ctx.emit(UnitMoved(unit=new.id, to_hex=new.hex, to_where=new.where))
    if any(old.factors.get(k) != v for k, v in new.factors.items()):
        ctx.emit(UnitFactorsChanged(unit=new.id, factors=new.factors))
    if old.face_up != new.face_up:
        ctx.emit(UnitFlipped(unit=new.id, face_up=new.face_up))


# ---------------------------------------------------------------- control, conquest, war
class RigHexControl(Command):
    """Lab: ``power`` controls ``hex`` (None: back to its country's controller)."""

    hex: tuple[int, int]
    power: str | None = None


def why_not_rig_hex_control(state, hex_, power) -> str | None:
    return (lab_refusal(state, "RigHexControl") or _hex_problem("RigHexControl", hex_)
            or _power_problem(state, "RigHexControl", power))


def rig_hex_control_choices(state, actor, step_id):
    hexes = _map_hexes(state)
    if lab_refusal(state, "RigHexControl") or not rig_offered_to(state, actor) or not hexes:
        return None
    return [one_of("hex", "hex", hexes,
                   then=lambda h: [_field("power", lambda: _power_options(state, "its country's controller"))])]


def rig_hex_control_preview(state, cmd: RigHexControl):
    _refuse(why_not_rig_hex_control(state, cmd.hex, cmd.power))
    return {"hex": cmd.hex, "before": core.hex_controller(state, cmd.hex), "after": cmd.power}


@rules.command(RigHexControl, anytime=True, choices=rig_hex_control_choices, preview=rig_hex_control_preview)
def rig_hex_control(ctx, cmd: RigHexControl) -> None:
    _refuse(why_not_rig_hex_control(ctx.state, cmd.hex, cmd.power))
    ctx.emit(core.HexControlChanged(hex=cmd.hex, power=cmd.power))


class RigCountryControl(Command):
    """Lab: ``power`` controls ``country`` (a map country code; None: neutral)."""

    country: str
    power: str | None = None


def _country_problem(name: str, country: str) -> str | None:
    if country not in core.world_map().countries:
        return f"{name}: no country {country!r} on the map (2-letter codes, maps/world/countries.csv)"
    return None


def why_not_rig_country_control(state, country, power) -> str | None:
    return (lab_refusal(state, "RigCountryControl") or _country_problem("RigCountryControl", country)
            or _power_problem(state, "RigCountryControl", power))


def rig_country_control_choices(state, actor, step_id):
    if lab_refusal(state, "RigCountryControl") or not rig_offered_to(state, actor) or not _countries(state):
        return None
    return [one_of("country", "option", _countries(state),
                   then=lambda c: [_field("power", lambda: _power_options(state, "neutral"))])]


def rig_country_control_preview(state, cmd: RigCountryControl):
    _refuse(why_not_rig_country_control(state, cmd.country, cmd.power))
    return {"country": cmd.country, "before": core.country_controller(state, cmd.country), "after": cmd.power}


@rules.command(RigCountryControl, anytime=True, choices=rig_country_control_choices,
               preview=rig_country_control_preview)
def rig_country_control(ctx, cmd: RigCountryControl) -> None:
    _refuse(why_not_rig_country_control(ctx.state, cmd.country, cmd.power))
    ctx.emit(core.CountryControlSet(country=cmd.country, power=cmd.power))


class RigConquest(Command):
    """Lab: ``country`` is conquered by ``conqueror`` (None: liberated)."""

    country: str
    conqueror: str | None = None


def why_not_rig_conquest(state, country, conqueror) -> str | None:
    return (lab_refusal(state, "RigConquest") or _country_problem("RigConquest", country)
            or _power_problem(state, "RigConquest", conqueror))


def rig_conquest_choices(state, actor, step_id):
    if lab_refusal(state, "RigConquest") or not rig_offered_to(state, actor) or not _countries(state):
        return None
    return [one_of("country", "option", _countries(state),
                   then=lambda c: [_field("conqueror", lambda: _power_options(state, "liberated"))])]


def rig_conquest_preview(state, cmd: RigConquest):
    _refuse(why_not_rig_conquest(state, cmd.country, cmd.conqueror))
    return {"country": cmd.country, "before": core.conquered_by(state, cmd.country), "after": cmd.conqueror}


@rules.command(RigConquest, anytime=True, choices=rig_conquest_choices, preview=rig_conquest_preview)
def rig_conquest(ctx, cmd: RigConquest) -> None:
    _refuse(why_not_rig_conquest(ctx.state, cmd.country, cmd.conqueror))
    ctx.emit(core.CountryConquered(country=cmd.country, conqueror=cmd.conqueror))


class RigWar(Command):
    """Lab: the two ``powers`` are at war."""

    powers: list[str]


def why_not_rig_war(state, powers) -> str | None:
    refusal = lab_refusal(state, "RigWar")
    if refusal:
        return refusal
    if len(set(powers)) != 2:
        return f"RigWar: name two different powers, not {powers}"
    return next((p for p in (_power_problem(state, "RigWar", x) for x in powers) if p), None)


def rig_war_choices(state, actor, step_id):
    if lab_refusal(state, "RigWar") or not rig_offered_to(state, actor) or len(_powers(state)) < 2:
        return None
    return [Field("powers", "units", [Option(p, p) for p in _powers(state)], min=2, max=2)]


def rig_war_preview(state, cmd: RigWar):
    _refuse(why_not_rig_war(state, cmd.powers))
    return {"powers": cmd.powers, "already": core.enemies(state, *cmd.powers)}


@rules.command(RigWar, anytime=True, choices=rig_war_choices, preview=rig_war_preview)
def rig_war(ctx, cmd: RigWar) -> None:
    _refuse(why_not_rig_war(ctx.state, cmd.powers))
    ctx.emit(core.WarDeclared(powers=tuple(cmd.powers)))


# ---------------------------------------------------------------- weather, actions
@cache
def weather_zones() -> list[str]:
    """The weather zone ids of the world map."""
    m = core.world_map()
    return sorted({str(m.weather_zone(h)) for h in m.grid.all_hexes()}, key=int)


class RigWeather(Command):
    """Lab: the weather of weather zone ``zone`` is ``weather``."""

    zone: str
    weather: str


def why_not_rig_weather(state, zone, weather) -> str | None:
    refusal = lab_refusal(state, "RigWeather")
    if refusal:
        return refusal
    if str(zone) not in weather_zones():
        return f"RigWeather: no weather zone {zone!r} (zones: {', '.join(weather_zones())})"
    if weather not in core.WEATHER:
        return f"RigWeather: {weather!r} is no weather ({', '.join(core.WEATHER)})"
    return None


def rig_weather_choices(state, actor, step_id):
    if lab_refusal(state, "RigWeather") or not rig_offered_to(state, actor):
        return None
    return [one_of("zone", "option", weather_zones(), then=lambda z: [one_of("weather", "option", core.WEATHER)])]


def rig_weather_preview(state, cmd: RigWeather):
    _refuse(why_not_rig_weather(state, cmd.zone, cmd.weather))
    return {"zone": cmd.zone, "before": core.world(state).weather.get(str(cmd.zone), "fine"), "after": cmd.weather}


@rules.command(RigWeather, anytime=True, choices=rig_weather_choices, preview=rig_weather_preview)
def rig_weather(ctx, cmd: RigWeather) -> None:
    _refuse(why_not_rig_weather(ctx.state, cmd.zone, cmd.weather))
    ctx.emit(core.WeatherSet(weather={str(cmd.zone): cmd.weather}))


class RigAction(Command):
    """Lab: ``power`` has chosen ``action`` this impulse."""

    power: str
    action: str


def why_not_rig_action(state, power, action) -> str | None:
    refusal = lab_refusal(state, "RigAction") or _power_problem(state, "RigAction", power, allow_none=False)
    if refusal:
        return refusal
    if action not in core.ACTIONS:
        return f"RigAction: {action!r} is no action ({', '.join(core.ACTIONS)})"
    return None


def rig_action_choices(state, actor, step_id):
    if lab_refusal(state, "RigAction") or not rig_offered_to(state, actor):
        return None
    return [one_of("power", "option", _powers(state), then=lambda p: [one_of("action", "option", core.ACTIONS)])]


def rig_action_preview(state, cmd: RigAction):
    _refuse(why_not_rig_action(state, cmd.power, cmd.action))
    return {"power": cmd.power, "before": core.action_of(state, cmd.power), "after": cmd.action}


@rules.command(RigAction, anytime=True, choices=rig_action_choices, preview=rig_action_preview)
def rig_action(ctx, cmd: RigAction) -> None:
    _refuse(why_not_rig_action(ctx.state, cmd.power, cmd.action))
    ctx.emit(core.ActionChosen(power=cmd.power, action=cmd.action))


rules.export(globals())
