"""The land plugin's choices and previews: what ``Game.choices`` offers for MoveLandUnit,
RailMove and ChooseOverstackLoss is accepted when submitted (every enumerated command and
50 random ones), includes what the seeds allow, leaves out what they forbid, and the
preview tells the path and cost the handler then uses.

Seed sections: "Land Movement", "Rail Movement", "Over-Stacked Hex" (and the Correct
Overstacking Digression).  Built in the lab scenario, and at the first German land
movement of a real Barbarossa game.
"""

from __future__ import annotations

import random

import pytest

import helpers
from helpers import offered, unit
from kernel.choices import CommandChoice
from kernel.game import Game
from plugins.rules import core
from plugins.rules.land import reachable, stacking_problems, zoc_hexes
from plugins.rules.turn.activities import limit

LAND_MOVEMENT = "turn.impulse.land.movement.land-movement"
RAIL_MOVEMENT = "turn.impulse.land.movement.rail-movement"
COUNTRIES = {"GE": "germany", "SU": "ussr", "PL": "germany"}
MINSK = (207, 51)


def new_game(save, units, actions=None, start_at=LAND_MOVEMENT, plugins=("land",), plugin_dirs=None, **options):
    opts = {"units": units, "countries": COUNTRIES, "actions": actions or {"germany": "land"},
            "start_at": start_at, **options}
    return Game.new("lab", save, seed=7, options=opts, extra_plugins=list(plugins), plugin_dirs=plugin_dirs)


def the_offer(game, type_, player=None) -> CommandChoice | None:
    """The one CommandChoice of ``type_`` offered now, or None (never two)."""
    found = offered(game, type_, player)
    assert len(found) <= 1
    return found[0] if found else None


def unit_options(choice) -> dict:
    return {o.value: o for o in choice.fields[0].all_options()}


def destinations(choice, unit_id) -> dict[tuple, str]:
    """The hexes offered to ``unit_id``: {hex: label}."""
    option = unit_options(choice)[unit_id]
    (to,) = [f for f in option.next_fields() if f.name == "to"]
    return {tuple(o.value): o.label for o in to.all_options()}


def assert_contract(game, choice, samples=50, stride=1) -> list[dict]:
    """Every enumerated command (every ``stride``-th) and ``samples`` random ones are accepted
    by a dry run, and each one's preview is legal.  Returns the commands checked."""
    commands = choice.commands()[::stride]
    commands += [choice.sample(random.Random(i)) for i in range(samples)]
    assert commands and None not in commands
    for cmd in commands:
        out = game.dry_run(cmd)
        assert out.accepted, (cmd, out.reason)
        preview = game.preview(cmd)
        assert preview["legal"], (cmd, preview)
    return commands


def assert_preview_is_what_happens(game, cmd):
    """The preview's path and cost are the handler's (the LandUnitMoved or UnitRailMoved it emits)."""
    preview = game.preview(cmd)
    out = game.dry_run(cmd)
    assert preview["legal"] and out.accepted, (preview, out.reason)
    moved = next(e for e in out.events if e.type in ("LandUnitMoved", "UnitRailMoved"))
    assert [list(h) for h in moved.data["path"]] == preview["path"]
    if moved.type == "LandUnitMoved":
        assert moved.data["cost"] == preview["cost"]
        assert preview["activities"] == {"land-move": 1}
    else:
        assert moved.data["rail_moves"] == preview["rail_moves"] == preview["activities"]["rail-move"]
    used = next(e for e in out.events if e.type == "ActivityUsed")
    assert {used.data["kind"]: used.data["count"]} == preview["activities"]


# ---------------------------------------------------------------- Land Movement
def test_land_movement_choices_offer_each_movable_unit_its_whole_range(save):
    units = [unit("arm", type_="arm", move=6, name="4th Panzer Army"), unit("inf", hex_=(204, 53)),
             unit("tired", hex_=(203, 52), face_up=False), unit("r1", power="ussr", hex_=(210, 50))]
    game = new_game(save, units)
    choice = the_offer(game, "MoveLandUnit")
    options = unit_options(choice)
    # Land Movement: the phasing side's organized land units move; the disorganized one and
    # the enemy's do not
    assert set(options) == {"arm", "inf"}
    assert "4th Panzer Army" in options["arm"].label
    found = reachable(game.state, "arm")
    dests = destinations(choice, "arm")
    assert set(dests) == {h for h in found if h != (204, 52)}  # all of it: nothing here stacks
    assert max(found[h][0] for h in dests) == 6  # out to its full movement allowance
    assert f"{found[MINSK][0]} MP" in dests[MINSK] and "Minsk" in dests[MINSK]
    assert_contract(game, choice)
    # Land Movement: one move per unit per impulse
    assert game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "arm", "to": list(MINSK)}).accepted
    assert set(unit_options(the_offer(game, "MoveLandUnit"))) == {"inf"}
    game.close()


