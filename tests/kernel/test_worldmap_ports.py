"""The map's coasts and ports for the war at sea (issue 16): the seeds' "Naval Review Summary"
counts, ports on the coast of their sea areas, the Sea of Azov, iced-in ports ("Weather Report",
"Supply Sources and Paths"), the approach to the sea-box sections ("Sea Box Section") and the
coastal mountains.  Facts a geographer would check, read from the committed maps/world/*.
"""

import shutil
import sys
from pathlib import Path

import pytest

from kernel.hexgrid import WORLD
from kernel.worldmap import (
    DEFAULT_MAP_DIR, MapFormatError, WorldMap, hex_to_lonlat, load_world_map, lonlat_to_hex,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def world() -> WorldMap:
    return load_world_map()


def test_naval_review_summary_counts(world):
    # seeds: 83 sea areas, 127 major ports and 427 minor ports
    assert len(world.sea_areas) == 83
    assert sum(1 for p in world.ports if p.port == "major") == 127
    assert sum(1 for p in world.ports if p.port == "minor") == 427
    assert len(world.port_towns) == 241 and all(p.port == "minor" for p in world.port_towns.values())


def test_every_port_borders_each_sea_area_listing_it_and_is_listed_by_each_it_borders(world):
    listed = {}
    for code, area in world.sea_areas.items():
        for name in area.ports:
            port = world.port(name)
            assert port is not None, (code, name)
            listed.setdefault(port.name, set()).add(code)
    for port in world.ports:
        assert world.is_coastal(port.hex), port.name
        assert set(world.touching_sea_areas(port.hex)) == listed.get(port.name), port.name
        assert set(world.port_approaches(port).values()) == {1}, port.name


@pytest.mark.parametrize("name,area", [
    ("Rostov", "Black Sea"), ("Bremen", "North Sea"), ("Hamburg", "North Sea"), ("Montreal", "Grand Banks"),
    ("Quebec", "Grand Banks"), ("Juneau", "Gulf of Alaska"), ("Nanking", "China Sea"),
    ("Kandalaksha", "Arctic Ocean"), ("Punta Arenas", "Falkland Islands"),
])
def test_ports_up_rivers_and_fjords_reach_their_sea(world, name, area):
    port = world.port(name)
    assert port is not None and world.sea_area(area).code in world.port_areas(port), name


@pytest.mark.parametrize("name,area", [
    # the Baltic, the Mediterranean, the Solomons and a few famous harbours of 1939-45
    ("Karlskrona", "Baltic Sea"), ("Visby", "Baltic Sea"), ("Gavle", "Baltic Sea"), ("Pola", "Central Mediterranean"),
    ("Brindisi", "Central Mediterranean"), ("Ancona", "Central Mediterranean"), ("Malaga", "Western Mediterranean"),
    ("Almeria", "Western Mediterranean"), ("Volos", "Eastern Mediterranean"), ("Chios", "Eastern Mediterranean"),
    ("Buna", "Coral Sea"), ("Munda", "Coral Sea"), ("Rekata Bay", "Coral Sea"), ("Madang", "Bismarck Sea"), ("Lorient", "Bay of Biscay"),
    ("Saint-Nazaire", "Bay of Biscay"), ("Tromso", "Norwegian Sea"), ("Lerwick", "Faeroes Gap"),
    ("Aberdeen", "North Sea"), ("Swansea", "Western Approaches"), ("Galveston", "Gulf of Mexico"),
    ("Majuro", "Marshalls"), ("Adak", "Aleutian Islands"), ("Port Vila", "New Hebrides"),
])
def test_minor_ports_are_on_the_coast_a_geographer_expects(world, name, area):
    port = world.port(name)
    assert port is not None and port.port == "minor", name
    assert world.sea_area(area).code in world.port_areas(port), (name, world.port_areas(port))


def test_ports_without_a_city_are_not_cities(world):
    onega = world.port("Onega")
    assert onega.kind == "port" and not onega.objective
    assert world.city("Onega") is None and world.city_at(onega.hex) is None  # no city effects, no objective
    assert world.port_at(onega.hex) is onega and world.place_at(onega.hex) is onega
    assert "Onega" not in world.cities and ("port", "Onega") in world.find("Onega")
    rostov = world.city("Rostov")
    assert world.port_at(rostov.hex) is rostov and world.city_at(rostov.hex) is rostov
    assert world.resolve("Onega") == ("Onega", [onega.hex])


def test_the_sea_of_azov_is_sea_with_rostov_on_it_and_the_kerch_strait(world):
    taganrog_bay, central_azov = lonlat_to_hex(38.5, 46.9), lonlat_to_hex(37.0, 46.2)
    for h in (taganrog_bay, central_azov):
        assert world.is_sea(h) and world.sea_area_code(h) == "BK"
    assert world.city("Rostov").hex == (219, 61)  # Barbarossa's map: the city did not move
    assert "BK" in world.touching_sea_areas(world.city("Rostov").hex)
    (kerch_side,) = world.hexsides_named("Kerch Strait")
    a, b = WORLD.hexside_hexes(kerch_side)
    assert world.is_land(a) and world.is_land(b) and world.city("Kerch").hex in (a, b)
    # the strait joins the Azov to the open Black Sea: sea on both of its ends
    ends = set(WORLD.neighbours(a)) & set(WORLD.neighbours(b))
    assert {world.sea_area_code(h) for h in ends} == {"BK"} and len(ends) == 2


ICED = ["Archangel", "Leningrad", "Helsinki", "Lulea", "Riga", "Montreal", "Quebec", "Churchill", "Magadan",
        "Nikolayevsk", "Nome", "Anchorage", "Rostov", "Dikson", "Tiksi"]
ICE_FREE = ["Murmansk", "Narvik", "Vladivostok", "Tallinn", "Stockholm", "Reykjavik", "Dutch Harbor", "Halifax",
            "Odessa", "Copenhagen", "Petropavlovsk"]


def test_iced_in_ports_and_the_weather_zones_that_ice_them(world):
    for name in ICED:
        port = world.port(name)
        assert port.iced_zone == world.weather_zone(port.hex), name
    for name in ICE_FREE:
        assert world.port(name).iced_zone is None, name
    assert len(world.iced_ports) == 43
    # ice is a northern winter's: Arctic or north temperate zone, north of 43N (Hokkaido's drift ice)
    assert {p.iced_zone for p in world.iced_ports} == {1, 2}
    assert all(hex_to_lonlat(p.hex)[1] > 43 for p in world.iced_ports)


def test_every_sea_area_has_sections_0_to_4_a_coast_and_ports_one_hex_from_it(world):
    for code, area in world.sea_areas.items():
        assert list(area.section_range) == [0, 1, 2, 3, 4], code
        coast = world.coast_of(code)
        assert all(world.approach(h, code) == 1 for h in coast[::7]), code
        for name in area.ports:
            assert world.approach(world.port(name).hex, code) == 1, (code, name)
    # only the open oceans have no port; only the Central Atlantic and the North Pacific no coast at all
    assert {c for c, a in world.sea_areas.items() if not a.ports} == {"NA", "CA", "SA", "NP"}
    assert {c for c in world.sea_areas if not world.coast_of(c)} == {"CA", "NP"}
    sea = world.hexes_of_sea_area("NS")[0]
    assert world.approach(sea, "NS") == 0
    assert world.approach(world.city("Moscow").hex, "BA") > 6  # inland air bases are farther
    with pytest.raises(KeyError, match="'XX' is not a sea area"):
        world.approach(sea, "XX")
    with pytest.raises(KeyError, match="'Moscow' is not a port"):
        world.port_approaches("Moscow")


@pytest.mark.parametrize("lon,lat,place", [
    (-6.2, 57.22, "Skye (the Cuillin)"), (-6.0, 56.6, "Mull and Ardnamurchan"), (-5.5, 56.0, "Argyll and Jura"),
    (-3.0, 52.84, "north Wales"), (-3.0, 54.11, "the Lake District"), (-3.9, 52.84, "Snowdonia"),
])
def test_coastal_mountains_of_britain(world, lon, lat, place):
    h = lonlat_to_hex(lon, lat)
    assert world.terrain(h) == "mountain" and world.is_coastal(h), place


@pytest.fixture
def map_copy(tmp_path) -> Path:
    target = tmp_path / "world"
    shutil.copytree(DEFAULT_MAP_DIR, target)
    return target


def _edit_cities(path: Path, name: str, transform) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(name + ","))
    lines[index] = transform(lines[index])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return index + 1


