"""The naval plugin's state (``state["naval"]``), its data and where naval play happens in
the sequence of play.

A naval unit is an ordinary counter of the units plugin (``branch "naval"``); what only
naval rules need is kept here:

- in a port: the unit's ``hex`` is the port's hex (the units plugin), nothing here;
- at sea: ``at_sea[unit] = SeaBox(area, section)``; the unit's ``where`` is "map" and its
  ``hex`` None: a sea box is no hex, so no hex rule (land stacking, zones of control) sees it
  (a map view draws it at ``sea_box_section.box_hex(area)``);
- damage (``damaged``), cargo aboard transports and carrier air units aboard carriers
  (``aboard``: ship -> units; the passengers' ``where`` is ``"aboard"``), the impulse each
  unit last made a naval move (``moved``), the repair pool;
- the naval combat being fought (``combat``).

``rules`` is the plugin's registry; the other modules add to it and ``__init__`` exports it.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from kernel.registry import Registry

rules = Registry()

DATA = Path(__file__).with_name("data") / "naval.json"

ROOT = "wif"
IMPULSE = f"{ROOT}.turn.impulse"
NAVAL_MOVEMENT = f"{IMPULSE}.naval.naval-movement"
PHASING_NAVAL_COMBAT = f"{IMPULSE}.naval.phasing-side-naval-combat"
NON_PHASING_NAVAL_COMBAT = f"{IMPULSE}.naval.non-phasing-side-naval-combat"
STAY_AT_SEA = (f"{ROOT}.turn.end-of-turn.stay-at-sea-phasing", f"{ROOT}.turn.end-of-turn.stay-at-sea-non-phasing")
RETURN_TO_BASE = (f"{ROOT}.turn.end-of-turn.return-to-base-phasing",
                  f"{ROOT}.turn.end-of-turn.return-to-base-non-phasing")
NAVAL_REPAIR = f"{ROOT}.turn.end-of-turn.naval-repair"


class SeaBox(BaseModel):
    area: str  # sea area code, e.g. "CO" (Coral Sea)
    section: int  # sea-box section 0-4


class NavalCombat(BaseModel):
    """A naval combat being fought in one sea area (Naval Combat, Naval Combat Included Units
    and Naval Combat Type, Naval Combat Results Table)."""

    area: str
    initiator: str  # the initiating side
    round: int = 1
    subs: dict[str, bool] = Field(default_factory=dict)  # side -> SUBs committed this round
    rolls: dict[str, int] = Field(default_factory=dict)  # side -> unmodified search roll
    included: dict[str, list[str]] = Field(default_factory=dict)  # side -> units included this round
    found: dict[str, bool] = Field(default_factory=dict)  # side -> its own search found a section
    surprise: dict[str, int] = Field(default_factory=dict)  # side -> surprise points left to spend
    shifts: dict[str, int] = Field(default_factory=dict)  # side -> columns its own attack moves (+ right, - left)
    # surprise points spent in a naval air combat: side -> change to its air-to-air combat
    # value, side -> columns its ships' anti-aircraft fire moves (+ up, - down)
    air_values: dict[str, int] = Field(default_factory=dict)
    aa_shifts: dict[str, int] = Field(default_factory=dict)
    kind: str = ""  # this round's combat type: surface, submarine
    due: dict[str, list[str]] = Field(default_factory=dict)  # target side -> results still to apply
    applied: dict[str, int] = Field(default_factory=dict)  # target side -> results applied this round
    half_a: dict[str, int] = Field(default_factory=dict)  # unit -> half-A results this round
    aborting: list[str] = Field(default_factory=list)  # units aborting at the end of the round
    voluntary: list[str] = Field(default_factory=list)  # sides that aborted after this round
    over: str = ""  # why the combat is over ("" while it goes on)
    # an interception combat's first round: the interceptor's roll, the moving group
    first_rolls: dict[str, int] = Field(default_factory=dict)
    always_included: list[str] = Field(default_factory=list)
    # Naval Combat Abort Queue: this combat's first queue number (1, or 1 + 1000 x the
    # interception combats so far in the impulse) and the numbers it gave out:
    # "side:round:cause" -> queue number
    queue_base: int = 1
    queue_numbers: dict[str, int] = Field(default_factory=dict)
    # Naval Air-to-air Combat: the aircraft flying as fighters this round (the rest fly as
    # bombers), and where the naval air combat is: "" (planes not yet flown), "aa-by-nis" /
    # "aa-by-is" (that side's ships have fired their AA, its damage waits), "done";
    # "kamikaze": Japan may declare kamikazes before the AA fire (kamikaze.py)
    fighters: list[str] = Field(default_factory=list)
    air_stage: str = ""
    kamikazes: list[str] = Field(default_factory=list)  # Japanese bombers flying as kamikazes this round
    aborted_planes: list[str] = Field(default_factory=list)  # carrier planes aborted in this combat: they fly no more in it
    air_support: list[str] = Field(default_factory=list)  # land-based aircraft flying naval air support
    # Surprise Points, "Select enemy or friendly naval target": target side -> the side that
    # bought the pick of the unit suffering that side's next result
    target_picks: dict[str, str] = Field(default_factory=dict)


class PendingMove(BaseModel):
    """A naval move stopped in a sea area where the enemy may intercept (Naval Interception)."""

    power: str
    units: list[str]
    origin: str
    to: str
    section: int | None = None
    path: list[str]
    index: int  # the sea area of ``path`` entered now
    reduction: int = 0  # movement allowance lost fighting through earlier
    attempted: bool = False
    declined: bool = False
    attempt_side: str = ""
    commit_subs: bool = False
    roll: int = 0
    success: bool = False
    choice: str = ""  # "stop" / "fight"


class AbortEntry(BaseModel):
    """A unit waiting in the Naval Combat Abort Queue to move to a friendly port."""

    unit: str
    number: int  # its queue number
    area: str
    section: int  # the section box it aborted from


class Naval(BaseModel):
    at_sea: dict[str, SeaBox] = Field(default_factory=dict)
    damaged: list[str] = Field(default_factory=list)
    aboard: dict[str, list[str]] = Field(default_factory=dict)  # ship -> cargo or carrier air units
    moved: dict[str, list[int]] = Field(default_factory=dict)  # unit -> [turn, impulse] of its last naval move
    # Non-Phasing Side Naval Combat: sea areas the phasing side moved a non-SUB unit into and
    # stopped in this impulse -> [turn, impulse]
    entered: dict[str, list[int]] = Field(default_factory=dict)
    # Naval Combat: "an area can't be chosen twice per impulse" -> [turn, impulse]
    fought: dict[str, list[int]] = Field(default_factory=dict)
    combat: NavalCombat | None = None
    moving: PendingMove | None = None
    air_bases: dict[str, tuple[int, int]] = Field(default_factory=dict)  # air unit at sea -> the hex it flew from
    # Naval Interception: "side:area" -> [interception unit, turn, impulse]
    interceptors: dict[str, list] = Field(default_factory=dict)
    # the naval combat phase being played: its initiating side, and whether it declined
    phase_initiator: str | None = None
    phase_declined: bool = False
    repairs: dict[str, int] = Field(default_factory=dict)  # Naval Repair: unit -> turn it returns
    abort_queue: list[AbortEntry] = Field(default_factory=list)  # Naval Combat Abort Queue
    interception_combats: list[int] = Field(default_factory=list)  # [turn, impulse, interception combats in it]
    # Port Attack's surprise (port_attack_surprise): port "col,row" -> {"rolls", "surprise" (side ->
    # points left), "air_values", "aa_shifts", "shifts" (side -> what its points bought)}
    port_surprise: dict[str, dict] = Field(default_factory=dict)


rules.state("naval")(Naval)


def naval(state) -> Naval:
    return state["naval"]


def this_impulse(state) -> list[int]:
    return [state.kernel.turn, state.kernel.impulse]


@cache
def data() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))
