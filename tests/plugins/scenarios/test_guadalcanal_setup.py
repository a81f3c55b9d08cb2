"""Guadalcanal's naval set-up as seed 001 gives it: "16.4 1942 Guadalcanal Scenario" (Place on
Map, Place on Production Chart, Carrier Planes, Carrier Pilots) with the "16.1 Set up rules" it
relies on (naval units in friendly ports within stacking, carrier planes kept one per pilot and
set up on a CV they fit, 16.1.1 Previous Naval Moves, TRS converted into convoy points)."""

from __future__ import annotations

import collections

import pytest

from helpers import go_to, lab_game, offered, ok, refused, rig
from kernel.game import Game
from plugins.rules.core import world_map
from plugins.rules.naval.state import data as naval_data
from plugins.rules.naval.state import naval
from plugins.scenarios.guadalcanal import boarding_carrier, oob

# 16.4 "Place on Map", as printed ("Nagata" is Nagato); the unnamed counters by class
PLACE_ON_MAP = {
    "japan": {
        "Singapore": ("Akagi, Chikuma, Haruna, Hiei, Hiryu, Kongo, Kirishima, Shokaku, Soryu, Tone, Zuikaku",
                      {"sub": 1, "trs": 1}),
        "Truk": ("Atago, Fuso, Shoho, Mogami, Mutsu", {"sub": 1, "amph": 1}),
        "Japan": ("Aoba, Ashigara, Chokai, Furutaka, Haguro, Hosho, Hyuga, Idzumo, Ise, Kaga, Kako, Kinugasa, Kumano, "
                  "Maya, Mikuma, Myoko, Nachi, Nagata, Ryujo, Suzuya, Taiyo, Takao, Unyo, Yamashiro, Yamato, Zuiho",
                  {"sub": 1}),  # its "2 TRS" are converted into 12 convoy points (see below)
    },
    "usa": {
        "US west coast": ("Colorado, Louisville, Saratoga", {"trs": 1}),
        "Darwin": ("Houston", {}),
        "New Hebrides": ("Chicago, Lexington, Portland, Salt Lake City, San Francisco, Yorktown", {"sub": 1, "trs": 1}),
        "Honolulu": ("Astoria, Chester, Enterprise, Idaho, Indianapolis, Maryland, Minneapolis, Mississippi, "
                     "New Mexico, New Orleans, Northampton, Pensacola, Pennsylvania", {"sub": 1, "trs": 1}),
    },
    "commonwealth": {
        "Ceylon": ("Birmingham, Cornwall, Devonshire, Exeter, Formidable, Frobisher, Gambia, Glasgow, Hawkins, Hermes, "
                   "Indomitable, Mauritius, Newcastle, Revenge, Royal Sovereign, Sumatra (Ne), Warspite", {"trs": 1}),
        "Sydney": ("Australia, Canberra", {}),
        "Pacific map": ("", {"amph": 1}),
    },
}
# our ports for 16.4's places (the data header says why)
PORTS = {"Japan": {"Kure", "Yokohama", "Sasebo", "Ominato"}, "US west coast": {"San Francisco"},
         "New Hebrides": {"Espiritu Santo", "Port Vila"}, "Ceylon": {"Colombo", "Trincomalee"}, "Pacific map": {"Brisbane"}}
# 16.4 "Place on Production Chart": turn -> the ships due (face-up), and the repair pools
ARRIVALS = {
    "japan": {1: {"Junyo"}, 2: {"Hiyo", "Musashi"}, 4: {"Chuyo", "Ryuho"}},
    "usa": {1: {"Hornet", "North Carolina", "Washington"}, 2: {"sub"}, 3: {"amph"}, 4: {"Essex"}, 5: {"Lexington II"}},
    "commonwealth": {2: {"Bermuda", "trs"}, 3: {"sub"}, 4: {"Berwick"}},
}
REPAIR_POOL = {"japan": {"Asama"}, "usa": {"Nevada", "Tennessee"}, "commonwealth": {"Belfast"}}
UNNAMED = ("sub", "trs", "amph", "convoy")


def ship_name(u) -> str:
    """16.4's name of a ship of our data ("HMAS Australia" -> "Australia", Nagato as 16.4 spells it)."""
    return {"Nagato": "Nagata"}.get(u.name, u.name.removeprefix("HMAS "))


def port_name(u) -> str:
    return world_map().port_at(oob.unit_hex(u)).name


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    g = Game.new("guadalcanal", tmp_path_factory.mktemp("g") / "g.wif", seed=3)
    yield g
    g.close()


