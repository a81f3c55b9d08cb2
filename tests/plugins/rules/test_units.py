"""The units plugin: counters created, moved between hexes and pools, flipped."""

from kernel.game import Game

SCENARIO = """
from kernel.events import Command
from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec
from kernel.sequence import StepSpec
from plugins.rules.units import Unit, UnitCreated, UnitMoved, UnitFlipped

class Shift(Command):
    unit: str
    to: tuple[int, int] | None = None
    where: str = "map"

def shift(ctx, cmd):
    ctx.emit(UnitMoved(unit=cmd.unit, to_hex=cmd.to, to_where=cmd.where))
    ctx.emit(UnitFlipped(unit=cmd.unit, face_up=False))

def setup(ctx):
    ctx.emit(UnitCreated(unit=Unit(id="g1", power="germany", branch="land", type="inf",
                                   factors={"combat": 4, "move": 3}, hex=(10, 20))))
    ctx.emit(UnitCreated(unit=Unit(id="g2", power="germany", branch="land", type="arm", hex=(10, 20))))

@hookimpl
def register_commands(register):
    register(Shift, shift)

@hookimpl
def register_sequences(register):
    register("u", StepSpec(id="u", title="U", level="root", children=(
        StepSpec(id="go", title="Go", decides="each-power", commands=("Shift",)),)))

@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id="unit-test", name="U", sides={"axis": ["germany"]}, sequence="u", setup=setup))
"""


def test_units_are_indexed_by_hex_through_moves_and_pools(plugin_dir, save):
    plugin_dir.add("unit-test", SCENARIO, kind="scenario", requires=["units"])
    game = Game.new("unit-test", save, seed=1, plugin_dirs=[plugin_dir.path])
    u = game.state["units"]
    assert [x.id for x in u.in_hex((10, 20))] == ["g1", "g2"]
    assert game.submit({"type": "Shift", "actor": "germany", "unit": "g1", "to": [11, 20]}).accepted
    assert [x.id for x in u.in_hex((10, 20))] == ["g2"] and [x.id for x in u.in_hex((11, 20))] == ["g1"]
    assert not u.units["g1"].face_up
    assert game.submit({"type": "Shift", "actor": "germany", "unit": "g2", "where": "force-pool"}).accepted
    assert u.in_hex((10, 20)) == [] and "10,20" not in u.at_hex
    assert u.units["g2"].where == "force-pool" and not u.units["g2"].on_map
    before = game.state.to_json()
    game.close()
    with Game.open(save, plugin_dirs=[plugin_dir.path]) as again:
        assert again.state.to_json() == before


def test_unit_events_say_which_hexes_they_touched_and_read_as_words(plugin_dir, save):
    from kernel.replay import Replay

    plugin_dir.add("unit-test", SCENARIO, kind="scenario", requires=["units"])
    game = Game.new("unit-test", save, seed=1, plugin_dirs=[plugin_dir.path])
    game.submit({"type": "Shift", "actor": "germany", "unit": "g1", "to": [11, 20]})
    replay = Replay(game)
    moved = [e for e in game.history() if e.type == "UnitMoved"][0]
    flipped = [e for e in game.history() if e.type == "UnitFlipped"][0]
    before = game.state_at(moved.seq - 1)
    assert replay.touched_hexes(moved, before) == [(10, 20), (11, 20)]
    assert game.describe(moved, before) == "germany: inf moves to (11, 20)"
    assert game.describe(flipped) == "germany: inf disorganized (face down)"
    game.close()
