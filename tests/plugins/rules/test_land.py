"""Land movement plugin: one test per seed procedure, each built in the lab scenario.

Seed sections: "Land Movement", "Rail Movement", "Over-Stacked Hex", "Weather Report"
(effects on terrain and movement), "Captured Facilities", zones of control as the seeds use
them, and the bad input the issue lists (each refused with the rule named, nothing stored).
"""

from __future__ import annotations

from functools import partial

import pytest

import helpers
from helpers import types, unit
from kernel.game import Game
from plugins.rules import core
from plugins.rules.land import (
    path_cost,
    reachable,
    stacking_problems,
    zoc_hexes,
)
from plugins.rules.land.movement import hex_cost

LAND_MOVEMENT = "turn.impulse.land.movement.land-movement"
RAIL_MOVEMENT = "turn.impulse.land.movement.rail-movement"

# A stretch of the Polish-Soviet front (1939 borders): Poland given to Germany in the lab.
COUNTRIES = {"GE": "germany", "SU": "ussr", "PL": "germany"}
MINSK = (207, 51)
WARSAW = (201, 54)


def new_game(save, units, actions=None, start_at=LAND_MOVEMENT, plugins=("land",), plugin_dirs=None, **options):
    opts = {"units": units, "countries": COUNTRIES, "actions": actions or {"germany": "land"},
            "start_at": start_at, **options}
    return Game.new("lab", save, seed=7, options=opts, extra_plugins=list(plugins), plugin_dirs=plugin_dirs)


@pytest.fixture
def overrun_game(save, plugin_dir):
    """``new_game`` with the overrun stand-in answering land's overrun hooks."""
    plugin_dir.add("overrun-stand-in", helpers.OVERRUN_STAND_IN, requires=["land"])

    def make(units, **options):
        return new_game(save, units, plugins=("land", "overrun-stand-in"), plugin_dirs=[plugin_dir.path], **options)
    return make


refused = partial(helpers.refused, match_case=True)  # these tests quote the reasons' words exactly


# ---------------------------------------------------------------- Land Movement
def test_land_movement_moves_along_a_path_paying_terrain_costs(save):
    game = new_game(save, [unit("g1", name="4th Panzer Army", type_="arm", move=6)])
    path = [(205, 52), (206, 52), (206, 51), (207, 51)]
    expected = sum(hex_cost(game.state, h) for h in path)
    assert path_cost(game.state, "g1", path) == expected
    out = game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "path": path})
    assert out.accepted, out.reason
    assert types(out.events)[:3] == ["ActivityUsed", "LandUnitMoved", "UnitMoved"]
    moved = out.events[1].data
    assert moved["cost"] == expected and [tuple(h) for h in moved["path"]] == path
    assert game.state["units"].units["g1"].hex == MINSK
    assert core.used(game.state, "germany", "land-move") == 1
    assert game.describe(out.events[1]) == "Germany: 4th Panzer Army moves 204,52 → Minsk"
    # Land Movement: one move per unit per impulse
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": [206, 51]}, "already moved")
    game.close()


def test_land_movement_to_a_destination_takes_the_cheapest_path(save):
    game = new_game(save, [unit("g1", move=6)])
    found = reachable(game.state, "g1")
    assert found[(204, 52)] == (0, None)
    cost, _prev = found[MINSK]
    out = game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": list(MINSK)})
    assert out.accepted, out.reason
    assert out.events[1].data["cost"] == cost
    # every hex reachable costs no more than the movement allowance
    assert all(c <= 6 for c, _ in found.values())
    game.close()