def naval_set_up(power):
    return [u for u in oob.scenario_data().units if u.power == power and u.branch == "naval" and u.turn == 1
            and not u.pool]


@pytest.mark.parametrize("power", ["japan", "usa", "commonwealth"])
def test_16_4_place_on_map_ship_by_ship(power):
    listed = PLACE_ON_MAP[power]
    due_first_turn = ARRIVALS[power].get(1, set())
    named = collections.defaultdict(set)
    unnamed = collections.defaultdict(collections.Counter)
    for u in naval_set_up(power):
        if ship_name(u) in due_first_turn:
            continue
        where = port_name(u)
        place = next((p for p in listed if where in PORTS.get(p, {p})), None)
        assert place is not None, f"{u.id} sets up at {where}, not a place 16.4 gives {power}"
        if u.type in UNNAMED:
            unnamed[place][u.type] += 1
        else:
            named[place].add(ship_name(u))
    for place, (names, counts) in listed.items():
        assert named[place] == set(filter(None, names.split(", "))), place
        expected = collections.Counter(counts)
        if power == "japan" and place == "Japan":  # 2 TRS = 12 convoy points: six 2-point convoys
            expected["convoy"] = 6
        assert unnamed[place] == expected, place


def test_16_1_convert_trs_into_convoy_points_and_start_them_at_sea(game):
    """16.1: "you can convert each TRS into 6 convoy points": Japan's two TRS in Japan are 12
    points, 6 in each sea area the Guadalcanal victory conditions count (5 or more: no points)."""
    units, at_sea = game.state["units"].units, naval(game.state).at_sea
    points = collections.Counter()
    for uid, box in at_sea.items():
        if units[uid].type == "convoy":
            assert units[uid].power == "japan" and box.section == 0
            points[box.area] += units[uid].factors["points"]
    assert points == {"CS": 6, "SC": 6}


def test_16_1_1_previous_naval_moves_task_force_17_in_the_coral_sea(game):
    at_sea = naval(game.state).at_sea
    allied = {u for u in at_sea if not u.startswith("jp-")}
    assert allied == {"us-lexington", "us-yorktown", "us-chicago", "us-portland"}
    # "at least 1 below what they could have reached": 2 areas entered (NH, CO), speed 5
    assert all(at_sea[u].area == "CO" and at_sea[u].section <= 5 - 2 - 1 for u in allied)
    # "Units which take advantage of this free move cannot carry cargoes (except CVs ... carrier planes)"
    assert all(not naval(game.state).aboard.get(u) for u in allied - {"us-lexington", "us-yorktown"})


def test_16_1_naval_units_in_friendly_ports_within_stacking(game):
    """16.1 "Naval units": "in a port controlled by its major power ... Make sure you don't exceed
    stacking" (a minor port holds 4 naval units)."""
    state = game.state
    per_port = collections.Counter()
    for u in state["units"].units.values():
        if u.branch == "naval" and u.where == "map" and u.id not in naval(state).at_sea:
            port = world_map().port_at(u.hex)
            assert port is not None and oob.in_play(u.hex), u.id
            assert state.kernel.side_of(oob.start_controller(u.hex)) == state.kernel.side_of(u.power), u.id
            if port.port == "minor":
                per_port[port.name] += 1
    assert per_port and max(per_port.values()) <= naval_data()["minor_port_naval_units"], per_port


def test_16_4_ceylon_is_in_play_and_its_fleet_can_sail():
    """Ceylon's ports lie on the Bay of Bengal, wholly on the Pacific half-map: in play."""
    for name in ("Colombo", "Trincomalee"):
        assert oob.in_play(world_map().city(name).hex)
    assert "BE" in oob.sea_areas_in_play() and "IO" not in oob.sea_areas_in_play()


@pytest.mark.parametrize("power", ["japan", "usa", "commonwealth"])
def test_16_4_place_on_production_chart(power, game):
    data = oob.scenario_data()
    due = collections.defaultdict(set)
    for u in data.units:
        if u.power == power and u.branch == "naval" and not u.pool:
            name = u.type if u.type in UNNAMED else ship_name(u)
            if u.turn > 1 or name in ARRIVALS[power].get(1, ()):
                due[u.turn].add(name)
    assert dict(due) == ARRIVALS[power]
    pool = {ship_name(u) for u in game.state["units"].units.values() if u.power == power and u.where == "repair-pool"}
    assert pool == REPAIR_POOL[power]


