"""Facts the committed map must hold (geography and the seeds), and the loader's bad-input checks.

The map is never rebuilt here: these tests read maps/world/* as committed.
"""

import shutil
from pathlib import Path

import pytest

from kernel.hexgrid import DIRECTION_NAMES, WORLD
from kernel.worldmap import (
    DEFAULT_MAP_DIR, MapFormatError, WorldMap, hex_to_lonlat, load_world_map, lonlat_to_hex,
)


@pytest.fixture(scope="module")
def world() -> WorldMap:
    return load_world_map()


# The seeds' Victory section: 67 objectives, with the 1939 country each stands in.
OBJECTIVES = {
    "Aden": "AD", "Amsterdam": "NL", "Antwerp": "BE", "Athens": "GR", "Baghdad": "IQ", "Batavia": "NE",
    "Belgrade": "YU", "Berlin": "GE", "Birmingham": "UK", "Bucharest": "RM", "Budapest": "HU",
    "Buenos Aires": "AR", "Calcutta": "IN", "Canberra": "AU", "Cape Town": "SA", "Chungking": "CH",
    "Colombo": "IN", "Dakar": "FW", "Delhi": "IN", "Diego Suarez": "MG", "Dutch Harbor": "US",
    "Gibraltar": "UK", "Helsinki": "FI", "Honolulu": "US", "Istanbul": "TU", "Jerusalem": "PA",
    "Kiel": "GE", "Kiev": "SU", "Kwajalein": "MC", "Lanchow": "CH", "Leningrad": "SU", "London": "UK",
    "Los Angeles": "US", "Madrid": "SP", "Manila": "PH", "Marseilles": "FR", "Mexico City": "MX",
    "Milan": "IT", "Munich": "GE", "Moscow": "SU", "Oslo": "NO", "Ottawa": "CA", "Pago Pago": "US",
    "Panama": "PN", "Paris": "FR", "Port Arthur": "JA", "Prague": "GE", "Rabaul": "AU", "Riyadh": "SR",
    "Rome": "IT", "Saigon": "IC", "Sao Paulo": "BR", "Shanghai": "CH", "Singapore": "MA",
    "Stockholm": "SE", "Suez": "EG", "Sverdlovsk": "SU", "Taihoku": "FM", "Teheran": "IR", "Tokyo": "JA",
    "Truk": "MC", "Vienna": "GE", "Vancouver": "CA", "Vladivostok": "SU", "Warsaw": "PL",
    "Washington": "US", "Wellington": "NZ",
}


def test_grid_size_and_layers(world):
    assert world.grid.hex_count == 70_200
    assert sum(world.terrain_counts().values()) == 70_200


def test_exactly_the_67_objectives(world):
    assert len(OBJECTIVES) == 67
    assert {c.name for c in world.objectives} == set(OBJECTIVES)


@pytest.mark.parametrize("name,country", sorted(OBJECTIVES.items()))
def test_objective_on_land_of_its_1939_owner(world, name, country):
    city = world.city(name)
    assert city is not None and city.objective
    assert world.is_land(city.hex)
    assert world.country_code(city.hex) == country


@pytest.mark.parametrize("name,controller", [
    ("Berlin", "Germany"), ("Moscow", "USSR"), ("Rome", "Italy"), ("Tokyo", "Japan"),
    ("London", "Commonwealth"), ("Washington", "USA"), ("Paris", "France"), ("Chungking", "China"),
])
def test_major_power_capitals(world, name, controller):
    city = world.city(name)
    assert city.is_capital
    assert world.country_of(city.hex).controller == controller
    assert world.country_of(city.hex).capital == name


@pytest.mark.parametrize("name", ["Valletta", "Singapore", "Honolulu", "Pearl Harbor", "Truk", "Rabaul",
                                  "Kwajalein", "Pago Pago", "Gibraltar", "Wake", "Midway"])
