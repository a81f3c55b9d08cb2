"""Ships in Flames "16.3 1941 Barbarossa Scenario" (seed 001): the Baltic and Black Sea fleets
of Germany and the USSR in a real Barbarossa game ("Place on Map"), set up by their players in
the Setup Tray under "16.1 Set Up Rules" (a port of the power on the sea 16.3 names, stacking),
the data file's checks, and the naval steps of the sequence played in Barbarossa from its own
set-up (no rig)."""

from __future__ import annotations

import collections
import json
import random

import pytest

from helpers import ok, refused
from kernel.game import Game
from plugins.rules.core import hex_controller, world_map
from plugins.scenarios.barbarossa import TRAY, oob, scenario_state, tray_units
from plugins.scenarios.barbarossa.ui import setup_areas

M = world_map()
NAVAL_MOVEMENT = "wif.turn.impulse.naval.naval-movement"
SETUP_PLACING = "wif.new-game.setup.set-up-each-major-power.placing-units-on-the-map"


def set_up_by_default(g) -> None:
    """Each power restores its tray (the saved default setup) and finishes, by the choices."""
    while g.state.kernel.sequence.current == SETUP_PLACING:
        by_type = {c.type: c for c in g.choices(None).decisions[0].commands}
        cmd = by_type["RestoreSetup"].base() if "RestoreSetup" in by_type else by_type["FinishStep"].base()
        assert g.submit(cmd).accepted


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    g = Game.new("barbarossa", tmp_path_factory.mktemp("fleets") / "b.wif", seed=3)
    set_up_by_default(g)
    yield g
    g.close()


@pytest.fixture
def new_game(tmp_path):
    g = Game.new("barbarossa", tmp_path / "n.wif", seed=4)
    yield g
    g.close()


def ships(g, power):
    return [u for u in g.state["units"].units.values() if u.power == power and u.branch == "naval"]


def sea_of(hex_) -> set[str]:
    """The seas (Baltic BA, Black Sea BK) the port in ``hex_`` lies on."""
    name = M.port_at(tuple(hex_)).name
    return {code for code in ("BA", "BK") if name in M.sea_areas[code].ports}


def points(us) -> int:
    return sum(u.factors["points"] for u in us if u.type == "convoy")


def port(name):
    return list(M.port(name).hex)


def test_16_3_russia_place_on_map(game):
    russian = ships(game, "ussr")
    by_name = {u.name: u for u in russian}
    for name in ("Kirov", "Marat", "Maxim Gorkiy", "Oct Revolution"):  # "Any Russian Baltic Sea port"
        assert sea_of(by_name[name].hex) == {"BA"}, name
    for name in ("K. Kavkaz", "Molotov", "P Commune", "Voroshilov"):  # "Any Russian Black Sea port"
        assert sea_of(by_name[name].hex) == {"BK"}, name
    kinds = collections.Counter(u.type for u in russian)  # "European map: 3 SUB, 1 TRS, 2 convoy points"
    assert kinds["sub"] == 3 and kinds["trs"] == 1 and points(russian) == 2
    assert len(russian) == 8 + 3 + 1 + kinds["convoy"]


def test_16_3_germany_place_on_map(game):
    german = ships(game, "germany")
    baltic = [u for u in german if sea_of(u.hex) == {"BA"}]
    black_sea = [u for u in german if sea_of(u.hex) == {"BK"}]
    assert len(baltic) + len(black_sea) == len(german)
    # "Baltic Sea: Schlesien, Schl.-Holstein, Tirpitz, 1 SUB, 1 TRS, 10 convoy points"
    assert {u.name for u in baltic if u.type == "bb"} == {"Schlesien", "Schl.-Holstein", "Tirpitz"}
    kinds = collections.Counter(u.type for u in baltic)
    assert kinds["sub"] == 1 and kinds["trs"] == 1 and points(baltic) == 10
    assert set(kinds) == {"bb", "sub", "trs", "convoy"}
    # "Black Sea: Dest. flotilla (Ru), 1 convoy point": a Rumanian ship under German control
    flotilla = [u for u in black_sea if u.type == "dd"]
    assert [(u.name, u.nationality) for u in flotilla] == [("Dest. flotilla (Ru)", "romania")]
    assert points(black_sea) == 1 and len(black_sea) == 1 + sum(1 for u in black_sea if u.type == "convoy")