# ---------------------------------------------------------------- Weather Report
def test_weather_report_doubles_terrain_costs_in_rain_storm_and_blizzard(save):
    zone = str(core.world_map().weather_zone((205, 52)))
    fine = new_game(save, [unit("g1")])
    clear_cost = hex_cost(fine.state, (205, 52))
    fine_reach = reachable(fine.state, "g1")
    fine.close()
    save.unlink()
    wet = new_game(save, [unit("g1")], weather={zone: "rain"})
    assert hex_cost(wet.state, (205, 52)) == 2 * clear_cost
    wet_reach = reachable(wet.state, "g1")
    assert len(wet_reach) < len(fine_reach)
    assert all(wet_reach[h][0] >= fine_reach[h][0] for h in wet_reach)
    wet.close()
    # Desert feels milder weather: rain there is fine, storm is rain, blizzard is snow
    from plugins.rules.land.movement import effective_terrain, effective_weather
    assert effective_weather("rain", "desert") == "fine"
    assert effective_weather("storm", "desert mountain") == "rain"
    assert effective_weather("blizzard", "desert") == "snow"
    # Frozen lakes are clear, swamps are forest, in snow or blizzard
    assert effective_terrain("lake", "snow") == "clear"
    assert effective_terrain("swamp", "blizzard") == "forest"
    assert effective_terrain("lake", "rain") == "lake"


def test_weather_report_frozen_lake_hexes_can_be_crossed(save):
    m = core.world_map()
    lake = next(h for h in m.grid.within((212, 50), 40)
                if m.is_lake(h) and m.country_code(h) == "SU"
                and any(m.is_land(n) and m.country_code(n) == "SU" for n in m.grid.neighbours(h)))
    shore = next(n for n in m.grid.neighbours(lake) if m.is_land(n) and m.country_code(n) == "SU")
    zone = str(m.weather_zone(lake))
    units = [unit("r1", power="ussr", hex_=shore, move=4)]
    game = new_game(save, units, actions={"ussr": "land"}, active_side="allies")
    refused(game, {"type": "MoveLandUnit", "actor": "ussr", "unit": "r1", "path": [list(lake)]},
            "Land Movement", "unfrozen lake")
    game.close()
    save.unlink()
    game = new_game(save, units, actions={"ussr": "land"}, active_side="allies",
                    weather={zone: "snow", str(m.weather_zone(shore)): "snow"})
    out = game.submit({"type": "MoveLandUnit", "actor": "ussr", "unit": "r1", "path": [list(lake)]})
    assert out.accepted, out.reason
    game.close()


# ---------------------------------------------------------------- zones of control
def test_zones_of_control_stop_a_moving_unit(overrun_game):
    # a Soviet army at 208,52; the German unit may enter its ZOC but not move on through it
    game = overrun_game([unit("g1", hex_=(205, 52), move=6), unit("r1", power="ussr", hex_=(208, 52)),
                         unit("r2", power="ussr", hex_=(208, 49), size="division")])
    zoc = zoc_hexes(game.state, "allies")
    assert (207, 52) in zoc and (208, 52) in zoc
    assert (207, 49) not in zoc and (208, 49) in zoc  # a division: its own hex only
    found = reachable(game.state, "g1")
    assert (207, 52) in found
    assert all(prev != (207, 52) for _, prev in found.values())  # never left
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g1",
                   "path": [[206, 52], [207, 52], [207, 53]]}, "zone of control")
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g1",
                   "path": [[206, 52], [207, 52], [208, 52]]}, "Overrun", "needs 11:1")
    out = game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "path": [[206, 52], [207, 52]]})
    assert out.accepted, out.reason
    game.close()


# ---------------------------------------------------------------- Overruns
def strong(uid, hex_, combat=24, move=6):
    u = unit(uid, hex_=hex_, type_="arm", move=move)
    u["factors"] = {"combat": combat, "move": move}
    return u


def test_land_movement_overrun_destroys_weak_enemy_land_units_and_enters(overrun_game):
    """Land Movement: "Enemy units might be overrun during land movement" (odds authored)."""
    target = (207, 52)
    weak = unit("r1", power="ussr", hex_=target, size="division")
    weak["factors"] = {"combat": 1, "move": 3}
    game = overrun_game([strong("g1", (205, 52)), weak])
    # the division's own ZOC does not stop the overrunning unit on its way in
    out = game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": list(target)})
    assert out.accepted, out.reason
    assert types(out.events)[:3] == ["ActivityUsed", "LandUnitsOverrun", "UnitMoved"]
    overrun = out.events[1]
    assert overrun.data["units"] == ["r1"] and overrun.data["odds"] >= 11
    assert "overruns 1 land unit(s)" in game.describe(overrun)
    assert game.state["units"].units["r1"].where == "eliminated"
    assert game.state["units"].units["g1"].hex == target
    assert core.hex_controller(game.state, target) == "germany"
    game.close()