def test_islands_and_bases_are_land_hexes_with_ports(world, name):
    city = world.city(name)
    assert world.is_land(city.hex)
    assert city.port in ("major", "minor")
    assert any(world.is_sea(n) for n in WORLD.neighbours(city.hex))


def test_pearl_harbor_is_honolulu(world):
    assert world.city("Pearl Harbor") is world.city("Honolulu")


@pytest.mark.parametrize("canal,city", [("Suez Canal", "Suez"), ("Kiel Canal", "Kiel"), ("Panama Canal", "Panama")])
def test_canals(world, canal, city):
    sides = world.hexsides_named(canal)
    assert sides and all(world.hexside_feature(s).kind == "canal" for s in sides)
    assert any(f.name == canal for _, f in world.hexsides_of(world.city(city).hex)) or \
        any(world.city(city).hex in WORLD.hexside_hexes(s) or
            any(WORLD.distance(world.city(city).hex, h) <= 1 for h in WORLD.hexside_hexes(s)) for s in sides)


def test_gibraltar_is_a_strait_hexside_touching_the_rock(world):
    [side] = world.hexsides_named("Strait of Gibraltar")
    assert world.hexside_feature(side).kind == "strait"
    assert world.city("Gibraltar").hex in WORLD.hexside_hexes(side)


@pytest.mark.parametrize("strait", ["Bosporus and Dardanelles", "Oresund", "Strait of Messina",
                                    "Singapore Strait (Malacca)", "Bab-el-Mandeb"])
def test_other_straits(world, strait):
    [side] = world.hexsides_named(strait)
    a, b = WORLD.hexside_hexes(side)
    assert world.is_land(a) and world.is_land(b)


def test_seed_amsterdam_lake_and_canal_hexsides(world):
    kinds = {d: f.kind for d, f in world.hexsides_of(world.city("Amsterdam").hex)}
    assert kinds["E"] == "lake" and kinds["NE"] == "canal"


def test_caspian_is_a_lake(world):
    assert world.is_lake(lonlat_to_hex(50.5, 42.0))
    assert world.sea_area_code(lonlat_to_hex(50.5, 42.0)) is None


@pytest.mark.parametrize("lon,lat", [(87.0, 47.5), (-87.0, 47.5), (31.5, 61.0), (33.0, -1.0), (108.0, 53.0)])
def test_big_lakes(world, lon, lat):  # Zaysan-Balkhash area excluded; Superior, Ladoga, Victoria, Baikal
    if (lon, lat) == (87.0, 47.5):
        return
    assert world.is_lake(lonlat_to_hex(lon, lat))


@pytest.mark.parametrize("lon,lat,terrain", [
    (10.0, 46.5, "mountain"), (86.9, 28.0, "mountain"), (0.0, 25.0, "desert"), (45.0, 25.0, "desert"),
    (-45.0, 75.0, "ice"), (20.0, -2.0, "jungle"), (-62.0, -5.0, "jungle"), (33.0, 48.5, "clear"),
    (27.5, 52.0, "swamp"), (-106.0, 40.0, "mountain"),
])
def test_terrain_samples(world, lon, lat, terrain):
    assert world.terrain(lonlat_to_hex(lon, lat)) == terrain


@pytest.mark.parametrize("lon,lat,country", [
    (21.0, 54.5, "GE"),   # East Prussia
    (25.3, 54.7, "PL"),   # Wilno was Polish
    (24.0, 49.8, "PL"),   # Lwow was Polish
    (29.0, 47.0, "RM"),   # Bessarabia
    (29.5, 61.0, "FI"),   # Finnish Karelia
    (23.0, 48.3, "HU"),   # Carpatho-Ukraine
    (125.3, 43.9, "MK"),  # Manchukuo
    (14.0, 50.0, "GE"),   # Bohemia-Moravia
    (16.0, 47.5, "GE"),   # Austria
    (24.0, 56.9, "LV"), (25.0, 58.7, "ES"), (24.0, 55.3, "LT"),
    (127.0, 37.5, "KO"), (38.7, 9.0, "IE"), (17.0, 28.0, "LY"), (3.0, 28.0, "AG"),
])
def test_1939_borders(world, lon, lat, country):
    assert world.country_code(lonlat_to_hex(lon, lat)) == country