def test_16_1_set_up_rules_in_a_port_of_its_major_power_within_stacking(game):
    naval = [u for u in game.state["units"].units.values() if u.branch == "naval"]
    assert naval and all(u.where == "map" for u in naval)
    per_port = collections.defaultdict(float)
    for u in naval:
        city = M.city_at(tuple(u.hex))
        assert city is not None and city.port, u.id
        assert hex_controller(game.state, u.hex) == u.power, f"{u.id} in {city.name}"
        per_port[city.name] += u.factors["points"] / 2 if u.type == "convoy" else 1
    for name, count in per_port.items():  # "Make sure you don't exceed stacking": a minor port holds 4
        if M.city(name).port == "minor":
            assert count <= 4, name
    # the default setup is the data's port
    assert {u.id: M.city_at(tuple(u.hex)).name for u in naval} == {s.id: s.at for s in oob.naval_data().units}


# ---------------------------------------------------------------- the Setup Tray's ships
def test_16_1_the_ships_wait_in_their_powers_setup_tray(new_game):
    g = new_game
    naval = [u for u in g.state["units"].units.values() if u.branch == "naval"]
    assert naval and all(u.where == TRAY and u.hex is None for u in naval)
    assert g.state.kernel.sequence.pending == ["ussr"]  # the USSR sets up first
    tray = tray_units(g.state, "ussr")
    assert {u.id for u in naval if u.power == "ussr"} <= set(tray)
    assert not {u.id for u in naval if u.power == "germany"} & set(tray)
    assert not scenario_state(g.state).tray.get("germany")


def ship_ports(g, unit_id):
    [choice] = [c for c in g.choices(None).commands() if c.type == "PlaceUnit"]
    [option] = [o for o in choice.fields[0].all_options() if o.value == unit_id]
    return choice, {M.port_at(tuple(o.value)).name for f in option.next_fields() for o in f.all_options()}


def test_16_3_the_ports_offered_are_those_16_3_names(new_game):
    g = new_game
    _, baltic = ship_ports(g, "su-marat")  # "Any Russian Baltic Sea port"
    assert {"Leningrad", "Tallinn", "Riga"} <= baltic
    assert all(hex_controller(g.state, M.port(n).hex) == "ussr" and sea_of(M.port(n).hex) == {"BA"} for n in baltic)
    _, black = ship_ports(g, "su-molotov")  # "Any Russian Black Sea port"
    assert {"Sevastopol", "Odessa", "Batum"} <= black and all(sea_of(M.port(n).hex) == {"BK"} for n in black)
    _, europe = ship_ports(g, "su-sub-baltic-1")  # "European map: 3 SUB ...": either sea
    assert europe == baltic | black


def test_setup_tray_every_offered_ship_placement_is_accepted(new_game):
    g = new_game
    [choice] = [c for c in g.choices(None).commands() if c.type == "PlaceUnit"]
    ship_ids = {s.id for s in oob.naval_data().units}
    cmds = [{**choice.base(), "unit": o.value, f.name: h.value} for o in choice.fields[0].all_options()
            if o.value in ship_ids for f in o.next_fields() for h in f.all_options()]
    assert {c["unit"] for c in cmds} == {s.id for s in oob.naval_data().units if s.power == "ussr"}
    for cmd in random.Random(14).sample(cmds, 60) + [choice.sample(random.Random(i)) for i in range(20)]:
        out = g.dry_run(cmd)
        assert out.accepted, (cmd, out.reason)


