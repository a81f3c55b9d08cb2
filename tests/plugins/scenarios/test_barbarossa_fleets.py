"""Ships in Flames "16.3 1941 Barbarossa Scenario" (seed 001): the Baltic and Black Sea fleets
of Germany and the USSR in a real Barbarossa game ("Place on Map"), "16.1 Set Up Rules" (in a
port of the power, stacking), the data file's checks, and the naval steps of the sequence
played in Barbarossa from its own set-up (no rig)."""

from __future__ import annotations

import collections
import json

import pytest

from kernel.game import Game
from plugins.rules.core import hex_controller, world_map
from plugins.scenarios.barbarossa import TRAY, oob, scenario_state

M = world_map()
NAVAL_MOVEMENT = "wif.turn.impulse.naval.naval-movement"


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    g = Game.new("barbarossa", tmp_path_factory.mktemp("fleets") / "b.wif", seed=3)
    yield g
    g.close()


def ships(g, power):
    return [u for u in g.state["units"].units.values() if u.power == power and u.branch == "naval"]


def sea_of(hex_) -> set[str]:
    """The seas (Baltic BA, Black Sea BK) the port in ``hex_`` lies on."""
    name = M.city_at(tuple(hex_)).name
    return {code for code in ("BA", "BK") if name in M.sea_areas[code].ports}


def points(us) -> int:
    return sum(u.factors["points"] for u in us if u.type == "convoy")


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
    # not in any setup tray: the scenario places them, the tray holds land and air units
    trays = scenario_state(game.state).tray
    assert not any(game.state["units"].units[uid].branch == "naval" for uids in trays.values() for uid in uids)
    assert not [u for u in naval if u.where == TRAY]


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
