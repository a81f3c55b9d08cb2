"""What a player submits to the air rules (the handlers, choices and previews are beside the
seed section each implements)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from kernel.events import Command


class FlyCAP(Command):
    unit: str
    hex: tuple[int, int]


class FlyMission(Command):
    unit: str
    hex: tuple[int, int]
    role: Literal["bomber", "escort"] = "bomber"
    # Air Transport / Paradrop: the land unit the transport carries; Reorganization by Air
    # Transport: the disorganized unit at the hex it organizes
    cargo: str | None = None
    # Reorganization by Air Transport with more than 1 reorganization point (optional rule
    # Large ATRs): the further disorganized units at the hex it organizes
    also_organize: list[str] = []


class FlyIntercept(Command):
    unit: str
    hex: tuple[int, int]


class SelectAirCombat(Command):
    hex: tuple[int, int]


class ArrangeAirLine(Command):
    fighters: list[str] = Field(default_factory=list)  # front first
    bombers: list[str] = Field(default_factory=list)  # front first


class ChooseAirCasualty(Command):
    unit: str


class AirCombatAbortOrStay(Command):
    abort: bool


class ReturnAirToBase(Command):
    unit: str
    # None: no friendly base within range, the unit is destroyed (Return to Base)
    hex: tuple[int, int] | None = None


class RebaseAir(Command):
    unit: str
    hex: tuple[int, int]


class PlotAAFire(Command):
    unit: str
    hex: tuple[int, int]
    shots: int = 4  # "Each AA unit can fire up to 4 times"


class ApplyAADamage(Command):
    hex: tuple[int, int]
    unit: str  # the bomber the next result (destroy, abort, reduce) falls on


class RebaseAirUnit(Command):
    unit: str
    # None: no friendly base within rebase range, the unit is destroyed (Rebase Overrun Units)
    hex: tuple[int, int] | None = None