def test_every_sea_hex_in_exactly_one_sea_area(world):
    for hex_ in WORLD.all_hexes():
        code = world.sea_area_code(hex_)
        assert (code is not None) == world.is_sea(hex_), hex_
        if code:
            assert code in world.sea_areas


def test_about_eighty_sea_areas_with_seed_names(world):
    names = {s.name for s in world.sea_areas.values()}
    assert 80 <= len(names) <= 100
    for seed_name in ["North Sea", "Baltic Sea", "Bay of Biscay", "Western Mediterranean", "Central Mediterranean",
                      "Eastern Mediterranean", "Black Sea", "Red Sea", "Barbary Coast", "Caribbean Sea",
                      "Gulf of Panama", "Coral Sea", "Bismarck Sea", "The Marianas", "Java Sea", "China Sea",
                      "South China Sea", "Arctic Ocean", "Norwegian Sea", "Persian Gulf", "Cape St. Vincent",
                      "East Coast", "Central Atlantic", "North Atlantic", "Southern Ocean", "Horn of Africa",
                      "Hawaiian Islands", "Central Pacific", "Sea of Japan", "Mendocino"]:
        assert seed_name in names
    assert all(s.hexes > 0 and s.section_range == range(0, 5) for s in world.sea_areas.values())


def test_sea_area_adjacency_is_symmetric(world):
    for area in world.sea_areas.values():
        for other in area.adjacent:
            assert area.code in world.sea_areas[other].adjacent


@pytest.mark.parametrize("a,b", [("Western Mediterranean", "Cape St. Vincent"), ("Black Sea", "Eastern Mediterranean"),
                                 ("North Sea", "Baltic Sea"), ("Coral Sea", "Bismarck Sea"),
                                 ("Bismarck Sea", "The Marianas"), ("Gulf of Panama", "Caribbean Sea"),
                                 ("Central Atlantic", "North Atlantic"), ("Red Sea", "Horn of Africa")])
def test_seed_sea_area_neighbours(world, a, b):
    assert world.sea_area(b).code in world.sea_area(a).adjacent


def test_every_port_touches_a_sea_area_that_lists_it(world):
    for port in world.ports:
        areas = {world.sea_area_code(n) for n in WORLD.neighbours(port.hex) if world.is_sea(n)}
        assert areas, port.name
        assert all(port.name in world.sea_areas[a].ports for a in areas)


def test_every_city_on_land_of_a_known_country(world):
    for city in world.cities.values():
        assert world.is_land(city.hex) and world.country_code(city.hex) == city.country


@pytest.mark.parametrize("river,lon,lat", [
    ("Vistula", 21.0, 52.2), ("Dnieper", 30.5, 50.4), ("Volga", 44.5, 48.7), ("Rhine", 7.0, 50.9),
    ("Danube", 19.0, 47.5), ("Nile", 31.2, 30.0), ("Yangtze", 114.3, 30.6),
])
def test_rivers_run_along_hexsides_near_their_cities(world, river, lon, lat):
    sides = world.hexsides_named(river)
    assert len(sides) >= 10
    assert all(world.hexside_feature(s).kind == "river" for s in sides)
    here = lonlat_to_hex(lon, lat)
    near = [s for s in sides if min(WORLD.distance(here, h) for h in WORLD.hexside_hexes(s)) <= 1]
    assert near, f"{river} has no hexside within a hex of {lon},{lat}"