def test_16_4_carrier_planes_one_per_pilot_aboard_a_cv_they_fit(game):
    """Japan 16 planes / 11 pilots, the USA 8/4, the Commonwealth 4/2 ("You can keep one for
    every Carrier Pilot"), plus the plane due in May/Jun (Japan, the USA), each on a CV."""
    state = game.state
    aboard = collections.Counter()
    for ship, planes in naval(state).aboard.items():
        cv = state["units"].units[ship]
        assert cv.type == "cv" and len(planes) <= 2
        assert sum(state["units"].units[p].factors["class"] for p in planes) <= cv.factors["class"]
        aboard[cv.power] += len(planes)
    assert aboard == {"japan": 11 + 1, "usa": 4 + 1, "commonwealth": 2}
    on_land = [u.id for u in state["units"].units.values() if u.type == "cvp" and u.where != "aboard"]
    assert on_land == []


def test_16_4_carrier_planes_count_is_checked_against_the_data():
    naval_file = oob._load(oob.NAVAL_DATA, oob.NavalData)
    assert oob.carrier_planes_problem(naval_file.carrier_planes, naval_file.units, 5) is None
    fewer = [u for u in naval_file.units if u.id != "jp-akagi-air"]
    assert oob.carrier_planes_problem(naval_file.carrier_planes, fewer, 5) == (
        "carrier_planes: japan has 11 carrier air units on turn 1; 16.4 gives 12")
    pooled_at = naval_file.units[0].model_copy(update={"pool": "repair"})
    assert "only a naval unit may start in the repair pool" in oob.unit_problem(pooled_at, {}, {"japan"}, 5)


def test_16_4_carrier_planes_arriving_board_a_carrier_in_port(tmp_path):
    """A plane due later goes aboard its carrier in port, or another with room; with none (every
    US carrier carries a full air group at the start) it arrives at a base, San Diego, and boards
    a carrier in the Air Rebase phase (Ships in Flames 8.5: "You can rebase a carrier plane, up to
    double its range, from its CV to a hex or vice versa")."""
    g = lab_game(tmp_path / "p.wif", "guadalcanal")
    by_id = {u.id: u for u in oob.scenario_data().units}
    assert boarding_carrier(g.state, by_id["jp-cvp-sepoct"]) == "jp-unyo"
    assert boarding_carrier(g.state, by_id["us-cvp-julaug"]) is None
    go_to(g, "turn.new-turn.reinforcements", turn=2)
    units = g.state["units"].units
    assert units["jp-hiyo-air"].where == "aboard" and naval(g.state).aboard["jp-hiyo"] == ["jp-hiyo-air"]
    san_diego, san_francisco = world_map().port("San Diego").hex, world_map().port("San Francisco").hex
    plane = units["us-cvp-julaug"]
    assert plane.where == "map" and tuple(plane.hex) == tuple(san_diego)  # no US carrier has room
    # Saratoga's air group flies off to San Francisco's airfield; the new one boards in its place
    rig(g, "RigAction", actor="usa", power="usa", action="air")
    go_to(g, "turn.impulse.air-rebase.air-rebase", turn=2, active_side="allies")
    sf = f"{san_francisco[0]},{san_francisco[1]}"
    rebase = {"type": "RebaseCarrierAirUnit", "actor": "usa"}
    refused(g, dict(rebase, unit="us-cvp-julaug", to="us-saratoga"), "Carrier Classes")
    ok(g, dict(rebase, unit="us-saratoga-air", to=sf))
    offers = [cmd for c in offered(g, "RebaseCarrierAirUnit") for cmd in c.commands()]
    assert dict(rebase, unit="us-cvp-julaug", to="us-saratoga") in offers
    assert g.preview(dict(rebase, unit="us-cvp-julaug", to="us-saratoga"))["distance"] == 8
    ok(g, dict(rebase, unit="us-cvp-julaug", to="us-saratoga"))
    assert naval(g.state).aboard["us-saratoga"] == ["us-cvp-julaug"]
    assert g.state["units"].units["us-cvp-julaug"].where == "aboard"
    assert tuple(g.state["units"].units["us-saratoga-air"].hex) == tuple(san_francisco)
    g.close()


def test_16_4_repair_pool_units_come_back_in_a_port_in_play(game):
    """Naval Repair: a repaired unit "will arrive as a reinforcement in 2 turns", in a major port
    of its power on a sea area open in Guadalcanal (the USA's first by name would be Boston)."""
    from plugins.rules.naval.naval_repair import arrival_port, repair_pool

    for power in ("japan", "usa", "commonwealth"):
        assert repair_pool(game.state, power)
        port = arrival_port(game.state, power)
        assert port is not None and oob.in_play(port), power
    assert world_map().port_at(arrival_port(game.state, "usa")).name == "Dutch Harbor"
