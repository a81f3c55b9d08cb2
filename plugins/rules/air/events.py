"""Air events (facts in past tense) and their reducers, the only writers of ``state["air"]``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from kernel.events import EventData
from plugins.rules.core import hex_key

from .state import CARRYING, Combat, Flight, Mission, air, rules


# ---------------------------------------------------------------- events
@rules.event
class AirMissionBegan(EventData):
    kind: str
    phase: str


@rules.event
class AirUnitFlew(EventData):
    unit: str
    power: str
    side: str
    role: str
    hex: tuple[int, int]
    base: tuple[int, int]
    cargo: str | None = None
    also_organize: list[str] = []


@rules.event
class AirCombatsFound(EventData):
    hexes: list[tuple[int, int]]


@rules.event
class AirCombatSelected(EventData):
    hex: tuple[int, int]
    attacker: str
    defender: str
    lines: dict[str, dict[str, list[str]]]


@rules.event
class AirLineArranged(EventData):
    side: str
    fighters: list[str]
    bombers: list[str]


@rules.event
class AirLinesRevealed(EventData):
    lines: dict[str, dict[str, list[str]]]


@rules.event
class AirCombatRoundStarted(EventData):
    round: int
    strength: dict[str, float]
    value: dict[str, float]
    no_roll: list[str] = Field(default_factory=list)


@rules.event
class AirCombatRolled(EventData):
    side: str
    dice: list[int]
    value: float
    modified: float
    result: str
    target_side: str
    chooser: str | None = None
    candidates: list[str] = Field(default_factory=list)
    reason: str = ""


@rules.event
class AirCasualtyChosen(EventData):
    unit: str
    by: str


@rules.event
class AirCombatResultApplied(EventData):
    unit: str
    effect: Literal["destroyed", "aborted", "cleared"]
    cause: str  # the result code, or "voluntary abort", "no fighters"


@rules.event
class AirCombatChoice(EventData):
    side: str
    abort: bool


@rules.event
class AirCombatEnded(EventData):
    hex: tuple[int, int]
    reason: str


@rules.event
class GroundStrikeRolled(EventData):
    # ``die`` is the best (lowest) die; ``dice`` every die when optional rules add some
    bomber: str
    target: str
    die: int
    tactical: int
    dice: list[int] = []
    success: bool


@rules.event
class AirGroundSupportFlown(EventData):
    hex: tuple[int, int]
    side: str
    factors: int
    units: list[str]


@rules.event
class AirMissionPerformed(EventData):
    kind: str


@rules.event
class AirUnitReturned(EventData):
    unit: str
    hex: tuple[int, int]


@rules.event
class AirUnitDestroyed(EventData):
    unit: str
    reason: str


@rules.event
class AirUnitRebased(EventData):
    unit: str
    from_hex: tuple[int, int]
    to_hex: tuple[int, int]


@rules.event
class StrategicBombardmentRolled(EventData):
    # the strategic bombardment table's result at ``hex`` (Strategic Bombardment; Carpet
    # Bombing reads only the asterisks): ``die`` rolled, ``modified`` +1 without air-to-air combat
    hex: tuple[int, int]
    owner: str = ""  # who controlled the hex (its production pays the points)
    factors: int
    die: int
    modified: int
    points: int
    asterisks: int
    bombers: list[str]


@rules.event
class AAUnitsFired(EventData):
    # the AA units that fired this mission become disorganized: now (``after_combat`` empty)
    # or, in ground support, after the land combat at the hex each fired at
    units: list[str]
    after_combat: dict[str, str] = Field(default_factory=dict)  # unit -> "col,row"


@rules.event
class AirCargoDelivered(EventData):
    transport: str  # "" when its transport is no longer flying
    unit: str
    hex: tuple[int, int]
    outcome: Literal["landed", "aborted", "destroyed", "reorganized"]


@rules.event
class AAFirePlotted(EventData):
    unit: str
    power: str
    hex: tuple[int, int]
    shots: int
    factors: int


@rules.event
class AAFireRolled(EventData):
    hex: tuple[int, int]
    side: str  # the firing side
    factors: int
    bombers: list[str]
    cell: str  # the anti-aircraft table's cell, "-1/6"
    dice: list[int]
    points: int
    destroy: int
    abort: int
    reduce: int


@rules.event
class AADamageApplied(EventData):
    hex: tuple[int, int]
    unit: str
    effect: Literal["destroy", "abort", "reduce"]
    amount: int = 1


# ---------------------------------------------------------------- reducers
@rules.reducer("AirMissionBegan")
def _began(state, event):
    d = event.data
    a = air(state)
    a.mission = Mission(kind=d["kind"], phase=d["phase"])
    if d["kind"] == "ground-support":
        a.ground_support = {}


@rules.reducer("AirUnitFlew")
def _flew(state, event):
    d = event.data
    m = air(state).mission
    m.flights[d["unit"]] = Flight.model_validate(d)
    if d["role"] == "bomber":
        m.bombers_flown[d["side"]] = m.bombers_flown.get(d["side"], 0) + 1


@rules.reducer("AirCombatsFound")
def _combats_found(state, event):
    m = air(state).mission
    m.combats_left = [tuple(h) for h in event.data["hexes"]]
    m.fought = [tuple(h) for h in event.data["hexes"]]


@rules.reducer("AirCombatSelected")
def _combat_selected(state, event):
    d = event.data
    m = air(state).mission
    hex_ = tuple(d["hex"])
    m.combats_left = [h for h in m.combats_left if tuple(h) != hex_]
    m.combat = Combat(hex=hex_, attacker=d["attacker"], defender=d["defender"], lines=d["lines"])


@rules.reducer("AirLineArranged")
def _line_arranged(state, event):
    d = event.data
    c = air(state).mission.combat
    c.arranged[d["side"]] = {"fighters": list(d["fighters"]), "bombers": list(d["bombers"])}
    c.unrevealed.append(event.seq)


@rules.reducer("AirLinesRevealed")
def _lines_revealed(state, event):
    c = air(state).mission.combat
    for side, line in event.data["lines"].items():
        c.lines[side] = {"fighters": list(line["fighters"]), "bombers": list(line["bombers"])}
    c.arranged, c.unrevealed = {}, []


@rules.reducer("AirCombatRoundStarted")
def _round_started(state, event):
    d = event.data
    c = air(state).mission.combat
    c.round = d["round"]
    c.strength, c.value, c.no_roll = dict(d["strength"]), dict(d["value"]), list(d["no_roll"])
    c.pending = None


@rules.reducer("AirCombatRolled")
def _rolled(state, event):
    d = event.data
    cands = list(d["candidates"])
    air(state).mission.combat.pending = {
        "roller": d["side"], "target_side": d["target_side"], "result": d["result"], "chooser": d["chooser"],
        "candidates": cands, "chosen": cands[0] if len(cands) == 1 else None, "applied": False}


@rules.reducer("AirCasualtyChosen")
def _casualty_chosen(state, event):
    air(state).mission.combat.pending["chosen"] = event.data["unit"]


@rules.reducer("AirCombatResultApplied")
def _result_applied(state, event):
    d = event.data
    m = air(state).mission
    c = m.combat
    for line in c.lines.values():
        for group in line.values():
            if d["unit"] in group:
                group.remove(d["unit"])
    if c.pending and c.pending.get("chosen") == d["unit"]:
        c.pending["applied"] = True
    if d["effect"] == "destroyed":
        m.destroyed.append(d["unit"])
        _cargo_lost(m, m.flights.pop(d["unit"], None))
    elif d["effect"] == "aborted":
        m.aborted.append(d["unit"])
        m.returning.append(d["unit"])
        _cargo_stranded(m, m.flights.get(d["unit"]))
    else:
        m.cleared.append(d["unit"])


@rules.reducer("AirCombatChoice")
def _choice(state, event):
    if event.data["abort"]:
        air(state).mission.combat.aborted_sides.append(event.data["side"])


@rules.reducer("AirCombatEnded")
def _combat_ended(state, event):
    air(state).mission.combat.ended = True


@rules.reducer("AirGroundSupportFlown")
def _support(state, event):
    d = event.data
    entry = air(state).ground_support.setdefault(hex_key(d["hex"]), {})
    entry[d["side"]] = entry.get(d["side"], 0) + d["factors"]


@rules.reducer("AirMissionPerformed")
def _performed(state, event):
    air(state).mission.performed = True


@rules.reducer("AirUnitReturned")
def _returned(state, event):
    m = air(state).mission
    m.flights.pop(event.data["unit"], None)
    if event.data["unit"] in m.returning:
        m.returning.remove(event.data["unit"])


@rules.reducer("AirUnitDestroyed")
def _destroyed(state, event):
    m = air(state).mission
    if event.data["unit"] in m.returning:
        m.returning.remove(event.data["unit"])
    flight = m.flights.pop(event.data["unit"], None)
    if flight is not None:
        m.destroyed.append(event.data["unit"])
        if not m.performed:
            _cargo_lost(m, flight)


@rules.reducer("AAFirePlotted")
def _aa_plotted(state, event):
    d = event.data
    m = air(state).mission
    m.aa_shots[d["unit"]] = m.aa_shots.get(d["unit"], 0) + d["shots"]
    key = hex_key(d["hex"])
    m.aa_plot[key] = m.aa_plot.get(key, 0) + d["factors"]


@rules.reducer("AAFireRolled")
def _aa_rolled(state, event):
    d = event.data
    m = air(state).mission
    key = hex_key(d["hex"])
    m.aa_plot.pop(key, None)
    target = next(s for s in state.kernel.sides if s != d["side"])
    m.aa_damage[key] = {"destroy": d["destroy"], "abort": d["abort"], "reduce": d["reduce"], "target": target}


@rules.reducer("AADamageApplied")
def _aa_applied(state, event):
    d = event.data
    m = air(state).mission
    damage = m.aa_damage[hex_key(d["hex"])]
    damage[d["effect"]] -= d["amount"]
    if d["effect"] == "abort":
        m.aborted.append(d["unit"])
        _cargo_stranded(m, m.flights.get(d["unit"]))
    elif d["effect"] == "reduce":
        m.flights[d["unit"]].aa_loss += d["amount"]


def _cargo_lost(m: Mission, flight) -> None:
    # "Any unit being air transported by the destroyed unit is also destroyed"
    if flight is not None and flight.cargo and m.kind in CARRYING:
        m.lost_cargo.append(flight.cargo)


def _cargo_stranded(m: Mission, flight) -> None:
    # the cargo "becomes disorganized if ... the ATR was aborted in either air combat"
    if flight is not None and flight.cargo and m.kind in CARRYING:
        m.stranded_cargo.append(flight.cargo)


@rules.reducer("AAUnitsFired")
def _aa_units_fired(state, event):
    a = air(state)
    for uid in event.data["units"]:
        a.aa_after_combat.pop(uid, None)
    a.aa_after_combat.update(event.data["after_combat"])
