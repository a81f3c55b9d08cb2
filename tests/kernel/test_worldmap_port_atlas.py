"""Every port on the sea an atlas gives it (issue 16): the map's sea areas are a flood fill from
seed points (maps/src/sea_areas.csv), so tools/mapbuild/port_atlas.py holds every port of the
committed map against a hand-checked list, maps/src/port_sea_areas_atlas.txt.
"""

import sys
from pathlib import Path

import pytest

from kernel.worldmap import WorldMap, load_world_map

REPO = Path(__file__).resolve().parents[2]


def _port_atlas():
    sys.path.insert(0, str(REPO / "tools" / "mapbuild"))
    try:
        import port_atlas
    finally:
        sys.path.remove(str(REPO / "tools" / "mapbuild"))
    return port_atlas


@pytest.fixture(scope="module")
def world() -> WorldMap:
    return load_world_map()


def test_every_port_opens_on_the_sea_areas_the_atlas_list_gives_it(world):
    port_atlas = _port_atlas()
    atlas = port_atlas.read_atlas()
    assert len(atlas) == len(world.ports) == 127 + 427
    assert port_atlas.disagreements(world, atlas) == []


@pytest.mark.parametrize("port, areas", [
    ("Abashiri", ("SK",)), ("Monbetsu", ("SK",)),  # Okhotsk coast of Hokkaido, not the Kuriles or Sea of Japan
    ("Paranagua", ("BZ",)), ("Sao Francisco do Sul", ("BZ",)),  # Brazil, not the River Plate
    ("Lobito", ("GG",)), ("Benguela", ("GG",)), ("Luanda", ("GG",)),  # Angola's coast in one area
    ("Natal", ("BZ",)), ("Belem", ("BZ",)),  # Brazil, not the Gulf of Guinea
    ("London", ("NS",)), ("Suez", ("RS",)), ("Port Said", ("EM",)),  # the Thames; the two ends of the canal
    ("Kobe", ("BO",)), ("Osaka", ("BO",)), ("Kure", ("BO",)),  # the Inland Sea opens on the Pacific
    ("Perth", ("WU",)), ("Darwin", ("TM",)), ("Kantang", ("AN",)), ("Prince Rupert", ("GA",)), ("Padang", ("IO",)),
    ("Copenhagen", ("BA", "NS")), ("Kiel", ("BA",)),
])
def test_ports_a_geographer_would_check(world, port, areas):
    assert sorted(world.port_areas(port)) == sorted(areas)


def test_a_disagreement_is_listed_with_the_port_and_both_answers(world):
    port_atlas = _port_atlas()
    atlas = port_atlas.read_atlas()
    atlas["Abashiri"] = ({"SJ"}, set())
    atlas["Atlantis"] = ({"AZ"}, set())
    del atlas["Rostov"]
    found = port_atlas.disagreements(world, atlas)
    assert found == ["Abashiri: does not open on SJ; opens on SK, which the atlas does not give it (map: SK; atlas: SJ)",
                     "Atlantis: in the atlas list but not a port on the map",
                     "Rostov: on the map (BK) but not in the atlas list"]


def test_a_tolerated_area_is_allowed_but_not_required(world):
    port_atlas = _port_atlas()
    atlas = port_atlas.read_atlas()
    assert atlas["Miami"] == ({"EC"}, {"CC"}) and atlas["Kiel"] == ({"BA"}, {"NS"})
    atlas["Kiel"] = ({"BA"}, {"NS", "WA"})
    assert port_atlas.disagreements(world, atlas) == []


@pytest.mark.parametrize("text, message", [
    ("Onega\n", "a port before any"), ("[Arctic]\n", "expected '\\[CODE\\] Name'"),
])
def test_a_bad_atlas_line_is_named(tmp_path, text, message):
    bad = tmp_path / "atlas.txt"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit, match=rf"atlas\.txt line 1: {message}"):
        _port_atlas().read_atlas(bad)