def test_land_movement_overrun_odds_offered_and_previewed_leave_the_state_untouched(overrun_game):
    """Land Movement, overruns: the odds are judged as if the unit stood next to the hex (a
    scratch state sharing the unchanged units); asking them changes nothing in the game."""
    target = (207, 52)
    weak = unit("r1", power="ussr", hex_=target, size="division")
    weak["factors"] = {"combat": 1, "move": 3}
    game = overrun_game([strong("g1", (205, 52)), weak, unit("r2", power="ussr", hex_=(208, 50))])
    before = game.state.to_json()
    choice = next(c for d in game.choices(None).decisions for c in d.commands if c.type == "MoveLandUnit")
    g1 = next(o for o in choice.fields[0].all_options() if o.value == "g1")
    offered = {tuple(o.value): o.label for o in g1.next_fields()[0].all_options()}
    assert "overrun 1 unit(s)" in offered[target]
    preview = game.preview({"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": list(target)})
    assert preview["overrun"] and preview["overrun_units"] == ["r1"] and preview["odds"] >= 11
    assert game.state.to_json() == before
    assert game.state["units"].at_hex["205,52"] == ["g1"] and game.state["units"].units["g1"].hex == (205, 52)
    game.close()


def test_land_movement_overrun_refused_below_the_odds_or_without_movement_points(overrun_game):
    target = (207, 52)
    defender = unit("r1", power="ussr", hex_=target, size="division")
    defender["factors"] = {"combat": 3, "move": 3}
    game = overrun_game([strong("g1", (205, 52), combat=24), strong("g2", (206, 53), combat=40, move=1), defender])
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": list(target)},
            "Overrun", "needs 11:1")
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g2", "to": list(target)},
            "Overrun", "movement points")
    assert game.state["units"].units["r1"].where == "map"
    game.close()


def test_supply_sources_and_paths_checked_immediately_before_an_overrun(overrun_game):
    """Supply: the program checks supply "immediately before resolving an overrun"; the
    supply rules refuse it through land's overrun_refusal hook (data/overrun.json)."""
    target = (207, 52)
    weak = unit("r1", power="ussr", hex_=target, size="division")
    weak["factors"] = {"combat": 1, "move": 3}
    game = overrun_game([strong("g1", (205, 52)), strong("g2", (205, 53)), weak], out_of_supply=["g1"])
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": list(target)},
            "Overrun", "out of supply")
    out = game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "g2", "to": list(target)})
    assert out.accepted, out.reason
    assert game.state["units"].units["r1"].where == "eliminated"
    game.close()


def test_land_movement_no_overrun_without_rules_to_judge_its_odds(save):
    """Without land combat rules in the game nothing answers the overrun's odds: refused,
    naming the missing rule."""
    target = (207, 52)
    weak = unit("r1", power="ussr", hex_=target, size="division")
    weak["factors"] = {"combat": 1, "move": 3}
    game = new_game(save, [strong("g1", (205, 52)), weak])
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": list(target)},
            "Overrun", "overrun_odds")
    game.close()


# ---------------------------------------------------------------- Over-Stacked Hex
def test_over_stacked_hex_limits_and_the_third_division(save):
    here = (205, 52)
    game = new_game(save, [unit("g1", hex_=here), unit("g2", hex_=here), unit("g3", hex_=(204, 52)),
                           unit("d1", hex_=(204, 53), size="division"), unit("a1", hex_=(204, 51), type_="art")])
    assert stacking_problems(game.state, here) == []
    reason = refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g3", "path": [list(here)]},
                     "Over-Stacked Hex", "at most 2 land units")
    assert "division, artillery or supply" in reason
    out = game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "d1", "to": list(here)})
    assert out.accepted, out.reason
    assert len(game.state["units"].in_hex(here)) == 3
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "a1", "to": list(here)}, "Over-Stacked Hex")
    game.close()