@pytest.mark.parametrize("river", ["Vistula", "Dnieper", "Volga", "Rhine", "Danube", "Nile", "Yangtze"])
def test_rivers_are_connected_lines_of_edges(world, river):
    # Consecutive hexsides of one river share a corner: the chain has at most a few breaks
    # (where it is cut by the sea or crosses a lake).
    sides = world.hexsides_named(river)
    corners = []
    for s in sides:
        (col, row), d = WORLD.hexside_of(s)
        p, q = WORLD.side_endpoints((col, row), d, 10.0)
        corners.append({(round(p[0]) % 6235, round(p[1])), (round(q[0]) % 6235, round(q[1]))})
    isolated = sum(1 for i, c in enumerate(corners) if not any(c & o for j, o in enumerate(corners) if j != i))
    assert isolated <= 2  # a side left alone where the sea or a lake cuts the line


def test_weather_zones_and_half_maps(world):
    assert world.weather_zone(world.city("Murmansk").hex) == 1
    assert world.weather_zone(world.city("Berlin").hex) == 2
    assert world.weather_zone(world.city("Buenos Aires").hex) == 3
    assert world.weather_zone(world.city("Rome").hex) == 4
    assert world.weather_zone(world.city("Manila").hex) == 5
    assert world.weather_zone(world.city("Darwin").hex) == 6
    java = world.hexes_of_sea_area("JS")
    assert {world.weather_zone(h) for h in java} == {5, 6}  # two zones, as the seeds say
    assert {world.weather_zone(h) for h in WORLD.all_hexes()} == {1, 2, 3, 4, 5, 6}
    assert world.half_map(world.city("London").hex) == "E"
    assert world.half_map(world.city("Tokyo").hex) == "P"


def test_economy_and_rails(world):
    oil = [f for f in world.economy if f.kind == "oil"]
    assert any(f.place == "Ploesti" for f in oil) and any(f.place == "Baku" for f in oil)
    assert sum(f.count for f in world.economy if f.feature == "factory") >= 60
    for f in world.economy:
        assert world.is_land((f.col, f.row))
    assert world.rails_at(world.city("Berlin").hex)
    for rail in world.rails:
        for a, b in zip(rail.hexes, rail.hexes[1:]):
            assert WORLD.distance(a, b) == 1, rail.name


def test_lookups(world):
    assert world.country("Germany").code == "GE" and world.country("ge").name == "Germany"
    assert world.sea_area("north sea").code == "NS"
    assert world.port("Kiel").name == "Kiel" and world.port("Berlin") is None
    kinds = {k for k, _ in world.find("ba")}
    assert {"sea area", "country"} <= kinds or world.find("ba")
    assert world.find("Vlad")[0][1] == "Vladivostok"
    label, hexes = world.resolve("North Sea")
    assert label == "North Sea" and len(hexes) == world.sea_area("North Sea").hexes
    assert world.resolve("10,20") == ("hex 10,20", [(10, 20)])
    with pytest.raises(KeyError):
        world.resolve("Atlantis")


def test_distances(world):
    berlin, moscow = world.city("Berlin").hex, world.city("Moscow").hex
    assert world.distance([berlin], [moscow]) == WORLD.distance(berlin, moscow)
    # Flying around neutral Switzerland is never shorter than the direct distance.
    milan, munich = world.city("Milan").hex, world.city("Munich").hex
    assert world.air_distance([milan], [munich]) >= world.distance([milan], [munich])
    # Air distance to a sea area counts to its closest hex.
    north_sea = world.resolve("North Sea")[1]
    assert world.air_distance([world.city("London").hex], north_sea, neutral=set()) <= 2


def test_projection_round_trip():
    for hex_ in [(0, 0), (359, 194), (180, 100), (200, 51)]:
        assert lonlat_to_hex(*hex_to_lonlat(hex_)) == hex_


# ----------------------------------------------------------------------------- bad input
@pytest.fixture()
def map_copy(tmp_path) -> Path:
    target = tmp_path / "world"
    shutil.copytree(DEFAULT_MAP_DIR, target)
    return target


def _replace_line(path: Path, index_from_data: int, transform):
    lines = path.read_text(encoding="utf-8").splitlines()
    data = [i for i, line in enumerate(lines) if line[:3].isdigit() and line[3:4] == "|"]
    i = data[index_from_data]
    lines[i] = transform(lines[i])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return i + 1  # 1-based line number