def test_16_1_a_ship_set_up_in_a_port_of_its_choice_and_its_preview(new_game):
    g = new_game
    cmd = {"type": "PlaceUnit", "actor": "ussr", "unit": "su-kirov", "hex": port("Riga")}
    told = g.preview(cmd)
    assert "Riga" in told["place"] and told["default"] is False and told["seas"] == ["BA"]
    ok(g, cmd)
    kirov = g.state["units"].units["su-kirov"]
    assert kirov.where == "map" and M.port_at(tuple(kirov.hex)).name == "Riga"
    assert "su-kirov" not in tray_units(g.state, "ussr")
    ok(g, type="PlaceUnit", actor="ussr", unit="su-kirov", hex=port("Leningrad"))  # placed again this step
    assert M.port_at(tuple(g.state["units"].units["su-kirov"].hex)).name == "Leningrad"


def test_16_1_bad_ports_are_refused_with_the_rules_reason(new_game):
    g = new_game
    place = {"type": "PlaceUnit", "actor": "ussr", "unit": "su-marat"}
    refused(g, {**place, "hex": port("Sevastopol")}, "16.3", "Baltic Sea", "Sevastopol")  # the wrong sea
    refused(g, {**place, "hex": port("Konigsberg")}, "16.1", "controlled by its major power", "germany")
    refused(g, {**place, "hex": port("Stockholm")}, "16.1", "neutral")  # Sweden's
    refused(g, {**place, "hex": list(M.city("Moscow").hex)}, "16.1", "no port")
    refused(g, {**place, "hex": [5, 9999]}, "no port")
    refused(g, {"type": "PlaceUnit", "actor": "ussr", "unit": "ge-tirpitz", "hex": port("Leningrad")}, "germany unit")
    # "Make sure you don't exceed stacking": a minor port holds 4 naval units
    for uid in ("su-marat", "su-oct-revolution", "su-kirov", "su-maxim-gorkiy"):
        ok(g, type="PlaceUnit", actor="ussr", unit=uid, hex=port("Viipuri"))
    refused(g, {"type": "PlaceUnit", "actor": "ussr", "unit": "su-sub-baltic-1", "hex": port("Viipuri")},
            "minor port holds 4", "Viipuri")
    _, offered_now = ship_ports(g, "su-sub-baltic-1")
    assert "Viipuri" not in offered_now and "Leningrad" in offered_now


def test_setup_tray_the_ships_by_the_seas_of_their_ports(new_game):
    areas = {a["name"]: a for a in setup_areas(state=new_game.state, power="ussr")}
    baltic = areas["Ports on the Baltic Sea"]
    assert set(baltic["units"]) == {"su-marat", "su-oct-revolution", "su-kirov", "su-maxim-gorkiy"}
    assert tuple(M.port("Leningrad").hex) in {tuple(h) for h in baltic["hexes"]}
    assert "su-convoy-1" in areas["Ports on the Baltic Sea or the Black Sea"]["units"]
    german = {a["name"] for a in setup_areas(state=new_game.state, power="germany")}
    assert {"Ports on the Baltic Sea", "Ports on the Black Sea"} <= german


def test_16_1_a_ship_left_in_the_tray_goes_to_its_default_port_or_the_nearest_legal_one(new_game):
    g = new_game
    for uid in ("su-marat", "su-oct-revolution", "su-kirov", "su-maxim-gorkiy"):
        ok(g, type="PlaceUnit", actor="ussr", unit=uid, hex=port("Viipuri"))
    # Sevastopol's default ships are all placed there whatever else; Viipuri is full
    ok(g, type="FinishStep", actor="ussr")
    us = g.state["units"].units
    assert all(us[u].where == "map" for u in us if us[u].power == "ussr" and us[u].branch == "naval")
    assert M.port_at(tuple(us["su-sub-baltic-1"].hex)).name == "Leningrad"
    assert tray_units(g.state, "germany") and g.state.kernel.sequence.pending == ["germany"]


