"""Naval units' events (facts in past tense) and their reducers: where a naval unit is and
what happened to it (seeds "Naval Movement", "Sea Box Section", "Embark/Debark Units", "Naval
Repair").  Naval Combat's events are in naval_combat_events.py, Naval Interception's in
naval_interception_events.py, the abort queue's in naval_combat_abort_queue.py; together
their reducers are the only writers of ``state["naval"]``.

A unit's hex and ``where`` are the units plugin's (``UnitMoved``); these events say what
only naval rules need: which sea-box section a unit is in, what is aboard what, damage,
the impulse a unit last moved.
"""

from __future__ import annotations

from kernel.events import EventData

from .state import SeaBox, naval, rules


@rules.event
class ShipsPlacedAtSea(EventData):
    """Units put in a sea-box section by a scenario's setup or a lab game (not a naval move)."""

    units: list[str]
    area: str
    section: int


@rules.event
class NavalGroupMoved(EventData):
    """One naval move (Naval Movement): ``units`` went from ``origin`` (a port's name, or
    "AREA:section") to ``area``/``section`` at sea, or to the port at ``port_hex``."""

    power: str
    units: list[str]
    origin: str
    path: list[str]  # the sea areas entered, in order
    area: str | None = None
    section: int | None = None
    port_hex: tuple[int, int] | None = None
    turn: int = 0
    impulse: int = 0
    counts_as_entry: bool = True  # the phasing side moved a non-SUB unit into the area and stopped


@rules.event
class AirUnitsFlewToSea(EventData):
    """Naval Air: air units went from their bases to a sea-box section (they stay there)."""

    power: str
    units: list[str]
    bases: dict[str, tuple[int, int]]
    area: str
    section: int
    turn: int
    impulse: int


@rules.event
class UnitsLoaded(EventData):
    """Cargo embarked on a transport, or carrier air units landed on a carrier."""

    ship: str
    units: list[str]


@rules.event
class UnitsUnloaded(EventData):
    ship: str
    units: list[str]


@rules.event
class NavalUnitDamaged(EventData):
    unit: str


@rules.event
class NavalUnitRepaired(EventData):
    unit: str


@rules.event
class NavalUnitLost(EventData):
    """The unit left play (destroyed, or to the repair pool): it is no longer at sea or aboard."""

    unit: str


@rules.event
class NavalRepairScheduled(EventData):
    unit: str
    turn: int  # the turn it returns as a reinforcement


# ---------------------------------------------------------------- reducers
@rules.reducer("ShipsPlacedAtSea")
def _placed(state, event):
    d = event.data
    for u in d["units"]:
        naval(state).at_sea[u] = SeaBox(area=d["area"], section=d["section"])


@rules.reducer("NavalGroupMoved")
def _moved(state, event):
    d = event.data
    n = naval(state)
    for u in d["units"]:
        if d["area"] is not None:
            n.at_sea[u] = SeaBox(area=d["area"], section=d["section"])
        else:
            n.at_sea.pop(u, None)
        n.moved[u] = [d["turn"], d["impulse"]]
    if d["area"] is not None and d["counts_as_entry"]:
        n.entered[d["area"]] = [d["turn"], d["impulse"]]


@rules.reducer("AirUnitsFlewToSea")
def _flew_to_sea(state, event):
    d = event.data
    n = naval(state)
    for u in d["units"]:
        n.at_sea[u] = SeaBox(area=d["area"], section=d["section"])
        n.moved[u] = [d["turn"], d["impulse"]]
        n.air_bases[u] = tuple(d["bases"][u])
    n.entered[d["area"]] = [d["turn"], d["impulse"]]  # the non-phasing side may initiate there


@rules.reducer("UnitsLoaded")
def _loaded(state, event):
    cargo = naval(state).aboard.setdefault(event.data["ship"], [])
    cargo.extend(u for u in event.data["units"] if u not in cargo)


@rules.reducer("UnitsUnloaded")
def _unloaded(state, event):
    n = naval(state)
    ship = event.data["ship"]
    left = [u for u in n.aboard.get(ship, []) if u not in event.data["units"]]
    if left:
        n.aboard[ship] = left
    else:
        n.aboard.pop(ship, None)


@rules.reducer("NavalUnitDamaged")
def _damaged(state, event):
    n = naval(state)
    if event.data["unit"] not in n.damaged:
        n.damaged.append(event.data["unit"])


@rules.reducer("NavalUnitRepaired")
def _repaired(state, event):
    n = naval(state)
    if event.data["unit"] in n.damaged:
        n.damaged.remove(event.data["unit"])
    n.repairs.pop(event.data["unit"], None)


@rules.reducer("NavalUnitLost")
def _lost(state, event):
    n = naval(state)
    u = event.data["unit"]
    n.at_sea.pop(u, None)
    n.aboard.pop(u, None)
    n.air_bases.pop(u, None)
    for ship in list(n.aboard):
        if u in n.aboard[ship]:
            n.aboard[ship].remove(u)
            if not n.aboard[ship]:
                del n.aboard[ship]


@rules.reducer("NavalRepairScheduled")
def _repair_scheduled(state, event):
    naval(state).repairs[event.data["unit"]] = event.data["turn"]
