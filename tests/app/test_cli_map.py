"""`wif map` sub-commands, driven through a small argparse like app/cli.py's."""

import argparse
import json
import shutil

from app.cli_map import add_map_commands
from kernel.worldmap import DEFAULT_MAP_DIR


def run(capsys, *argv):
    map_dir = []
    if argv and argv[0] == "--map-dir":
        map_dir, argv = list(argv[:2]), argv[2:]
    parser = argparse.ArgumentParser(prog="wif")
    add_map_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["map", *map_dir, *argv])
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_info_json(capsys):
    code, out, _ = run(capsys, "info", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["hexes"] == 70_200 and data["objectives"] == 67
    assert sum(data["terrain"].values()) == 70_200
    assert data["sea_areas"] >= 80


def test_info_text(capsys):
    code, out, _ = run(capsys, "info")
    assert code == 0 and "360 x 195" in out and "Objectives: 67" in out


def test_hex_by_city_name(capsys):
    code, out, _ = run(capsys, "hex", "Berlin", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["country"]["name"] == "Germany" and data["city"]["kind"] == "capital"
    assert data["weather_zone"] == 2 and data["half_map"] == "E"


def test_hex_by_coordinates_text(capsys):
    _, out, _ = run(capsys, "hex", "Kiel", "--json")
    col, row = json.loads(out)["hex"]
    code, out, _ = run(capsys, "hex", f"{col},{row}")
    assert code == 0 and "Kiel" in out and "canal" in out


def test_hex_by_sea_area(capsys):
    code, out, _ = run(capsys, "hex", "North Sea", "--json")
    data = json.loads(out)
    assert code == 0 and "Baltic Sea" in data["sea_area"]["adjacent"]


def test_hex_unknown_place(capsys):
    code, _, err = run(capsys, "hex", "Atlantis")
    assert code == 2 and "Atlantis" in err


def test_hex_row_out_of_range(capsys):
    code, _, err = run(capsys, "hex", "10,500")
    assert code == 2 and "row" in err


def test_find(capsys):
    code, out, _ = run(capsys, "find", "Vlad", "--json")
    assert code == 0 and json.loads(out)["matches"][0] == {"kind": "port", "name": "Vladivostok"}
    code, out, _ = run(capsys, "find", "mediterr")
    assert code == 0 and "Western Mediterranean" in out
    code, _, _ = run(capsys, "find", "zzzz")
    assert code == 1


def test_distance_and_air(capsys):
    code, out, _ = run(capsys, "distance", "Berlin", "Moscow", "--air", "--json")
    data = json.loads(out)
    assert code == 0 and 15 <= data["hexes"] <= 30
    assert data["air"] >= data["hexes"]


def test_distance_to_sea_area_counts_closest_hex(capsys):
    code, out, _ = run(capsys, "distance", "London", "North Sea", "--json")
    assert code == 0 and json.loads(out)["hexes"] <= 2


def test_bad_map_reported(capsys, tmp_path):
    target = tmp_path / "world"
    shutil.copytree(DEFAULT_MAP_DIR, target)
    (target / "sea_area.txt").write_text("# nothing\n", encoding="utf-8")
    code, _, err = run(capsys, "--map-dir", str(target), "info")
    assert code == 2 and "sea_area.txt" in err


def test_info_counts_fort_hexsides_and_hex_shows_them(capsys):
    code, out, _ = run(capsys, "info", "--json")
    assert code == 0 and json.loads(out)["hexside_features"]["fort"] >= 20
    code, out, _ = run(capsys, "hex", "Singapore", "--json")
    assert code == 0 and sum(1 for s in json.loads(out)["hexsides"] if s["kind"] == "fort") == 6
    code, out, _ = run(capsys, "hex", "Singapore")
    assert code == 0 and "fort (Singapore fortress)" in out


def test_info_counts_the_naval_review_summary_ports(capsys):
    code, out, _ = run(capsys, "info", "--json")
    data = json.loads(out)
    assert code == 0 and data["sea_areas"] == 83
    assert data["ports"] == {"major": 127, "minor": 427, "without_city": 241, "iced_in": 43}


def test_hex_rostov_is_an_iced_port_on_the_sea_of_azov(capsys):
    code, out, _ = run(capsys, "hex", "Rostov", "--json")
    city = json.loads(out)["city"]
    assert code == 0 and city["port"] == "minor" and city["iced_zone"] == 2
    assert city["sea_areas"] == {"BK": {"name": "Black Sea", "approach": 1, "waters": ["Sea of Azov"]}}
    code, out, _ = run(capsys, "hex", "Rostov")
    assert "minor port on the Sea of Azov (Black Sea sea area, BK), 1 hex" in out
    assert "iced in by snow or blizzard in weather zone 2" in out


def test_hex_kerch_is_on_the_strait_and_sevastopol_on_the_black_sea(capsys):
    code, out, _ = run(capsys, "hex", "Kerch")
    assert "minor port on the Black Sea and the Sea of Azov (Black Sea sea area, BK), at the Kerch Strait" in out
    code, out, _ = run(capsys, "hex", "Sevastopol")
    assert "major port on the Black Sea (BK), 1 hex" in out and "Azov" not in out


def test_hex_of_a_port_without_a_city_and_a_sea_area_with_iced_ports(capsys):
    code, out, _ = run(capsys, "hex", "Onega")
    assert code == 0 and "port:         Onega (minor port without a city" in out
    code, out, _ = run(capsys, "hex", "Baltic Sea", "--json")
    area = json.loads(out)["sea_area"]
    assert "Leningrad" in area["iced_ports"] and "Kiel" not in area["iced_ports"] and area["coastal_hexes"] > 50


def test_hex_of_a_named_water_names_its_sea_area_and_ports(capsys):
    code, out, _ = run(capsys, "hex", "sea of azov", "--json")
    water = json.loads(out)["named_water"]
    assert code == 0 and water["sea_area"] == {"code": "BK", "name": "Black Sea"} and water["hexes"] == 6
    assert water["ports"] == ["Berdyansk", "Kerch", "Mariupol", "Rostov", "Taganrog"]
    code, out, _ = run(capsys, "hex", "Sea of Azov")
    assert out.startswith("Sea of Azov: part of the Black Sea sea area (BK), 6 sea hexes")
    code, _, err = run(capsys, "hex", "Atlantis")
    assert code == 2 and "'Atlantis' is not a hex (COL,ROW), a city, a port, a sea area or a named water" in err