def test_an_iced_zone_other_than_the_ports_weather_zone_is_refused(map_copy):
    line = _edit_cities(map_copy / "cities.csv", "Archangel", lambda s: s[: s.rindex(",")] + ",4")
    with pytest.raises(MapFormatError, match=rf"cities\.csv.*line {line}.*Archangel: iced_zone 4 must be the weather zone"):
        WorldMap(map_copy)


def test_a_port_without_a_city_needs_a_port_class(map_copy):
    line = _edit_cities(map_copy / "cities.csv", "Onega", lambda s: s.replace(",port,minor,", ",port,,"))
    with pytest.raises(MapFormatError, match=rf"cities\.csv.*line {line}.*Onega is a port without a port class"):
        WorldMap(map_copy)


def _ports_module():
    sys.path.insert(0, str(REPO / "tools" / "mapbuild"))
    try:
        import ports
    finally:
        sys.path.remove(str(REPO / "tools" / "mapbuild"))
    return ports


def test_the_minor_port_list_is_read_and_bad_lines_are_named(tmp_path):
    ports = _ports_module()
    listed = ports.read_port_list(REPO / "maps" / "src" / "minor_ports_1939.txt")
    assert len(listed) == 241 and len({p["name"] for p in listed}) == 241
    assert {"name": "Pola", "area": "CM", "lookup": "Pula", "country": "HR"}.items() <= next(
        p for p in listed if p["name"] == "Pola").items()
    bad = tmp_path / "ports.txt"
    for text, message in [("Onega RU\n", "a port before any"), ("[AO]\nOnega\n", "ISO country code last"),
                          ("[AO]\nGremikha @ 68.07\n", "expected 'Name @ lat,lon'"), ("[Arctic]\n", "two-letter")]:
        bad.write_text(text, encoding="utf-8")
        with pytest.raises(SystemExit, match=rf"ports\.txt line \d+: .*{message}"):
            ports.read_port_list(bad)
    assert ports.fold("Świnoujście") == "swinoujscie" and ports.fold("Saint John’s") == "saint john s"
