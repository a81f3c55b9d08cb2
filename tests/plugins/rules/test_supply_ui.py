"""What the window asks the supply and turn rules (app/uihooks.py): seeds, "Supply Sources and
Paths" (the sources, the units out of supply, the path a unit traces, on through a secondary
source to a primary one) and "Activity Limits" (what is left this impulse)."""

import pytest

from app.uihooks import ask_game
from kernel.game import Game

from helpers import unit

MOVE = "turn.impulse.land.movement.land-movement"


@pytest.fixture
def game(tmp_path):
    options = {"units": [unit("g-arm", "germany", (206, 51), "arm", combat=6),
                         unit("g-far", "germany", (230, 40)),
                         unit("g-hq", "germany", (204, 51), "hq-i", combat=1, factors={"reorg": 1}),
                         unit("g-home", "germany", (190, 55)),
                         unit("s-inf", "ussr", (207, 52), combat=1)],
               "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
               "actions": {"germany": "land"}, "start_at": MOVE}
    g = Game.new("lab", tmp_path / "lab.wif", seed=1, options=options, extra_plugins=["land", "combat"])
    yield g
    g.close()


def path_of(game, unit_id):
    return ask_game(game, "supply_path", state=game.state, unit_id=unit_id)


def test_status_lists_the_sources_and_the_units_out_of_supply(game):
    status = ask_game(game, "supply_status", state=game.state, power="germany")
    assert status["out_of_supply"] == ["g-far"]
    kinds = {tuple(s["hex"]): (s["kind"], s["label"]) for s in status["sources"]}
    assert kinds[(191, 55)] == ("primary", "Leipzig")
    assert kinds[(204, 51)][0] == "secondary" and "g-hq" in kinds[(204, 51)][1]  # the HQ
    assert ask_game(game, "supply_status", state=game.state, power="nobody") is None


def test_a_unit_near_a_city_traces_to_it(game):
    home = path_of(game, "g-home")
    assert home["in_supply"] and home["source"] == {"hex": [191, 55], "kind": "primary", "label": "Leipzig"}
    assert home["path"] == [[190, 55], [191, 55]]


def test_a_unit_supplied_by_an_hq_traces_to_it_and_on_to_a_primary_source(game):
    arm = path_of(game, "g-arm")
    assert arm["in_supply"] and arm["source"]["kind"] == "secondary" and arm["source"]["hex"] == [204, 51]
    path = [tuple(h) for h in arm["path"]]
    assert path[0] == (206, 51) and (204, 51) in path
    # the path goes on from the HQ to a primary source (a German city), hex by adjacent hex
    status = ask_game(game, "supply_status", state=game.state, power="germany")
    primaries = {tuple(s["hex"]) for s in status["sources"] if s["kind"] == "primary"}
    assert path[-1] in primaries
    from kernel.hexgrid import WORLD
    assert all(WORLD.distance(a, b) == 1 for a, b in zip(path, path[1:]))


def test_a_unit_out_of_supply_says_why(game):
    far = path_of(game, "g-far")
    assert not far["in_supply"] and far["source"] is None and far["path"] == [[230, 40]]
    assert "supply source" in far["why"]
    assert path_of(game, "nobody") is None


def test_activities_left_follow_the_chosen_action(game):
    left = ask_game(game, "activities_left", state=game.state, power="germany")
    assert left["action"] == "Land"
    assert left["left"]["naval moves"] == 0 and left["left"]["land moves"] is None
    assert ask_game(game, "activities_left", state=game.state, power="ussr") is None  # no action chosen
