"""Optional rule Partisans (seeds, "Partisans"; end-of-turn "Partisans": Partisan Rolls and
Place Partisans), in a Barbarossa lab game built with the rig."""

from __future__ import annotations

import pytest
from helpers import control, dice, finish, go_to, offered, ok, place, refused, unit

from plugins.optional.framework import new_game
from plugins.optional.partisans import (
    PLACE,
    country_rows,
    garrison_value,
    legal_hexes,
    maximum,
    partisan_state,
)
from plugins.rules import supply
from plugins.rules.units import Unit

BEHIND = [(220, 45), (221, 45)]  # two Soviet hexes far behind the front, rigged German


def _game(save, rules=("partisans",), seed=3):
    return new_game("barbarossa", save, on=list(rules), seed=seed, lab=True, extra_plugins=["rig", "rig-turn"])


def _invaded(game):
    """Germany holds two hexes deep in the USSR and has a corps on Soviet soil."""
    for h in BEHIND:
        control(game, h, "germany")
    place(game, unit("g-x", "germany", (216, 50), "inf", 4))


def test_partisans_maximum_is_the_seeds_formula_with_its_examples():
    rows = {r["name"]: r for r in country_rows()}
    expected = {"France": 12, "USSR": 24, "United Kingdom": 6, "Ireland": 2, "Norway": 3, "China": 12,
                "Yugoslavia": 9, "Greece": 4}
    assert {name: maximum(rows[name]) for name in expected} == expected


def test_partisans_garrison_values_by_size_and_type():
    def u(type_, size="army", branch="land"):
        return Unit(id="x", power="germany", branch=branch, type=type_, size=size)
    assert garrison_value(u("inf", "division")) == 0.5
    assert garrison_value(u("arm")) == garrison_value(u("mtn")) == garrison_value(u("hq-a")) == 2
    assert garrison_value(u("inf")) == garrison_value(u("ftr", "", "air")) == 1
    assert garrison_value(u("bb", "", "naval")) == 0


def test_partisan_rolls_bring_partisans_that_the_ussr_places_behind_enemy_lines(save):
    game = _game(save)
    _invaded(game)
    dice(game, 1, 2, 2, 5, 6, 7)  # USSR checks (1 <= 4); 2d10 = 4 <= 29/3: 3 arrive; their draws
    go_to(game, "turn.end-of-turn.partisans", turn=2)
    k = game.state.kernel
    assert k.sequence.current == PLACE and k.sequence.pending == ["ussr"]
    waiting = partisan_state(game.state).waiting
    assert [(p["id"], p["combat"]) for p in waiting] == [("partisan-su-1", 1), ("partisan-su-2", 1),
                                                         ("partisan-su-3", 2)]
    assert legal_hexes(game.state, "ussr", "SU") == sorted(BEHIND, key=lambda h: (h[1], h[0]))
    # the seeds: "not in an enemy ZOC" (215,50 is next to the German corps), and in table order
    control(game, (215, 50), "germany")
    refused(game, {"type": "PlacePartisan", "actor": "ussr", "unit": "partisan-su-1", "hex": [215, 50]},
            "Partisans", "not in an enemy ZOC")
    refused(game, {"type": "PlacePartisan", "actor": "ussr", "unit": "partisan-su-2", "hex": [220, 45]},
            "order of the partisan table")
    refused(game, {"type": "FinishStep", "actor": "ussr"}, "place partisan-su-1 first")
    (choice,) = offered(game, "PlacePartisan")
    ok(game, {"type": "PlacePartisan", "actor": "ussr", "unit": "partisan-su-1", "hex": [220, 45]})
    placed = game.state["units"].units["partisan-su-1"]
    assert placed.on_map and placed.type == "partisan" and placed.power == "ussr" and tuple(placed.hex) == (220, 45)
    assert supply.in_supply(game.state, "partisan-su-1")  # "they are always in supply"
    assert game.state["core.world"].hex_control.get("220,45") == "germany"  # no change of control
    ok(game, {"type": "PlacePartisan", "actor": "ussr", "unit": "partisan-su-2", "hex": [220, 45]})
    # a hex holds at most 2 partisans (corps-sized): the third goes to the other hex
    refused(game, {"type": "PlacePartisan", "actor": "ussr", "unit": "partisan-su-3", "hex": [220, 45]})
    ok(game, {"type": "PlacePartisan", "actor": "ussr", "unit": "partisan-su-3", "hex": [221, 45]})
    assert partisan_state(game.state).waiting == [] and not offered(game, "PlacePartisan")
    finish(game, "ussr")
    assert game.state.kernel.sequence.current != PLACE