def test_over_stacked_hex_owner_destroys_organized_units_first(save):
    here = (205, 52)
    game = new_game(save, [unit("g1", hex_=here), unit("g2", hex_=here), unit("g3", hex_=here, face_up=False)])
    assert stacking_problems(game.state, here)
    helpers.finish(game, "germany")  # the phase ends: "Stacking applies at the end of every phase"
    seq = game.state.kernel.sequence
    assert seq.current.endswith("correct-overstacking") and seq.pending == ["germany"]
    refused(game, {"type": "ChooseOverstackLoss", "actor": "germany", "unit": "g3"}, "organized units before")
    out = game.submit({"type": "ChooseOverstackLoss", "actor": "germany", "unit": "g1"})
    assert out.accepted, out.reason
    assert types(out.events)[:3] == ["OverstackLossChosen", "UnitMoved", "DecisionFinished"]
    assert game.state["units"].units["g1"].where == "eliminated"
    assert not game.state.kernel.sequence.stack  # the digression is over
    game.close()


def test_over_stacked_hex_is_checked_when_the_phase_ends(save):
    """Over-Stacked Hex: "Stacking applies at the end of every phase"."""
    here = (205, 52)
    game = new_game(save, [unit("g1", hex_=here), unit("g2", hex_=here), unit("g3", hex_=here)])
    out = game.submit({"type": "FinishStep", "actor": "germany"})
    assert out.accepted, out.reason
    assert "DigressionStarted" in types(out.events)
    seq = game.state.kernel.sequence
    assert seq.current.endswith("correct-overstacking") and seq.pending == ["germany"]
    out = game.submit({"type": "ChooseOverstackLoss", "actor": "germany", "unit": "g1"})
    assert out.accepted, out.reason
    # the digression ends and play moves on past land movement
    assert not game.state.kernel.sequence.current.endswith("land-movement")
    assert len(game.state["units"].in_hex(here)) == 2
    game.close()


# ---------------------------------------------------------------- Captured Facilities / overrun
def test_captured_facilities_hex_control_changes_and_air_units_are_overrun(save):
    game = new_game(save, [unit("g1", move=6),
                           {"id": "sa1", "power": "ussr", "branch": "air", "type": "ftr", "hex": list(MINSK)}])
    assert core.hex_controller(game.state, MINSK) == "ussr"
    out = game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": list(MINSK)})
    assert out.accepted, out.reason
    kinds = types(out.events)
    assert "HexControlChanged" in kinds and "FacilitiesCaptured" in kinds and "UnitsOverrun" in kinds
    assert core.hex_controller(game.state, MINSK) == "germany"
    overrun = next(r for r in out.events if r.type == "UnitsOverrun")
    assert overrun.data["units"] == ["sa1"]
    assert "Minsk" in game.describe(next(r for r in out.events if r.type == "FacilitiesCaptured"))
    assert "DigressionStarted" in kinds  # Rebase Overrun Units digression
    game.close()


def test_rebase_overrun_units_enemy_aircraft_are_overrun_in_a_hex_whose_control_does_not_change(save):
    """Rebase Overrun Units Digression: air units "in a hex, without a land unit present" are
    overrun when an enemy land unit enters, also when the hex was already the mover's (aircraft
    left behind in a hex their side lost)."""
    here = (205, 52)  # German-controlled (Poland in the lab), with a Soviet fighter left in it
    game = new_game(save, [unit("g1", hex_=(204, 52)),
                           {"id": "sa1", "power": "ussr", "branch": "air", "type": "ftr", "hex": list(here)}])
    assert core.hex_controller(game.state, here) == "germany"
    out = game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": list(here)})
    assert out.accepted, out.reason
    kinds = types(out.events)
    assert "HexControlChanged" not in kinds and "UnitsOverrun" in kinds and "DigressionStarted" in kinds
    game.close()