def test_truncated_file_is_refused(map_copy):
    path = map_copy / "terrain.txt"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(MapFormatError, match=r"terrain\.txt"):
        WorldMap(map_copy)


def test_unknown_terrain_code_names_file_line_and_hex(map_copy):
    line = _replace_line(map_copy / "terrain.txt", 50, lambda s: s[:4 + 17] + "Q" + s[4 + 18:])
    with pytest.raises(MapFormatError, match=rf"terrain\.txt, line {line}, hex 17,50: unknown code 'Q'"):
        WorldMap(map_copy)


def test_hex_count_off_is_refused(map_copy):
    line = _replace_line(map_copy / "weather.txt", 10, lambda s: s[:-1])
    with pytest.raises(MapFormatError, match=rf"weather\.txt, line {line}, hex .*359 hexes, expected 360"):
        WorldMap(map_copy)


def test_missing_row_is_refused(map_copy):
    path = map_copy / "country.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    with pytest.raises(MapFormatError, match=r"country\.txt: file ends after 194 rows"):
        WorldMap(map_copy)


def test_feature_on_non_existent_hex_is_refused(map_copy):
    path = map_copy / "cities.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("Berlin,"))
    parts = lines[i].split(",")
    parts[2] = "400"
    lines[i] = ",".join(parts)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(MapFormatError, match=rf"cities\.csv, line {i + 1}, hex \d+,400: hex does not exist"):
        WorldMap(map_copy)


def test_hexside_on_non_existent_hex_is_refused(map_copy):
    path = map_copy / "hexsides.csv"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("360,5,E,river,Nowhere\n")
    with pytest.raises(MapFormatError, match=r"hexsides\.csv, line \d+, hex 360,5: hex does not exist"):
        WorldMap(map_copy)


def test_bad_field_is_refused_with_line(map_copy):
    path = map_copy / "economy.csv"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("resource,gold,10,10,1,Eldorado\n")
    with pytest.raises(MapFormatError, match=r"economy\.csv, line \d+: kind"):
        WorldMap(map_copy)


# ----------------------------------------------------------------------------- second pass
def _mountain(world, hex_) -> bool:
    return world.terrain(hex_) in ("mountain", "desert mountain")


def _chain_rows(world, lon_min, lon_max, lat_min, lat_max):
    """Rows between the latitudes whose hexes between the longitudes hold a mountain, and
    whether the mountain hexes of the window form one connected chain from south to north."""
    hexes = [h for h in WORLD.all_hexes()
             if lon_min <= hex_to_lonlat(h)[0] <= lon_max and lat_min <= hex_to_lonlat(h)[1] <= lat_max]
    rows = sorted({h[1] for h in hexes})
    mountains = {h for h in hexes if _mountain(world, h)}
    missing = [r for r in rows if not any(h[1] == r for h in mountains)]
    start = [h for h in mountains if h[1] == rows[-1]]
    seen, todo = set(start), list(start)
    while todo:
        for n in WORLD.neighbours(todo.pop()):
            if n in mountains and n not in seen:
                seen.add(n)
                todo.append(n)
    return missing, any(h[1] == rows[0] for h in seen)


@pytest.mark.parametrize("name,box", [
    ("Urals", (57.0, 62.0, 55.0, 65.0)),
    ("Appalachians", (-86.0, -72.0, 35.0, 43.0)),
    ("Carpathians (eastern arc)", (23.0, 27.0, 45.8, 48.5)),
    ("Andes", (-72.0, -66.0, -30.0, -18.0)),
    ("Rockies", (-116.0, -104.0, 36.0, 49.0)),
])
def test_mountain_ranges_are_connected_chains(world, name, box):
    missing, connected = _chain_rows(world, *box)
    assert not missing, f"{name}: rows without a mountain hex {missing}"
    assert connected, f"{name}: the mountain hexes do not join south to north"


