"""Offensive chits: the plugin's state, events and the questions every part asks of them (which
chits a power holds, which HQ gives its benefits this impulse, what is within its range).

Seeds, "Pick HQ": "Each active major power can use only 1 offensive chit per impulse ... After
you use it, it is destroyed"; "A hex is within range if it is no further away in hexes and/or
hex-dots than the chosen HQ's re-organization value (ignoring terrain, neutral countries, enemy
units and their ZOCs)"."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from kernel.events import EventData
from kernel.registry import Registry
from plugins.rules import core
from plugins.rules.supply import reorg_value
from plugins.rules.units import units

rules = Registry()

RULE_ID = "offensive-chits"
RULE = "Offensive chits"
DATA = Path(__file__).resolve().parent / "data" / "offensive_chits.json"
OVERRUN = "overrun"  # the key of the units doubled for their overrun (a combat's key is its hex)


@cache
def _data() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


@rules.state("optional.offensive-chits")
class ChitState(BaseModel):
    used: dict[str, int] = Field(default_factory=dict)  # power -> chits played
    # power -> {"hq", "turn", "impulse", "doubled": {combat hex key or "overrun": unit ids}}: the
    # chit played this impulse with an HQ's benefits, and the land units it doubled
    playing: dict[str, dict] = Field(default_factory=dict)


@rules.event
class OffensiveChitPlayed(EventData):
    power: str
    hq: str | None = None
    reorganize_hqs: bool = False


@rules.event
class LandFactorsDoubled(EventData):
    power: str
    combat: str  # the combat's id, its defending hex "col,row"; "overrun": for the units' overruns
    units: list[str]


def chit_state(state) -> ChitState:
    return state["optional.offensive-chits"]


@rules.reducer("OffensiveChitPlayed")
def _played(state, event) -> None:
    d = event.data
    s = chit_state(state)
    s.used[d["power"]] = s.used.get(d["power"], 0) + 1
    s.playing = {p: v for p, v in s.playing.items()
                 if (v["turn"], v["impulse"]) == (state.kernel.turn, state.kernel.impulse)}
    if d.get("hq"):
        s.playing[d["power"]] = {"hq": d["hq"], "turn": state.kernel.turn, "impulse": state.kernel.impulse,
                                 "doubled": {}}


@rules.reducer("LandFactorsDoubled")
def _doubled(state, event) -> None:
    d = event.data
    chit_state(state).playing[d["power"]].setdefault("doubled", {}).setdefault(d["combat"], []).extend(d["units"])


def chits_held(state, power: str) -> int:
    """Chits the power holds now (authored per scenario, less those played)."""
    turns = _data()["scenarios"].get(state.kernel.scenario or "", {}).get(power, [])
    return max(0, sum(1 for t in turns if t <= state.kernel.turn) - chit_state(state).used.get(power, 0))


def playing_hq(state, power: str):
    """The HQ of the chit ``power`` played this impulse, or None."""
    p = chit_state(state).playing.get(power)
    if p is None or (p["turn"], p["impulse"]) != (state.kernel.turn, state.kernel.impulse):
        return None
    return units(state).units.get(p["hq"])


def in_range(state, power: str, hex_) -> bool:
    """Is ``hex_`` within the range of the HQ of ``power``'s chit this impulse?"""
    hq = playing_hq(state, power)
    if hq is None or not hq.on_map or hex_ is None:
        return False
    return core.world_map().grid.distance(tuple(hq.hex), tuple(hex_)) <= reorg_value(hq)


def doubled_here(state, power: str) -> dict[str, list[str]]:
    """The units ``power`` doubled this impulse: combat hex key (or ``OVERRUN``) -> unit ids."""
    return chit_state(state).playing[power].get("doubled", {}) if playing_hq(state, power) is not None else {}
