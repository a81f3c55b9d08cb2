"""What the window asks the naval rules beyond their commands (the front end's hooks, specified
in app/uihooks.py; optional here, so a game without a window does not need them):

- ``sea_boxes``: the sea areas with units at sea, each unit's section (seeds, "Sea Box
  Section"), for the sea-box layer of the detailed map (plugins/mapviews/seaboxes);
- ``naval_review`` and ``naval_review_details``: the Naval Review Summary and Details forms
  (seeds, "Naval Review Summary", "Naval Review Details");
- ``naval_combat_report``: a batch of events as the Naval Combat Results form tells it
  (naval_combat_results_form.py);
- ``sea_area_counts``: what is at sea per sea area and power, for the global map's convoys
  view (seeds, "Global Map": up to four numbers per sea area).

Where a unit is, what it carries and whether it is damaged are read through the same
functions the rules use (naval_units, sea_box_section): no second rule."""

from __future__ import annotations

from kernel.errors import WifError
from kernel.hookspecs import hookimpl
from plugins.rules import core
from plugins.rules.units import units

from . import naval_units as nu
from .naval_combat_results_form import report
from .sea_box_section import area_name, box_hex, port_at, sections_of
from .state import data, naval

__all__ = ["naval_combat_report", "naval_review", "naval_review_details", "sea_area_counts", "sea_boxes", "warm_tables"]

# Naval Review Details: "the units are split into four main columns: carriers, battleships,
# cruisers, and transports + submarines" (destroyer flotillas are surface combat ships: cruisers)
COLUMNS = {"cv": "carriers", "bb": "battleships", "ca": "cruisers", "cl": "cruisers", "dd": "cruisers",
           "trs": "transports", "amph": "transports", "sub": "transports", "convoy": "transports"}
COLUMN_ORDER = ("carriers", "battleships", "cruisers", "transports")
CLASS_ORDER = tuple(data()["classes"])


def _side(state, power: str) -> str:
    return core.side_of(state, power) or power


def _unit_row(state, unit, section: int | None) -> dict:
    return {"id": unit.id, "power": unit.power, "side": _side(state, unit.power), "section": section,
            "type": unit.type, "kind": nu.kind(unit), "damaged": nu.damaged(state, unit.id),
            "aboard": nu.aboard(state, unit.id)}


def _order(u) -> tuple:
    return (CLASS_ORDER.index(u.type) if u.type in CLASS_ORDER else 99, u.power, u.name or u.id)


@hookimpl(optionalhook=True)
def sea_boxes(state):
    at_sea = naval(state).at_sea
    if not at_sea:
        return []
    everyone = units(state).units
    by_area: dict[str, list] = {}
    for uid, box in at_sea.items():
        unit = everyone.get(uid)
        if unit is not None:
            by_area.setdefault(box.area, []).append((unit, box.section))
    out = []
    for area in sorted(by_area):
        rows = [_unit_row(state, u, s) for u, s in sorted(by_area[area], key=lambda us: (us[1], _order(us[0])))]
        out.append({"area": area, "name": area_name(area), "hex": list(box_hex(area)),
                    "sections": list(sections_of(area)), "units": rows})
    return out


def _location_of(state, unit) -> tuple[str, str] | None:
    """("sea", area) or ("port", "col,row") of a naval unit in play, else None."""
    box = nu.at_sea(state, unit.id)
    if box is not None:
        return "sea", box.area
    if unit.hex is not None and port_at(unit.hex) is not None:
        return "port", f"{unit.hex[0]},{unit.hex[1]}"
    return None


def _tally(state, ships: list) -> dict:
    t = {"carriers": 0, "carrier_air": 0, "battleships": 0, "cruisers": 0, "transports": 0, "subs": 0,
         "convoy_points": 0}
    for u in ships:
        if u.type == "cv":
            t["carriers"] += 1
            t["carrier_air"] += len(nu.aboard(state, u.id))
        elif u.type == "bb":
            t["battleships"] += 1
        elif nu.is_sub(u):
            t["subs"] += 1
        elif nu.is_convoy(u):
            t["convoy_points"] += nu.convoy_points(u)
        elif COLUMNS.get(u.type) == "transports":
            t["transports"] += 1
        else:
            t["cruisers"] += 1
    return t