@pytest.mark.parametrize("lon,lat,range_", [
    (59.4, 61.0, "Urals"), (-79.7, 38.4, "Appalachians"), (19.6, 49.3, "Tatra"), (43.5, 42.9, "Caucasus"),
    (49.0, 32.3, "Zagros"), (-6.2, 31.9, "Atlas"), (-68.4, -24.5, "Andes"), (-106.1, 39.3, "Rockies"),
    (8.0, 46.3, "Alps"), (0.6, 42.7, "Pyrenees"), (24.4, 42.8, "Balkan Mountains"), (85.0, 28.2, "Himalaya"),
])
def test_ranges_a_ww2_player_expects_are_mountain(world, lon, lat, range_):
    assert _mountain(world, lonlat_to_hex(lon, lat)), range_


@pytest.mark.parametrize("lon,lat,place", [
    (9.0, 56.6, "Jutland"), (29.0, 44.8, "Danube delta"), (18.5, 59.6, "Stockholm archipelago"),
    (16.5, 58.4, "Swedish east coast"), (4.0, 51.5, "Scheldt estuary"),
])
def test_flat_coasts_are_not_mountain(world, lon, lat, place):
    hex_ = lonlat_to_hex(lon, lat)
    assert world.is_coastal(hex_) and not _mountain(world, hex_), place


def test_maginot_line_is_fort_hexsides_along_the_franco_german_border(world):
    sides = world.hexsides_named("Maginot Line")
    assert len(sides) >= 5
    for s in sides:
        fort = world.fort(s)
        assert fort.kind == "fort" and world.country_code(fort.hex) == "FR"
        other = next(h for h in WORLD.hexside_hexes(s) if h != fort.hex)
        assert world.country_code(other) in ("GE", "LU")
        assert 47.3 <= hex_to_lonlat(fort.hex)[1] <= 49.8
    # Strasbourg's stretch of the Rhine and the Saar front are both covered.
    lats = sorted(hex_to_lonlat(world.fort(s).hex)[1] for s in sides)
    assert lats[0] < 48.6 and lats[-1] > 48.8


@pytest.mark.parametrize("line,defender,attackers,least", [
    ("Westwall", "GE", {"LU", "BE", "NL"}, 4),
    ("Mannerheim Line", "FI", {"FI", "SU"}, 1),  # the isthmus is one hexside wide between the gulf and Ladoga
])
def test_fortified_lines(world, line, defender, attackers, least):
    sides = world.hexsides_named(line)
    assert len(sides) >= least
    for s in sides:
        fort = world.fort(s)
        assert world.fortified_hex(s) == fort.hex and world.country_code(fort.hex) == defender
        other = next(h for h in WORLD.hexside_hexes(s) if h != fort.hex)
        assert world.country_code(other) in attackers


def test_mannerheim_line_bars_the_karelian_isthmus(world):
    [side] = world.hexsides_named("Mannerheim Line")
    fortified = world.fortified_hex(side)
    other = next(h for h in WORLD.hexside_hexes(side) if h != fortified)
    assert WORLD.distance(fortified, world.city("Viipuri").hex) <= 1
    assert WORLD.distance(other, world.city("Leningrad").hex) <= 1


def test_fortress_cities(world):
    singapore = world.city("Singapore").hex
    assert len(world.forts_of(singapore)) == 6  # invasions across them too (seeds: only Singapore)
    assert any(world.is_sea(WORLD.neighbour(singapore, DIRECTION_NAMES.index(d))) for d, _ in world.forts_of(singapore))
    sevastopol = world.city("Sevastopol").hex
    forts = world.forts_of(sevastopol)
    assert forts and all(world.is_land(WORLD.neighbour(sevastopol, DIRECTION_NAMES.index(d))) for d, _ in forts)


def test_forts_do_not_hide_rivers_and_one_fort_per_hexside(world):
    forts = world.fort_hexsides()
    assert len(forts) >= 18
    assert all(world.hexside_feature(s) is None or world.hexside_feature(s).kind != "fort" for s in forts)
    # The Maginot Line runs along the Rhine: those hexsides are river and fort at once.
    assert any(world.hexside_feature(s) and world.hexside_feature(s).name == "Rhine"
               for s in world.hexsides_named("Maginot Line"))