def test_partisan_rolls_garrison_and_partisans_present_move_the_number(save):
    game = _game(save)
    _invaded(game)
    place(game, unit("g-gar", "germany", (230, 40), "arm", 5))  # a panzer corps on garrison duty: 2
    dice(game, 1, 9, 9, 5)
    events = go_to(game, "turn.end-of-turn.partisans", turn=2)
    rolled = next(e for e in events if e.type == "PartisanCheckRolled")
    assert rolled.data["effective"] == 30 - 1 - 2  # the German corps at 216,50 (1) and the panzers (2)
    assert rolled.data["roll"] == 18 and rolled.data["arriving"] == 1  # 18 <= 27, > 27/2


def test_partisan_rolls_a_country_neither_invaded_nor_conquered_does_not_check(save):
    game = _game(save)
    control(game, BEHIND[0], "germany")  # no German unit on Soviet soil
    events = go_to(game, "turn.end-of-turn.partisans", turn=2)
    assert not [e for e in events if e.type == "PartisanCheckRolled" or e.type == "DiceRolled"]
    skipped = {e.data["step"]: e.data["reason"] for e in events if e.type == "StepSkipped"}
    assert "no partisan arrived" in skipped[f"wif.{PLACE[len('wif.'):]}"]


def test_partisans_with_no_legal_hex_do_not_arrive(save):
    game = _game(save)
    place(game, unit("g-x", "germany", (216, 50), "inf", 4))  # invaded, but no German-held hex out of ZOC
    dice(game, 1, 2, 2)
    events = go_to(game, "turn.end-of-turn.partisans", turn=2)
    rolled = next(e for e in events if e.type == "PartisanCheckRolled")
    assert rolled.data["arriving"] == 0 and not partisan_state(game.state).waiting


def test_partisans_setup_placement_is_skipped_with_the_reason(save):
    game = new_game("barbarossa", save, on=["partisans"], seed=3)
    for power in ("ussr", "germany"):
        ok(game, {"type": "RestoreSetup", "actor": power})
        finish(game, power)
    skipped = {e.data["step"]: e.data["reason"] for e in game.history() if e.type == "StepSkipped"}
    assert "no partisan units to place" in skipped["wif.new-game.setup.placing-partisans-on-the-map"]


def test_partisans_off_no_partisan_ever_arrives(save):
    game = _game(save, rules=())
    _invaded(game)
    events = go_to(game, "turn.end-of-turn.partisans", turn=2)
    assert not [e for e in events if "Partisan" in e.type]
    assert not any(u.type == "partisan" for u in game.state["units"].units.values())
    assert not offered(game, "PlacePartisan")


@pytest.mark.parametrize("seed", [1, 2])
def test_partisans_every_offered_placement_is_accepted(save, seed):
    game = _game(save, seed=seed)
    _invaded(game)
    dice(game, 1, 2, 2, 5, 6, 7)
    go_to(game, "turn.end-of-turn.partisans", turn=2)
    while offered(game, "PlacePartisan"):
        (choice,) = offered(game, "PlacePartisan")
        cmd = {"type": "PlacePartisan", "actor": "ussr"}
        unit_field = choice.fields[0]
        opt = unit_field.all_options()[-1 if seed == 2 else 0]
        cmd["unit"] = opt.value
        hex_field = opt.next_fields()[0]
        cmd["hex"] = list(hex_field.all_options()[-1 if seed == 2 else 0].value)
        ok(game, cmd)
    assert not partisan_state(game.state).waiting


def test_partisans_never_leave_their_home_country(save):
    from plugins.rules.land.movement import reachable

    game = _game(save)
    for h in [(208, 47), (207, 47), (207, 46), (208, 46), (208, 48), (207, 48)]:
        control(game, h, "germany")  # German-held: a partisan may move through enemy territory
    place(game, unit("partisan-su-9", "ussr", (208, 47), "partisan", 1, 2, flags=["partisan", "home:SU"]),
          unit("su-inf-x", "ussr", (208, 46), "inf", 2, 2))
    found = reachable(game.state, "partisan-su-9")
    assert (208, 46) in found or (208, 48) in found  # Soviet hexes
    assert (207, 47) not in found and (207, 48) not in found  # Latvia: outside its home country
    assert (207, 47) in reachable(game.state, "su-inf-x") or (207, 46) in reachable(game.state, "su-inf-x")


def test_partisans_defend_with_1_more_in_forest(save):
    from plugins.rules.combat import odds_preview

    game = _game(save)
    control(game, (207, 47), "germany")
    place(game, unit("partisan-su-9", "ussr", (208, 47), "partisan", 1, 2, flags=["partisan", "home:SU"]),
          unit("g-inf-a", "germany", (207, 47), "inf", 4, 3))
    preview = odds_preview(game.state, ["g-inf-a"], (208, 47), host=game.host)
    assert preview["defence"] == 2  # a 1-2 partisan in forest (208,47)