@hookimpl(optionalhook=True)
def naval_review(state):
    ships = nu.naval_units(state)
    powers: dict[str, dict] = {}
    places: dict[tuple[str, str], list] = {}
    for u in ships:
        p = powers.setdefault(u.power, {"at_sea": {}, "in_port": {}, "damaged": 0, "aboard": 0})
        where = _location_of(state, u)
        bucket = "at_sea" if where and where[0] == "sea" else "in_port"
        p[bucket][u.type] = p[bucket].get(u.type, 0) + 1
        p["damaged"] += nu.damaged(state, u.id)
        p["aboard"] += len(nu.aboard(state, u.id))
        if where is not None:
            places.setdefault(where, []).append(u)
    locations = []
    for (kind, key), here in places.items():
        by_side: dict[str, list] = {}
        for u in here:
            by_side.setdefault(_side(state, u.power), []).append(u)
        if kind == "sea":
            name, hex_ = area_name(key), list(box_hex(key))
            sections = sorted({nu.at_sea(state, u.id).section for u in here})
        else:
            hex_ = [int(v) for v in key.split(",")]
            name, sections = port_at(hex_).name, []
        locations.append({"kind": kind, "id": key, "name": name, "hex": hex_, "sections": sections,
                          "sides": {s: _tally(state, us) for s, us in sorted(by_side.items())}})
    locations.sort(key=lambda loc: (loc["kind"] != "sea", loc["name"]))
    classes = {t: c["name"] for t, c in data()["classes"].items()}
    return {"classes": classes, "powers": dict(sorted(powers.items())), "locations": locations}


def _parse_location(location) -> tuple[str, str]:
    text = str(location).strip()
    if "," in text:
        try:
            col, row = (int(v) for v in text.split(","))
        except ValueError:
            raise WifError(f"Naval Review: no port at {location!r} (a port is 'col,row')") from None
        if port_at((col, row)) is None:
            raise WifError(f"Naval Review: hex {col},{row} is not a port")
        return "port", f"{col},{row}"
    area = text.split(":")[0]
    if area not in core.world_map().sea_areas:
        raise WifError(f"Naval Review: no sea area {location!r} (a sea area code such as 'CO', or a port 'col,row')")
    return "sea", area


@hookimpl(optionalhook=True)
def naval_review_details(state, location):
    kind, key = _parse_location(location)
    here = sorted((u for u in nu.naval_units(state) if _location_of(state, u) == (kind, key)), key=_order)
    everyone = units(state).units
    columns: dict[str, list[list[str]]] = {c: [] for c in COLUMN_ORDER}
    rows: dict[str, dict] = {}

    def describe(unit) -> dict:
        box = nu.at_sea(state, unit.id)
        return {"power": unit.power, "side": _side(state, unit.power), "name": unit.name or unit.id,
                "type": unit.type, "section": box.section if box else None,
                "damaged": nu.damaged(state, unit.id), "factors": dict(unit.factors)}

    for u in here:
        cargo = [c for c in nu.aboard(state, u.id) if c in everyone]
        columns[COLUMNS.get(u.type, "transports")].append([u.id, *cargo])
        for uid in [u.id, *cargo]:
            rows[uid] = describe(everyone[uid])
    if kind == "sea":
        name, hex_ = area_name(key), list(box_hex(key))
    else:
        hex_ = [int(v) for v in key.split(",")]
        name = port_at(hex_).name
    return {"kind": kind, "id": key, "name": name, "hex": hex_, "columns": columns, "units": rows}


@hookimpl(optionalhook=True)
def naval_combat_report(state, records):
    return report(state, records)


@hookimpl(optionalhook=True)
def sea_area_counts(state):
    """Seeds, "Global Map": "up to 4 numbers" per sea area: convoy points, surface ships
    (carriers with them), submarines, aircraft at sea; each major power's own."""
    everyone = units(state).units
    out: dict[str, dict] = {}
    for uid, box in naval(state).at_sea.items():
        u = everyone.get(uid)
        if u is None or u.where != "map":
            continue
        area = out.setdefault(box.area, {"name": area_name(box.area), "hex": list(box_hex(box.area)), "powers": {}})
        n = area["powers"].setdefault(u.power, {"convoy_points": 0, "surface": 0, "subs": 0, "air": 0})
        if u.branch == "air":
            n["air"] += 1
        elif nu.is_convoy(u):
            n["convoy_points"] += nu.convoy_points(u)
        elif nu.is_sub(u):
            n["subs"] += 1
        else:
            n["surface"] += 1
    return dict(sorted(out.items()))


@hookimpl(optionalhook=True)
def warm_tables():
    """A server's warm-up (app/net/warmup.py): every sea area's all-sea hexes by row, which a
    plane's naval air mission measures its range to (naval_air.py; half a second a process)."""
    from .naval_air import _row_span

    return {"sea areas' all-sea rows": sum(1 for area in core.world_map().sea_areas if _row_span(area))}