def test_rebase_overrun_units_is_skipped_with_its_reason_when_no_overrun_unit_is_left(save):
    game = new_game(save, [unit("g1", hex_=(204, 52))])
    reason = game.host.pm.hook.skip_step(state=game.state, step_id="wif.digressions.rebase-overrun-units",
                                         spec=game.sequence_index.specs["wif.digressions.rebase-overrun-units"])
    assert reason == "Rebase Overrun Units: no overrun air or naval unit is left in an enemy hex"
    game.close()


# ---------------------------------------------------------------- Rail Movement
def test_rail_movement_counts_a_rail_move_per_60_hexes(save):
    m = core.world_map()
    line = next(r for r in m.rails if r.name == "Trans-Siberian")
    start, far = line.hexes[0], line.hexes[65]  # 65 hexes of rail, all in the USSR
    assert all(m.country_code(h) == "SU" for h in line.hexes[:66])
    air = {"id": "ra", "power": "ussr", "branch": "air", "type": "ftr", "hex": list(start)}
    game = new_game(save, [unit("r1", power="ussr", hex_=start), unit("r2", power="ussr", hex_=start), air],
                    actions={"ussr": "land"}, active_side="allies", start_at=RAIL_MOVEMENT)
    near = line.hexes[10]
    out = game.submit({"type": "RailMove", "actor": "ussr", "unit": "r1", "to": list(near)})
    assert out.accepted, out.reason
    assert types(out.events)[:3] == ["ActivityUsed", "UnitRailMoved", "UnitMoved"]
    assert out.events[0].data["count"] == 1 and out.events[1].data["rail_moves"] == 1
    assert game.state["units"].units["r1"].hex == near
    out = game.submit({"type": "RailMove", "actor": "ussr", "unit": "r2", "to": list(far)})
    assert out.accepted, out.reason
    assert out.events[1].data["rail_moves"] == 2
    assert core.used(game.state, "ussr", "rail-move") == 3
    # "land and air units" move by rail
    out = game.submit({"type": "RailMove", "actor": "ussr", "unit": "ra", "to": list(line.hexes[5])})
    assert out.accepted, out.reason
    assert core.used(game.state, "ussr", "rail-move") == 4
    refused(game, {"type": "RailMove", "actor": "ussr", "unit": "r1", "to": list(line.hexes[12])},
            "already moved by rail")
    assert "by rail" in game.describe(out.events[1])
    game.close()


def test_rail_movement_only_through_friendly_hexes_clear_of_enemy_zoc(save):
    m = core.world_map()
    line = next(r for r in m.rails if r.name == "Berlin-Moscow")
    berlin = m.city("Berlin").hex
    i = line.hexes.index(berlin)
    beyond = line.hexes[i + 6]
    assert m.country_code(beyond) == "PL"
    countries = {"GE": "germany", "SU": "ussr"}  # Poland neutral here
    game = new_game(save, [unit("g1", hex_=berlin)], start_at=RAIL_MOVEMENT, countries=countries)
    refused(game, {"type": "RailMove", "actor": "germany", "unit": "g1", "to": list(beyond)}, "Rail Movement")
    game.close()
    save.unlink()
    enemy_at = line.hexes[i + 8]
    game = new_game(save, [unit("g1", hex_=berlin), unit("r1", power="ussr", hex_=enemy_at)],
                    start_at=RAIL_MOVEMENT)
    refused(game, {"type": "RailMove", "actor": "germany", "unit": "g1", "path": [list(h) for h in line.hexes[i + 1:i + 8]]},
            "Rail Movement", "enemy zone of control")
    out = game.submit({"type": "RailMove", "actor": "germany", "unit": "g1", "to": list(line.hexes[i + 6])})
    assert out.accepted, out.reason
    game.close()