def test_land_movement_choices_stop_at_enemy_zones_of_control_and_respect_stacking(save):
    units = [unit("g1", hex_=(205, 52), move=6), unit("r1", power="ussr", hex_=(208, 52)),
             unit("s1", hex_=(204, 51)), unit("s2", hex_=(204, 51)), unit("d1", hex_=(204, 52), size="division")]
    game = new_game(save, units)
    choice = the_offer(game, "MoveLandUnit")
    dests = destinations(choice, "g1")
    zoc = zoc_hexes(game.state, "allies")
    found = reachable(game.state, "g1")
    assert (207, 52) in dests  # into the enemy ZOC ...
    assert (208, 52) not in dests and (209, 52) not in dests  # ... not into the enemy nor beyond
    for h in dests:  # no offered move leaves an enemy ZOC hex on the way
        prev = found[h][1]
        while prev is not None and prev != (205, 52):
            assert prev not in zoc, (h, prev)
            prev = found[prev][1]
    # Over-Stacked Hex: "You cannot voluntarily overstack": a third army may not join two
    # armies, a division may
    assert (204, 51) not in dests and stacking_problems(game.state, (204, 51), adding=[game.state["units"].units["g1"]])
    assert (204, 51) in destinations(choice, "d1")
    assert_contract(game, choice)
    game.close()


def test_land_movement_preview_is_the_path_and_cost_the_handler_uses(save):
    game = new_game(save, [unit("g1", type_="arm", move=6), unit("g2", hex_=(203, 53))])
    choice = the_offer(game, "MoveLandUnit")
    for i in range(20):
        assert_preview_is_what_happens(game, choice.sample(random.Random(i)))
    # a given path is previewed as given; refusals read as the handler's
    cmd = {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "path": [[205, 52], [206, 52]]}
    assert_preview_is_what_happens(game, cmd)
    bad = {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "path": [[210, 52]]}
    assert game.preview(bad) == {"legal": False, "reason": game.dry_run(bad).reason}
    game.close()


@pytest.mark.parametrize("action", ["air", "naval", "pass"])
def test_land_movement_not_offered_without_a_land_or_combined_action(save, action):
    game = new_game(save, [unit("g1")], actions={"germany": action})
    assert the_offer(game, "MoveLandUnit") is None
    game.close()


def test_land_movement_combined_action_limit_ends_the_offer(save):
    units = [unit(f"g{i}", hex_=(196 + i, 54)) for i in range(12)]
    game = new_game(save, units, actions={"germany": "combined"})
    cap = limit(game.state, "germany", "land-move")
    for i in range(cap):
        choice = the_offer(game, "MoveLandUnit")
        assert choice is not None and f"g{i}" in unit_options(choice)
        assert game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": f"g{i}", "path": [[196 + i, 55]]}).accepted
    assert the_offer(game, "MoveLandUnit") is None  # Activity Limits: no land move left
    game.close()