def _bad_data(tmp_path, change) -> str:
    data = json.loads(oob.NAVAL_DATA.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "naval_order_of_battle.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError) as err:
        oob.load_naval_data(path)
    assert str(path) in str(err.value)
    return str(err.value)


def test_16_3_data_bad_input_is_named(tmp_path):
    def moscow(d):
        d["units"][0]["at"] = "Moscow"
    assert "'Moscow' is not a port" in _bad_data(tmp_path, moscow)

    def no_defense(d):
        del d["units"][0]["factors"]["defense"]
    assert "has no defense factor" in _bad_data(tmp_path, no_defense)

    def twice(d):
        d["units"][1]["id"] = d["units"][0]["id"]
    assert "appears twice" in _bad_data(tmp_path, twice)

    def atlantic(d):
        d["sea_areas_in_play"].append("XX")
    assert "'XX' is not a sea area" in _bad_data(tmp_path, atlantic)

    def italy(d):
        d["units"][0]["power"] = "italy"
    assert "'italy' is not a major power of Barbarossa" in _bad_data(tmp_path, italy)

    def north_sea(d):
        d["units"][0]["setup_seas"] = ["NS"]
    assert "setup_seas ['NS'] are not in sea_areas_in_play" in _bad_data(tmp_path, north_sea)

    def default_off_its_sea(d):
        d["units"][0]["at"] = "Sevastopol"  # Marat's seas: the Baltic
    assert "default port 'Sevastopol' is not on its setup_seas" in _bad_data(tmp_path, default_off_its_sea)

    def no_seas(d):
        del d["units"][0]["setup_seas"]
    assert "setup_seas" in _bad_data(tmp_path, no_seas)


def _to_german_naval_movement(g, limit=400) -> None:
    """Play the real game by its choices: default setups, Germany moves first and takes a Naval
    action; everything else finished, until Germany's Naval Movement."""
    for _ in range(limit):
        k = g.state.kernel
        if k.sequence.current == NAVAL_MOVEMENT and "germany" in k.sequence.pending:
            return
        decision = g.choices(None).decisions[0]
        by_type = {c.type: c for c in decision.commands}
        if "RestoreSetup" in by_type:
            cmd = by_type["RestoreSetup"].base()
        elif "ChooseFirstMover" in by_type:
            cmd = {**by_type["ChooseFirstMover"].base(), "side": "axis"}
        elif "ChooseAction" in by_type and by_type["ChooseAction"].actor == "germany":
            cmd = {**by_type["ChooseAction"].base(), "action": "naval"}
        else:
            cmd = by_type["FinishStep"].base()
        out = g.submit(cmd)
        assert out.accepted, (cmd, out.reason)
    raise AssertionError(f"never reached Germany's Naval Movement (at {g.state.kernel.sequence.current})")


def test_16_3_the_naval_steps_play_in_barbarossa(tmp_path):
    g = Game.new("barbarossa", tmp_path / "n.wif", seed=5)
    try:
        _to_german_naval_movement(g)
        moves = [c for ch in g.choices(None).commands() if ch.type == "MoveNavalGroup" for c in ch.commands()]
        assert {M.city_at(tuple(int(x) for x in c["origin"].split(","))).name for c in moves} \
            == {"Kiel", "Gdynia", "Konigsberg", "Constanta"}
        tirpitz = next(c for c in moves if c["units"] == ["ge-tirpitz"] and c["to"] == "BA")
        out = g.submit(tirpitz)
        assert out.accepted, out.reason
        while g.state.kernel.sequence.current != NAVAL_MOVEMENT:  # the USSR may decline to intercept
            decline = [c for c in g.choices(None).commands() if c.type == "DeclineIntercept"]
            assert decline, g.state.kernel.sequence.current
            assert g.submit(decline[0].base()).accepted
        assert g.state["naval"].at_sea["ge-tirpitz"].area == "BA"
    finally:
        g.close()
