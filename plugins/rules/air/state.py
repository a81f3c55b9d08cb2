"""The air plugin's state (``state["air"]``) and where air happens in the sequence of play.

``rules`` is the plugin's registry (kernel.registry): the other modules add to it and
``__init__`` exports its hookimpls."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from kernel.registry import Registry
from plugins.rules.core import hex_key

rules = Registry()

ROOT = "wif"
AM = f"{ROOT}.procedures.air-mission"
A2A = f"{ROOT}.procedures.air-to-air-combat"
ROUND = f"{A2A}.round"
SELECT_LOCATION = f"{A2A}.select-location"
ARRANGE_UNITS = f"{ROUND}.arrange-units"
AFFECTED_UNIT_STEPS = (f"{ROUND}.affected-attacking-unit", f"{ROUND}.affected-defending-unit")
ABORT_OR_STAY_STEPS = (f"{ROUND}.attacker-aborts-or-stays", f"{ROUND}.defender-aborts-or-stays")
IMPULSE = f"{ROOT}.turn.impulse"
GROUND_STRIKE = f"{IMPULSE}.independent-air.ground-strike"
GROUND_SUPPORT = f"{IMPULSE}.land.combat.ground-support.ground-support-mission"
STRATEGIC_BOMBARDMENT = f"{IMPULSE}.independent-air.strategic-bombardment"
CARPET_BOMBING = f"{IMPULSE}.independent-air.carpet-bombing"
AIR_TRANSPORT = f"{IMPULSE}.land.movement.air-transport"
PARADROP = f"{IMPULSE}.land.movement.paradrop"
AIR_REORGANIZATION = f"{IMPULSE}.end-of-impulse.reorganization-by-air-transport"
AIR_REBASE = f"{ROOT}.turn.impulse.air-rebase.air-rebase"
RETURN_TO_BASE_DIGRESSION = f"{ROOT}.digressions.return-to-base"
MISSION_RTB = (f"{AM}.return-to-base-phasing", f"{AM}.return-to-base-non-phasing")
EOT_RTB = (f"{ROOT}.turn.end-of-turn.return-to-base-phasing", f"{ROOT}.turn.end-of-turn.return-to-base-non-phasing")
# the air mission phases: step -> mission kind -> its name (mission_kinds.py says what each does)
MISSION_KIND = {GROUND_STRIKE: "ground-strike", GROUND_SUPPORT: "ground-support",
                STRATEGIC_BOMBARDMENT: "strategic-bombardment", CARPET_BOMBING: "carpet-bombing",
                AIR_TRANSPORT: "air-transport", PARADROP: "paradrop", AIR_REORGANIZATION: "air-reorganization"}
CARRYING = frozenset({"air-transport", "paradrop"})  # missions whose transports carry their cargo
MISSION_NAME = {"ground-strike": "Ground Strike", "ground-support": "Ground Support",
                "strategic-bombardment": "Strategic Bombardment", "carpet-bombing": "Carpet Bombing",
                "air-transport": "Air Transport", "paradrop": "Paradrop",
                "air-reorganization": "Reorganization by Air Transport",
                "port-attack": "Port Attack"}  # the naval plugin's mission kind (plugins/rules/naval/port_attack.py)


class Flight(BaseModel):
    unit: str
    power: str
    side: str
    role: Literal["bomber", "escort", "cap", "interceptor"]
    hex: tuple[int, int]
    base: tuple[int, int]
    # Anti-aircraft Fire Effects: attack factors that "do not press the attack"
    aa_loss: int = 0
    # Air Transport / Paradrop: the land unit carried; Reorganization by Air Transport: the
    # unit to organize at the hex
    cargo: str | None = None
    also_organize: list[str] = []  # the further units it organizes (Large ATRs)


class Combat(BaseModel):
    hex: tuple[int, int]
    attacker: str  # the phasing side (the active side, which rolls second)
    defender: str  # the non-phasing side (rolls first)
    lines: dict[str, dict[str, list[str]]] = Field(default_factory=dict)  # side -> fighters/bombers
    # Arrange Units is a secret simultaneous choice: each side's new line waits here (and
    # its AirLineArranged event stays hidden from the other side) until both are revealed
    arranged: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    unrevealed: list[int] = Field(default_factory=list)  # seqs of AirLineArranged not revealed yet
    round: int = 0
    strength: dict[str, float] = Field(default_factory=dict)
    value: dict[str, float] = Field(default_factory=dict)
    no_roll: list[str] = Field(default_factory=list)
    pending: dict | None = None  # the last roll: roller, target_side, result, chooser, candidates, chosen, applied
    aborted_sides: list[str] = Field(default_factory=list)
    ended: bool = False


class Mission(BaseModel):
    kind: str = ""
    phase: str = ""
    flights: dict[str, Flight] = Field(default_factory=dict)  # units flying now
    bombers_flown: dict[str, int] = Field(default_factory=dict)  # side -> bombers flown
    cleared: list[str] = Field(default_factory=list)
    destroyed: list[str] = Field(default_factory=list)
    aborted: list[str] = Field(default_factory=list)
    returning: list[str] = Field(default_factory=list)  # aborted, to return through the digression
    # Air Transport / Paradrop: cargo whose transport was destroyed (destroyed with it) or
    # aborted (stays at its base, disorganized)
    lost_cargo: list[str] = Field(default_factory=list)
    stranded_cargo: list[str] = Field(default_factory=list)
    combats_left: list[tuple[int, int]] = Field(default_factory=list)
    fought: list[tuple[int, int]] = Field(default_factory=list)  # hexes with an air-to-air combat
    combat: Combat | None = None
    # Anti-aircraft fire: shots each AA unit has fired this mission (at most 4), the AA
    # factors the firing side has plotted at each hex ("col,row"), and the damage each hex's
    # roll left for the bombers' owners to apply: {"destroy": n, "abort": n, "reduce": n,
    # "target": the side whose bombers take it}
    aa_shots: dict[str, int] = Field(default_factory=dict)
    aa_plot: dict[str, int] = Field(default_factory=dict)
    aa_damage: dict[str, dict[str, int | str]] = Field(default_factory=dict)
    performed: bool = False


@rules.state("air")
class AirState(BaseModel):
    mission: Mission = Field(default_factory=Mission)
    # Ground Support: "col,row" of the defending hex -> side -> tactical factors added
    ground_support: dict[str, dict[str, int]] = Field(default_factory=dict)
    # AA units that fired at ground support: unit -> "col,row" of the combat; disorganized
    # "after the Advancing after combat subphase" (anti_aircraft_fire_results.disorganize_after_combat)
    aa_after_combat: dict[str, str] = Field(default_factory=dict)


def air(state) -> AirState:
    return state["air"]


def ground_support(state, hex_) -> dict[str, int]:
    """Tactical factors flown in ground support of the combat at ``hex_``, per side."""
    return dict(air(state).ground_support.get(hex_key(hex_), {}))


def flights_of(state, side: str, roles=None) -> list[Flight]:
    return [f for f in air(state).mission.flights.values() if f.side == side and (roles is None or f.role in roles)]