def test_land_movement_overruns_offered_only_when_accepted(save, plugin_dir):
    """Land Movement: "Enemy units might be overrun during land movement".  The odds come from
    the land combat rules (land's overrun_odds hook, answered here by a stand-in): only the
    overruns the handler accepts are offered, and the preview tells the odds."""
    plugin_dir.add("overrun-stand-in", helpers.OVERRUN_STAND_IN, requires=["land"])
    weak, strong = (207, 52), (207, 50)
    units = [unit("g1", hex_=(205, 52), type_="arm", move=6, combat=24), unit("w", "ussr", weak, size="division", combat=1),
             unit("s", "ussr", strong, combat=9)]
    game = new_game(save, units, plugins=("land", "overrun-stand-in"), plugin_dirs=[plugin_dir.path])
    choice = the_offer(game, "MoveLandUnit")
    dests = destinations(choice, "g1")
    assert weak in dests and "overrun 1 unit(s) at 24:1" in dests[weak]
    assert strong not in dests  # 24 against 9: short of the odds
    assert_contract(game, choice)
    cmd = {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": list(weak)}
    out = game.dry_run(cmd)
    preview = game.preview(cmd)
    overrun = next(e for e in out.events if e.type == "LandUnitsOverrun")
    assert preview["overrun"] and preview["overrun_units"] == overrun.data["units"] == ["w"]
    assert preview["odds"] == overrun.data["odds"] == 24
    moved = next(e for e in out.events if e.type == "LandUnitMoved")
    assert preview["path"] == [list(h) for h in moved.data["path"]] and preview["cost"] == moved.data["cost"]
    game.close()


def test_land_movement_no_overrun_offered_without_rules_to_judge_it(save):
    units = [unit("g1", hex_=(205, 52), type_="arm", move=6, combat=24), unit("w", "ussr", (207, 52), size="division",
                                                                             combat=1)]
    game = new_game(save, units)
    assert (207, 52) not in destinations(the_offer(game, "MoveLandUnit"), "g1")
    preview = game.preview({"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": [207, 52]})
    assert not preview["legal"] and "overrun_odds" in preview["reason"]
    game.close()


# ---------------------------------------------------------------- a real game
def _first_german(path, phase="land-movement"):
    """A Barbarossa game at Germany's first ``phase`` (default setups, Germany moves first,
    every power takes a Land action, every other step finished)."""
    game = Game.new("barbarossa", path, seed=7)
    for _ in range(500):
        seq = game.state.kernel.sequence
        if seq.current.endswith(phase) and "germany" in seq.pending:
            return game
        for cmd_type, extra in (("RestoreSetup", {}), ("ChooseFirstMover", {"side": "axis"}),
                                ("ChooseAction", {"action": "land"})):
            choice = the_offer(game, cmd_type)
            if choice is not None and game.submit({**choice.base(), **extra}).accepted:
                break
        else:
            decision = game.choices(None).decisions[0]
            finish = decision.find("FinishStep")
            assert finish, f"stuck at {seq.current}"
            assert game.submit(finish[0].base()).accepted
    raise AssertionError(f"no German {phase} step")


def test_land_movement_choices_in_barbarossa_are_accepted(tmp_path):
    game = _first_german(tmp_path / "b.wif")
    choice = the_offer(game, "MoveLandUnit")
    assert choice is not None and choice.actor == "germany"
    units = game.state["units"].units
    options = unit_options(choice)
    german = [u for u in units.values() if u.power == "germany" and u.branch == "land" and u.on_map and u.face_up]
    assert set(options) == {u.id for u in german}  # nobody has moved yet
    armour = next(u for u in german if u.type == "arm")
    assert set(destinations(choice, armour.id)) <= set(reachable(game.state, armour.id))
    commands = assert_contract(game, choice)
    for cmd in commands[::25]:
        assert_preview_is_what_happens(game, cmd)
    # a destination holding enemy units is an overrun the rules accept
    for cmd in commands:
        if any(u.power != "germany" for u in game.state["units"].in_hex(tuple(cmd["to"]))):
            assert "LandUnitsOverrun" in [e.type for e in game.dry_run(cmd).events]
    game.close()


# ---------------------------------------------------------------- Rail Movement
def test_rail_movement_choices_in_barbarossa_are_accepted(tmp_path):
    game = _first_german(tmp_path / "b.wif", "rail-movement")
    choice = the_offer(game, "RailMove")
    assert choice is not None and choice.actor == "germany"
    units = game.state["units"].units
    assert all(units[u].power == "germany" and units[u].branch in ("land", "air") for u in unit_options(choice))
    commands = assert_contract(game, choice, stride=13)
    for cmd in commands[::20]:
        assert_preview_is_what_happens(game, cmd)
    game.close()


def _trans_siberian():
    return next(r for r in core.world_map().rails if r.name == "Trans-Siberian")


def test_rail_movement_choices_offer_land_and_air_units_on_rail_hexes(save):
    line = _trans_siberian()
    start = line.hexes[0]
    air = {"id": "ra", "power": "ussr", "branch": "air", "type": "ftr", "hex": list(start), "name": "Soviet fighters"}
    units = [unit("r1", power="ussr", hex_=start), unit("off", power="ussr", hex_=(212, 40)), air]
    assert (212, 40) not in {h for r in core.world_map().rails for h in r.hexes}
    game = new_game(save, units, actions={"ussr": "land"}, active_side="allies", start_at=RAIL_MOVEMENT)
    choice = the_offer(game, "RailMove")
    # Rail Movement: "land and air units along rail lines" (a unit off the rails has none)
    assert set(unit_options(choice)) == {"r1", "ra"}
    dests = destinations(choice, "r1")
    far = line.hexes[65]
    assert line.hexes[10] in dests and far in dests
    assert "2 rail moves" in dests[far] and "1 rail move" in dests[line.hexes[10]]
    assert_contract(game, choice, stride=7)
    assert_preview_is_what_happens(game, {"type": "RailMove", "actor": "ussr", "unit": "r1", "to": list(far)})
    assert game.submit({"type": "RailMove", "actor": "ussr", "unit": "r1", "to": list(line.hexes[10])}).accepted
    assert set(unit_options(the_offer(game, "RailMove"))) == {"ra"}  # one rail move per unit
    game.close()


def test_rail_movement_choices_only_as_far_as_the_rail_moves_left(save):
    line = _trans_siberian()
    start = line.hexes[0]
    units = [unit(f"r{i}", power="ussr", hex_=start if i < 2 else line.hexes[1]) for i in range(4)]
    game = new_game(save, units, actions={"ussr": "combined"}, active_side="allies", start_at=RAIL_MOVEMENT)
    cap = limit(game.state, "ussr", "rail-move")
    assert cap and cap >= 1
    # spend all but one rail move, then no destination more than 60 hexes away is offered
    for i in range(cap - 1):
        assert game.submit({"type": "RailMove", "actor": "ussr", "unit": f"r{i}", "to": list(line.hexes[3 + i])}).accepted
    choice = the_offer(game, "RailMove")
    uid = next(iter(unit_options(choice)))
    dests = destinations(choice, uid)
    assert dests and all("1 rail move" in label for label in dests.values())
    assert line.hexes[65] not in dests
    assert_contract(game, choice, stride=11)
    game.close()


def test_rail_movement_choices_avoid_enemy_zones_of_control_and_other_sides_hexes(save):
    m = core.world_map()
    line = next(r for r in m.rails if r.name == "Berlin-Moscow")
    berlin = m.city("Berlin").hex
    i = line.hexes.index(berlin)
    game = new_game(save, [unit("g1", hex_=berlin), unit("r1", power="ussr", hex_=line.hexes[i + 8])],
                    start_at=RAIL_MOVEMENT)
    choice = the_offer(game, "RailMove")
    dests = destinations(choice, "g1")
    zoc = zoc_hexes(game.state, "allies")
    assert line.hexes[i + 6] in dests
    assert not zoc & set(dests)
    assert all(core.hex_controller(game.state, h) == "germany" for h in dests)
    assert_contract(game, choice, stride=5)
    game.close()


# ---------------------------------------------------------------- Over-Stacked Hex
def _overstacked(save, units, **options):
    game = new_game(save, units, **options)
    out = game.submit({"type": "FinishStep", "actor": "germany"})  # "Stacking applies at the end of every phase"
    assert out.accepted, out.reason
    assert game.state.kernel.sequence.current.endswith("correct-overstacking")
    return game


def test_over_stacked_hex_choices_are_the_owners_organized_overstacked_units(save):
    here = (205, 52)
    game = _overstacked(save, [unit("g1", hex_=here), unit("g2", hex_=here), unit("g3", hex_=here, face_up=False),
                               unit("g4", hex_=(204, 52))])
    decision = game.choices(None).decisions[0]
    assert decision.decider == "germany"
    (choice,) = decision.find("ChooseOverstackLoss")
    # "You must destroy organized units before disorganized units"; only the overstacked hex's
    assert set(unit_options(choice)) == {"g1", "g2"}
    assert_contract(game, choice, samples=10)
    preview = game.preview({"type": "ChooseOverstackLoss", "actor": "germany", "unit": "g1"})
    assert preview["legal"] and preview["hex"] == list(here) and not preview["still_overstacked"]
    assert game.submit({"type": "ChooseOverstackLoss", "actor": "germany", "unit": "g1"}).accepted
    assert not game.state.kernel.sequence.stack  # the digression is over
    assert the_offer(game, "ChooseOverstackLoss") is None
    game.close()


def test_over_stacked_hex_choices_only_the_overstacked_kind(save):
    here = (205, 52)  # clear, no city: 1 aircraft
    air = [{"id": f"a{i}", "power": "germany", "branch": "air", "type": "ftr", "hex": list(here)} for i in (1, 2)]
    game = _overstacked(save, [unit("g1", hex_=here), *air])
    choice = the_offer(game, "ChooseOverstackLoss")
    # "Stacking limits for land, aircraft, and naval units are independent"
    assert set(unit_options(choice)) == {"a1", "a2"}
    assert_contract(game, choice, samples=10)
    game.close()