# ---------------------------------------------------------------- bad input
def test_bad_input_moving_into_the_sea_is_refused(save):
    m = core.world_map()
    coast = next(h for h in m.grid.within((190, 50), 8)
                 if m.is_land(h) and m.country_code(h) == "GE" and any(m.is_sea(n) for n in m.grid.neighbours(h)))
    sea = next(n for n in m.grid.neighbours(coast) if m.is_sea(n))
    game = new_game(save, [unit("g1", hex_=coast)])
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "path": [list(sea)]},
            "Land Movement", "cannot enter the sea")
    game.close()


def test_bad_input_moving_a_unit_of_the_other_side_is_refused(save):
    game = new_game(save, [unit("g1"), unit("r1", power="ussr", hex_=(209, 51))])
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "r1", "to": [210, 51]},
            "Land Movement", "phasing side")
    # the USSR cannot act in the German phase at all
    refused(game, {"type": "MoveLandUnit", "actor": "ussr", "unit": "r1", "to": [210, 51]}, "nothing")
    game.close()


@pytest.mark.parametrize("action", ["air", "naval", None])
def test_bad_input_moving_without_a_land_or_combined_action_is_refused(save, action):
    game = new_game(save, [unit("g1")], actions={"germany": action} if action else {"italy": "land"})
    reason = refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": [205, 52]})
    assert "Action" in reason or "action" in reason
    game.close()


def test_bad_input_exceeding_the_combined_action_land_moves_is_refused(save):
    from plugins.rules.turn.activities import limit

    units = [unit(f"g{i}", hex_=(196 + i, 54), move=4) for i in range(12)]
    game = new_game(save, units, actions={"germany": "combined"})
    cap = limit(game.state, "germany", "land-move")
    assert cap is not None and cap < len(units)
    for i in range(cap):
        out = game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": f"g{i}", "path": [[196 + i, 55]]})
        assert out.accepted, out.reason
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": f"g{cap}", "path": [[196 + cap, 55]]},
            "Activity Limits")
    game.close()


def test_bad_input_disorganized_units_cannot_move(save):
    game = new_game(save, [unit("g1", face_up=False)])
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": [205, 52]}, "disorganized")
    game.close()


def test_bad_input_a_command_in_the_wrong_phase_is_refused(save):
    game = new_game(save, [unit("g1")], start_at=RAIL_MOVEMENT)
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": [205, 52]},
            "not allowed now", "Rail Movement")
    game.close()
    save.unlink()
    game = new_game(save, [unit("g1")])
    refused(game, {"type": "RailMove", "actor": "germany", "unit": "g1", "to": [205, 52]},
            "not allowed now", "Land Movement")
    game.close()


def test_bad_input_over_long_paths_are_refused(save):
    game = new_game(save, [unit("g1", move=2)])
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g1",
                   "path": [[205, 52], [206, 52], [206, 51], [207, 51]]}, "Land Movement", "movement points")
    refused(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "path": [[210, 52]]},
            "Land Movement", "not adjacent")
    game.close()


def test_land_moves_replay_to_the_same_state(save):
    game = new_game(save, [unit("g1", move=6)])
    assert game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": list(MINSK)}).accepted
    before = game.state.to_json()
    game.close()
    with Game.open(save) as again:
        assert again.state.to_json() == before


def test_over_stacked_hex_aircraft_limits(save):
    here = (205, 52)  # clear, no city: 1 aircraft (+1 with an HQ)
    air = [{"id": f"a{i}", "power": "germany", "branch": "air", "type": "ftr", "hex": list(here)} for i in (1, 2)]
    game = new_game(save, [unit("g1", hex_=here), *air])
    assert any("aircraft" in p for p in stacking_problems(game.state, here))
    helpers.finish(game, "germany")  # the phase ends with the hex overstacked
    refused(game, {"type": "ChooseOverstackLoss", "actor": "germany", "unit": "g1"}, "within their limit")
    out = game.submit({"type": "ChooseOverstackLoss", "actor": "germany", "unit": "a2"})
    assert out.accepted, out.reason
    assert stacking_problems(game.state, here) == []
    game.close()
    save.unlink()
    game = new_game(save, [unit("g1", hex_=here, type_="hq-a"), *air])
    assert stacking_problems(game.state, here) == []
    game.close()