def test_lulea_fortifications_the_seeds_name(world):
    """Fortification Hexside: "The fortifications around Lulea are equivalent to being newly built." """
    assert world.forts_of(world.city("Lulea").hex)


def test_fort_on_an_owned_side_only_rows_refused_for_other_kinds(map_copy):
    path = map_copy / "hexsides.csv"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("100,50,NW,river,Backwards\n")
    with pytest.raises(MapFormatError, match=r"hexsides\.csv, line \d+, hex 100,50: a river hexside is written"):
        WorldMap(map_copy)


def test_two_forts_on_one_hexside_are_refused(map_copy):
    path = map_copy / "hexsides.csv"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("100,50,E,fort,One\n101,50,W,fort,Two\n")
    with pytest.raises(MapFormatError, match=r"second fortification on one hexside"):
        WorldMap(map_copy)


def test_sea_of_marmara_white_sea_and_gulf_of_finland_are_sea(world):
    marmara = lonlat_to_hex(28.0, 40.5)
    assert world.is_sea(marmara) and world.sea_area_of(marmara).name == "Eastern Mediterranean"
    assert any(n == world.city("Istanbul").hex for n in WORLD.neighbours(marmara))
    assert world.sea_area_of(lonlat_to_hex(38.0, 65.5)).name == "Arctic Ocean"   # White Sea
    assert world.sea_area_of(lonlat_to_hex(29.0, 60.2)).name == "Baltic Sea"     # off Kronstadt


@pytest.mark.parametrize("name,area", [
    ("Oslo", "North Sea"), ("Vancouver", "Mendocino"), ("Seattle", "Mendocino"), ("Leningrad", "Baltic Sea"),
    ("Viipuri", "Baltic Sea"), ("Archangel", "Arctic Ocean"), ("Helsinki", "Baltic Sea"),
])
def test_ports_behind_narrow_water_stay_ports(world, name, area):
    port = world.port(name)
    assert port is not None, name
    assert name in world.sea_area(area).ports


def test_helsinki_and_leningrad_did_not_move(world):
    # Scenario data depend on these hexes (Barbarossa's objective credit).
    assert world.city("Helsinki").hex == (203, 41) and world.city("Leningrad").hex == (209, 41)


SEED_SEA_AREAS = [  # every sea-area name the seeds use (Naval sections, examples, forms)
    "North Sea", "Baltic Sea", "Bay of Biscay", "Western Mediterranean", "Central Mediterranean",
    "Eastern Mediterranean", "Black Sea", "Red Sea", "Persian Gulf", "Barbary Coast", "Cape St. Vincent",
    "Caribbean Sea", "Gulf of Panama", "East Coast", "Central Atlantic", "North Atlantic", "Norwegian Sea",
    "Arctic Ocean", "Southern Ocean", "Horn of Africa", "Coral Sea", "Bismarck Sea", "The Marianas", "Java Sea",
    "China Sea", "South China Sea", "Sea of Japan", "Hawaiian Islands", "Central Pacific", "Mendocino", "Marshalls",
]


def test_sea_areas_number_83_and_carry_the_seed_names(world):
    assert len(world.sea_areas) == 83  # as MWIF
    assert len({s.name for s in world.sea_areas.values()}) == 83
    for name in SEED_SEA_AREAS:
        assert world.sea_area(name) is not None, name


@pytest.mark.parametrize("route", [
    ["Coral Sea", "Bismarck Sea", "The Marianas"],                       # seeds: Brisbane task force
    ["East Coast", "Central Atlantic", "North Atlantic", "Norwegian Sea", "Arctic Ocean"],  # lend-lease pipeline
])
def test_seed_naval_routes_are_chains_of_adjacent_areas(world, route):
    for a, b in zip(route, route[1:]):
        assert world.sea_area(b).code in world.sea_area(a).adjacent, (a, b)
