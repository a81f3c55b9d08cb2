"""`wif map ...`: look-ups on the world map for players and scripts.

The seeds' Find City/Port, Find Country, Find Sea Area and Distance Calculations forms, as
commands: info, hex, find, distance. Each has --json for scripts. app/cli.py calls
add_map_commands(subparsers).
"""

from __future__ import annotations

import argparse
import json
import sys

from kernel.worldmap import MapFormatError, WorldMap, hex_to_lonlat, load_world_map


def add_map_commands(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("map", help="look things up on the world map")
    parser.add_argument("--map-dir", default=None, help="map folder (default: the committed maps/world)")
    commands = parser.add_subparsers(dest="map_command", metavar="{info,hex,find,distance}")
    commands.required = True

    info = commands.add_parser("info", help="counts per terrain, countries, sea areas, ports, objectives")
    info.add_argument("--json", action="store_true", help="machine-readable output")
    info.set_defaults(func=cmd_info)

    hex_ = commands.add_parser("hex", help="everything about one hex: COL,ROW or a city, port or sea area")
    hex_.add_argument("place", help="COL,ROW (e.g. 193,54) or a name (e.g. Berlin, 'North Sea')")
    hex_.add_argument("--json", action="store_true", help="machine-readable output")
    hex_.set_defaults(func=cmd_hex)

    find = commands.add_parser("find", help="type-ahead search of cities, ports, countries and sea areas")
    find.add_argument("text")
    find.add_argument("--limit", type=int, default=20)
    find.add_argument("--json", action="store_true", help="machine-readable output")
    find.set_defaults(func=cmd_find)

    distance = commands.add_parser("distance", help="hex distance between two places (and air distance)")
    distance.add_argument("origin", help="COL,ROW, city, port or sea area")
    distance.add_argument("target", help="COL,ROW, city, port or sea area")
    distance.add_argument("--air", action="store_true",
                          help="also the air distance, flying around hexes of neutral countries")
    distance.add_argument("--json", action="store_true", help="machine-readable output")
    distance.set_defaults(func=cmd_distance)
    return parser


def _world(args) -> WorldMap:
    return WorldMap(args.map_dir) if getattr(args, "map_dir", None) else load_world_map()


def _fail(message: str) -> int:
    print(f"wif map: {message}", file=sys.stderr)
    return 2


def _emit(args, payload: dict, lines: list[str]) -> int:
    if args.json:
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print("\n".join(lines))
    return 0


def cmd_info(args) -> int:
    try:
        world = _world(args)
    except MapFormatError as error:
        return _fail(str(error))
    terrain = dict(sorted(world.terrain_counts().items(), key=lambda kv: -kv[1]))
    payload = {
        "hexes": world.grid.hex_count,
        "columns": world.grid.cols,
        "rows": world.grid.rows,
        "terrain": terrain,
        "countries": len(world.countries),
        "sea_areas": len(world.sea_areas),
        "cities": len(world.cities),
        "capitals": len(world.capitals),
        "ports": {"major": sum(1 for p in world.ports if p.port == "major"),
                  "minor": sum(1 for p in world.ports if p.port == "minor"),
                  "without_city": len(world.port_towns), "iced_in": len(world.iced_ports)},
        "objectives": len(world.objectives),
        "hexside_features": _count([f.kind for f in world.hexside_features().values()]
                                   + [f.kind for f in world.fort_hexsides().values()]),
        "rail_lines": len(world.rails),
    }
    lines = [f"World map: {world.grid.cols} x {world.grid.rows} = {world.grid.hex_count} hexes (wraps east-west)",
             "Terrain:"]
    lines += [f"  {name:16} {count:6}" for name, count in terrain.items()]
    lines += [f"Countries: {payload['countries']}   Sea areas: {payload['sea_areas']}",
              f"Cities: {payload['cities']} (capitals {payload['capitals']})   "
              f"Ports: {payload['ports']['major']} major, {payload['ports']['minor']} minor "
              f"({payload['ports']['without_city']} without a city, {payload['ports']['iced_in']} iced-in)   "
              f"Objectives: {payload['objectives']}",
              "Hexsides: " + ", ".join(f"{k} {v}" for k, v in payload["hexside_features"].items()),
              f"Rail lines: {payload['rail_lines']}"]
    return _emit(args, payload, lines)


def _count(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return dict(sorted(out.items()))


def _hex_report(world: WorldMap, hex_) -> dict:
    country = world.country_of(hex_)
    area = world.sea_area_of(hex_)
    city = world.place_at(hex_)
    lon, lat = hex_to_lonlat(hex_)
    return {
        "hex": list(hex_),
        "lon": round(lon, 2),
        "lat": round(lat, 2),
        "terrain": world.terrain(hex_),
        "country": {"code": country.code, "name": country.name, "controller": country.controller or None}
        if country else None,
        "sea_area": {"code": area.code, "name": area.name} if area else None,
        "weather_zone": world.weather_zone(hex_),
        "half_map": world.half_map(hex_),
        "coastal": world.is_coastal(hex_),
        "city": {"name": city.name, "kind": city.kind, "port": city.port or None, "objective": city.objective,
                 "aliases": list(city.aliases), "iced_zone": city.iced_zone,
                 "sea_areas": {code: {"name": world.sea_areas[code].name, "approach": hexes,
                                      "waters": list(world.port_waters(city)[code])}
                               for code, hexes in world.port_approaches(city).items()} if city.port else {},
                 "straits": sorted({f.name for _, f in world.hexsides_of(hex_) if f.kind == "strait"})}
        if city else None,
        "economy": [{"kind": f.kind, "count": f.count} for f in world.economy_at(hex_)],
        "rails": world.rails_at(hex_),
        "hexsides": [{"side": d, "kind": f.kind, "name": f.name} for d, f in world.hexsides_of(hex_)]
                    + [{"side": d, "kind": f.kind, "name": f.name} for d, f in world.forts_of(hex_)],
    }


def cmd_hex(args) -> int:
    try:
        world = _world(args)
        label, hexes = world.resolve(args.place)
    except MapFormatError as error:
        return _fail(str(error))
    except KeyError as error:
        return _fail(error.args[0])
    water = world.named_water(label)
    if water is not None:  # a named part of a sea area: the area the naval rules use, and its ports
        ports = sorted(p.name for p in world.ports if water.name in world.port_waters(p).get(water.sea_area, ()))
        area = world.sea_areas[water.sea_area]
        payload = {"named_water": {"name": water.name, "sea_area": {"code": area.code, "name": area.name},
                                   "hexes": len(water.hexes), "ports": ports}}
        lines = [f"{water.name}: part of the {area.name} sea area ({area.code}), {len(water.hexes)} sea hexes "
                 f"(the naval rules see the sea area)",
                 "Ports: " + (", ".join(ports) or "none")]
        return _emit(args, payload, lines)
    if len(hexes) > 1:  # a sea area: describe the area, not every hex
        area = world.sea_area(label)
        coast = world.coast_of(area.code)
        iced = [p for p in area.ports if world.port(p).iced_zone is not None]
        payload = {"sea_area": {"code": area.code, "name": area.name, "hexes": area.hexes,
                                "sections": area.sections, "adjacent": [world.sea_areas[c].name for c in area.adjacent],
                                "ports": list(area.ports), "iced_ports": iced,
                                "coastal_hexes": len(coast)}}
        lines = [f"{area.name} ({area.code}): {area.hexes} sea hexes, sea-box sections {area.sections}, "
                 f"{len(coast)} coastal hexes",
                 "Adjacent: " + ", ".join(world.sea_areas[c].name for c in area.adjacent),
                 "Ports: " + (", ".join(area.ports) or "none"),
                 "Iced-in ports: " + (", ".join(iced) or "none")]
        return _emit(args, payload, lines)
    report = _hex_report(world, hexes[0])
    c = report["country"]
    lines = [f"Hex {report['hex'][0]},{report['hex'][1]} ({report['lat']:.1f}, {report['lon']:.1f}): {report['terrain']}",
             f"  country:      {c['name'] + ' (' + c['code'] + ')' if c else '-'}"
             + (f", controlled by {c['controller']}" if c and c['controller'] else (", neutral" if c else "")),
             f"  sea area:     {report['sea_area']['name'] if report['sea_area'] else '-'}",
             f"  weather zone: {report['weather_zone']}   half-map: {report['half_map']}"
             f"   coastal: {'yes' if report['coastal'] else 'no'}"]
    if report["city"]:
        city = report["city"]
        tags = [city["kind"]] + ([f"{city['port']} port"] if city["port"] else []) + (["objective"] if city["objective"] else [])
        if city["kind"] == "port":
            tags = [f"{city['port']} port without a city"]
        if city["iced_zone"] is not None:
            tags.append(f"iced in by snow or blizzard in weather zone {city['iced_zone']}")
        lines.append(f"  {'city:   ' if city['kind'] != 'port' else 'port:   '}      {city['name']} ({', '.join(tags)})")
        for code, area in city["sea_areas"].items():
            straits = "".join(f", at the {name}" for name in city["straits"])
            lines.append(f"  harbour:      {city['port']} port on {_waters_words(code, area)}{straits}, "
                         f"{area['approach']} hex to its first all-sea hex")
    for f in report["economy"]:
        lines.append(f"  {f['kind']}: {f['count']}")
    if report["rails"]:
        lines.append("  rail:         " + ", ".join(report["rails"]))
    for side in report["hexsides"]:
        lines.append(f"  hexside {side['side']:2}:   {side['kind']} ({side['name']})")
    return _emit(args, report, lines)


def _the(name: str) -> str:
    return name if name.startswith("The ") else f"the {name}"


def _waters_words(code: str, area: dict) -> str:
    """'the Sea of Azov (Black Sea sea area, BK)', 'the Black Sea (BK)': a named water within a sea
    area (maps/src/named_waters.csv) is named with the area the naval rules use."""
    said = " and ".join(_the(water) for water in area["waters"])
    if area["waters"] == [area["name"]]:
        return f"{said} ({code})"
    return f"{said} ({area['name']} sea area, {code})"


def cmd_find(args) -> int:
    try:
        world = _world(args)
    except MapFormatError as error:
        return _fail(str(error))
    matches = world.find(args.text, limit=args.limit)
    payload = {"query": args.text, "matches": [{"kind": k, "name": n} for k, n in matches]}
    lines = [f"{n}  ({k})" for k, n in matches] or [f"no match for {args.text!r}"]
    _emit(args, payload, lines)
    return 0 if matches else 1


def cmd_distance(args) -> int:
    try:
        world = _world(args)
        a_label, a_hexes = world.resolve(args.origin)
        b_label, b_hexes = world.resolve(args.target)
    except MapFormatError as error:
        return _fail(str(error))
    except KeyError as error:
        return _fail(error.args[0])
    payload = {"from": a_label, "to": b_label, "hexes": world.distance(a_hexes, b_hexes)}
    lines = [f"{a_label} -> {b_label}: {payload['hexes']} hexes"]
    if args.air:
        air = world.air_distance(a_hexes, b_hexes)
        payload["air"] = air
        lines.append(f"air distance (around neutral countries): {air if air is not None else 'no route'}")
    return _emit(args, payload, lines)
