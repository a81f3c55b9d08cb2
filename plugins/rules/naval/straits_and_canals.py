"""Straits and canals: the passages between sea areas (and canal ports) that control of the
land around them closes to naval moves.

Seeds: Ships in Flames 3.2.3 "Naval Movement Restriction" (b-g): the Kiel and Suez canals
(closed if a major power of the other side controls a hex next to the canal), the Bosporus
(open only with Istanbul friendly), the Danish straits (closed if the other side controls 2
of Oslo, Copenhagen, Kiel), Gibraltar (closed if the other side controls it; not to SUBs), the
Channel (closed if the other side controls London; not to returns to base).  Which sea areas
each joins, and what is authored, is in ``data/straits_and_canals.json`` (its header).
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path

from plugins.rules import core
from plugins.rules.core import key_hex, world_map

from .naval_units import is_sub
from .sea_box_section import port_at

DATA = Path(__file__).with_name("data") / "straits_and_canals.json"


@cache
def passages() -> dict[frozenset, list[dict]]:
    """{frozenset of the two ends ("AREA" or "port:Name")} -> the passages between them."""
    out: dict[frozenset, list[dict]] = {}
    for p in json.loads(DATA.read_text(encoding="utf-8"))["passages"]:
        hexes = [tuple(h) for h in p.get("hexes", [])] + [world_map().city(c).hex for c in p.get("cities", [])]
        out.setdefault(frozenset(p["between"]), []).append({**p, "control_hexes": hexes})
    return out


def _closed(state, power: str, passage: dict) -> bool:
    side = core.side_of(state, power)
    owners = [core.hex_controller(state, h) for h in passage["control_hexes"]]
    enemy = [o for o in owners if o is not None and core.side_of(state, o) != side and core.enemies(state, power, o)]
    rule = passage["closed_by"]
    if rule == "enemy-controls-any":
        return bool(enemy)
    if rule == "enemy-controls-two":
        return len(enemy) >= 2
    if rule == "not-friendly-all":
        return any(o is None or core.side_of(state, o) != side for o in owners)
    raise ValueError(f"{DATA}: passage {passage['name']!r}: unknown closed_by {rule!r}")


def _steps(origin: str, to: str, path: tuple[str, ...]) -> list[tuple[str, str]]:
    """The passages a move crosses: port -> first area, area -> area, last area -> port."""
    ends: list[str] = []
    if "," in origin:
        port = port_at(key_hex(origin))
        ends.append(f"port:{port.name}" if port else origin)
    elif ":" in origin:
        ends.append(origin.split(":")[0])
    ends += [a for a in path if not ends or a != ends[-1]]
    if "," in to:
        port = port_at(key_hex(to))
        ends.append(f"port:{port.name}" if port else to)
    return list(zip(ends, ends[1:]))


@lru_cache(maxsize=65536)
def _crossed(origin: str, to: str, path: tuple[str, ...]) -> tuple[dict, ...]:
    """The passages on this move's way, in order (the map is read-only: each way is read once;
    most cross none)."""
    table = passages()
    return tuple(p for a, b in _steps(origin, to, path) for p in table.get(frozenset((a, b)), ()))


def passage_problem(state, unit, origin: str, to: str, path: tuple[str, ...], returning: bool = False) -> str | None:
    """Why ``unit`` may not pass a strait or canal on this move's way, or None."""
    for p in _crossed(origin, to, tuple(path)):
        if p.get("subs_pass") and is_sub(unit):
            continue
        if p.get("returns_pass") and returning:
            continue
        if _closed(state, unit.power, p):
            return (f"Naval Movement Restriction: {p['name']} is closed to {unit.power}'s ships "
                    f"({' and '.join(x.removeprefix('port:') for x in p['between'])}): "
                    + _why(p))
    return None


def _why(p: dict) -> str:
    names = [world_map().place_at(tuple(h)).name if world_map().place_at(tuple(h)) else str(tuple(h))
             for h in p["control_hexes"]]
    if p["closed_by"] == "not-friendly-all":
        return f"{', '.join(names)} is not controlled by its side"
    if p["closed_by"] == "enemy-controls-two":
        return f"the other side controls 2 of {', '.join(names)}"
    return f"the other side controls {' or '.join(names)}"


def closed_between(state, power: str, a: str, b: str) -> bool:
    """Is a strait or canal between the sea areas ``a`` and ``b`` closed to ``power``'s SCS now?
    ("Supply Sources and Paths": "You can't trace a supply path between sea areas if one of your
    SCS couldn't move between them")."""
    return any(_closed(state, power, p) for p in passages().get(frozenset((a, b)), ()))
