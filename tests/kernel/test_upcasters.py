"""An event type's schema version and the upcasters that read old versions."""

from kernel.game import Game
from kernel.verify import verify

V1 = """
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec
from kernel.sequence import StepSpec
from pydantic import BaseModel

class Board(BaseModel):
    score: int = 0

class Scored(EventData):
    points: int

class Score(Command):
    points: int

def score(ctx, cmd):
    ctx.emit(Scored(points=cmd.points))

def _scored(state, event):
    state["ver.board"].score += event.data["points"]

@hookimpl
def register_state(register):
    register("ver.board", Board)

@hookimpl
def register_events(register):
    register(Scored)

@hookimpl
def register_reducers(register):
    register("Scored", _scored)

@hookimpl
def register_commands(register):
    register(Score, score)

@hookimpl
def register_sequences(register):
    register("ver", StepSpec(id="ver", title="Ver", level="root", children=(
        StepSpec(id="play", title="Play", decides="each-power", commands=("Score",)),)))

@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id="ver", name="Ver", sides={"only": ["me"]}, sequence="ver"))
"""

# Version 2 counts points in tenths; the upcaster converts stored version-1 events.
V2 = V1.replace("class Scored(EventData):\n    points: int", "class Scored(EventData):\n    tenths: int") \
    .replace("ctx.emit(Scored(points=cmd.points))", "ctx.emit(Scored(tenths=cmd.points * 10))") \
    .replace('state["ver.board"].score += event.data["points"]', 'state["ver.board"].score += event.data["tenths"] // 10') \
    .replace("    register(Scored)\n", "    register(Scored, version=2)\n") \
    + """
@hookimpl
def register_upcasters(register):
    register("Scored", 1, lambda data: {"tenths": data["points"] * 10})
"""


def test_old_events_are_upcast_for_reducers_history_and_verify(plugin_dir, save):
    plugin_dir.add("ver", V1, kind="scenario")
    game = Game.new("ver", save, seed=1, plugin_dirs=[plugin_dir.path])
    assert game.submit({"type": "Score", "actor": "me", "points": 3}).accepted
    game.close()
    plugin_dir.add("ver", V2, kind="scenario", version="2.0.0")
    import sys
    sys.modules.pop("wif_plugin_ver", None)
    with Game.open(save, read_only=True, plugin_dirs=[plugin_dir.path]) as game:
        assert game.state["ver.board"].score == 3
        scored = [e for e in game.history() if e.type == "Scored"][0]
        assert scored.version == 2 and scored.data == {"tenths": 30}
    report = verify(save, plugin_dirs=[plugin_dir.path])
    assert not report.ok and "is version 2.0.0, the game used 1.0.0" in report.problems[0]
