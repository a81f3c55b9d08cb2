"""Named waters within a sea area (maps/src/named_waters.csv): the Sea of Azov is a named part of
the Black Sea area, as in the board game, whose 83 sea areas ("Naval Review Summary") have no Sea
of Azov of their own. Facts a geographer would check; the naval rules still see one sea area.
"""

import shutil
from pathlib import Path

import pytest

from kernel.worldmap import DEFAULT_MAP_DIR, MapFormatError, WorldMap, load_world_map


@pytest.fixture(scope="module")
def world() -> WorldMap:
    return load_world_map()


def test_the_sea_of_azov_is_a_named_part_of_the_black_sea_area(world):
    azov = world.named_waters["Sea of Azov"]
    assert azov.sea_area == "BK" and len(world.sea_areas) == 83
    assert world.sea_area("Sea of Azov") is None  # no sea area of its own
    assert all(world.sea_area_code(h) == "BK" and world.named_water_of(h) == azov for h in azov.hexes)
    # The Kerch Strait hexside is on Kerch's hex, between the Azov and the Black Sea proper.
    assert any(f.kind == "strait" and f.name == "Kerch Strait" for _, f in world.hexsides_of(world.port("Kerch").hex))


@pytest.mark.parametrize("port", ["Rostov", "Taganrog", "Mariupol", "Berdyansk"])
def test_azov_ports_open_on_the_sea_of_azov_only(world, port):
    assert world.port_waters(port) == {"BK": ("Sea of Azov",)}


@pytest.mark.parametrize("port", ["Sevastopol", "Odessa", "Varna", "Batum", "Novorossiisk"])
def test_black_sea_ports_open_on_the_black_sea_proper(world, port):
    assert world.port_waters(port) == {"BK": ("Black Sea",)}


def test_kerch_is_on_the_strait_between_both_waters(world):
    assert world.port_waters("Kerch") == {"BK": ("Black Sea", "Sea of Azov")}


@pytest.mark.parametrize("port, area, water", [
    ("Lulea", "BA", "Gulf of Bothnia"), ("Umea", "BA", "Gulf of Bothnia"), ("Leningrad", "BA", "Gulf of Finland"),
    ("Helsinki", "BA", "Gulf of Finland"), ("Riga", "BA", "Gulf of Riga"), ("Trieste", "CM", "Adriatic Sea"),
    ("Venice", "CM", "Adriatic Sea"), ("Split", "CM", "Adriatic Sea"), ("Salonika", "EM", "Aegean Sea"),
    ("Izmir", "EM", "Aegean Sea"), ("Tsingtao", "CS", "Yellow Sea"), ("Port Arthur", "CS", "Yellow Sea"),
])
def test_named_gulfs_and_seas(world, port, area, water):
    assert world.port_waters(port)[area] == (water,)


def test_ports_on_the_open_area_and_outside_any_named_water(world):
    assert world.port_waters("Danzig") == {"BA": ("Baltic Sea",)}
    assert world.port_waters("Naples") == {"CM": ("Central Mediterranean",)}
    assert world.port_waters("Istanbul") == {"BK": ("Black Sea",), "EM": ("Sea of Marmara",)}
    with pytest.raises(KeyError, match="'Moscow' is not a port"):
        world.port_waters("Moscow")


def _edit(path: Path, old: str, new: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if old in line)
    lines[index] = lines[index].replace(old, new)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return index + 1


@pytest.mark.parametrize("old, new, message", [
    ('"217,62 ', '"212,61 ', r"hex 212,61: Sea of Azov: hex is not a sea hex of BK"),
    ("Sea of Azov,BK", "Sea of Azov,XX", r"Sea of Azov: unknown sea area XX"),
    ('"217,62 ', '"217,62 217,62 ', r"hex 217,62: Sea of Azov: hex is already in Sea of Azov"),
    ('"217,62 ', '"217;62 ', r"hexes: .*expected 'col,row col,row"),
])
def test_a_bad_named_water_is_refused_naming_file_line_and_hex(tmp_path, old, new, message):
    copy = tmp_path / "world"
    shutil.copytree(DEFAULT_MAP_DIR, copy)
    line = _edit(copy / "named_waters.csv", old, new)
    with pytest.raises(MapFormatError, match=rf"named_waters\.csv, line {line}.*{message}"):
        WorldMap(copy)
