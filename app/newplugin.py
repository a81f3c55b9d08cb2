"""``wif new-plugin``: a working plugin skeleton of each kind, with a passing test."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from kernel.errors import WifError

REPO_ROOT = Path(__file__).resolve().parent.parent


KINDS = ("optional-rule", "rules", "scenario", "map-view", "layout")
BUILTIN_FOLDER = {"optional-rule": "optional", "rules": "rules", "scenario": "scenarios", "map-view": "mapviews",
                  "layout": "layouts"}


def _camel(plugin_id: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[-_]", plugin_id) if part)


def skeleton(plugin_id: str, kind: str, dest: Path | None) -> dict[Path, str]:
    """The files of a new plugin (and its test), by path."""
    folder_name = plugin_id.replace("-", "_")
    if dest is None:
        plugin_folder = REPO_ROOT / "plugins" / BUILTIN_FOLDER[kind] / folder_name
        test_path = REPO_ROOT / "tests" / "plugins" / BUILTIN_FOLDER[kind] / f"test_{folder_name}.py"
        dirs_line = "PLUGIN_DIRS = None  # built in: found in the plugins/ tree"
    else:
        plugin_folder = dest / folder_name
        test_path = dest / "tests" / f"test_{folder_name}.py"
        dirs_line = "PLUGIN_DIRS = [Path(__file__).resolve().parent.parent]  # the folder holding the plugin"
    camel = _camel(plugin_id)
    affects = "false" if kind in ("map-view", "layout") else "true"
    requires = {"optional-rule": '["optional-rules"]', "rules": "[]", "scenario": "[]", "map-view": "[]",
                "layout": "[]"}[kind]
    files = {
        plugin_folder / "plugin.toml": textwrap.dedent(f'''\
            id = "{plugin_id}"
            name = "{camel}"
            version = "0.1.0"
            kind = "{kind}"
            affects_state = {affects}
            description = "Describe what this plugin does, for players and modders."
            requires = {requires}
            conflicts = []
            '''),
    }
    body, test = _TEMPLATES[kind]
    fmt = {"ID": plugin_id, "CAMEL": camel, "DIRS": dirs_line, "FOLDER": folder_name}
    files[plugin_folder / "__init__.py"] = _fill(body, fmt)
    files[test_path] = _fill(test, fmt)
    if kind == "optional-rule":
        files[plugin_folder / "rule.toml"] = textwrap.dedent(f'''\
            # This optional rule's entry in the catalogue (see docs/MODDING.md).
            id = "{plugin_id}"
            name = "{camel}"
            group = "other"   # additional-units, land, air, naval, supply, production or other
            description = """The long description a player reads in the Optional Rules form."""
            prerequisites = []
            exclusions = []
            toggle = "in-play"  # or "never": chosen at the start of a game only
            not_during = []      # step-id patterns where it may not be toggled, e.g. "turn.impulse.land.combat*"
            source = "where the rule comes from (seed section title and lines)"
            ''')
    return files


def _fill(template: str, values: dict[str, str]) -> str:
    text = textwrap.dedent(template)
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    return text


_OPTIONAL_RULE = ('''\
    """@CAMEL@: an optional rule (skeleton written by `wif new-plugin`).

    Every hook asks ``is_on(state, RULE_ID)`` first, so the base rules are untouched while the
    rule is OFF; the framework keeps ON/OFF in the event log (see docs/MODDING.md).
    """

    from __future__ import annotations

    from kernel.hookspecs import hookimpl
    from plugins.optional.framework import is_on

    RULE_ID = "@ID@"


    @hookimpl
    def describe_event(event, state):
        # The example effect: while ON, dice rolls are described with the rule's name.
        if event.type == "DiceRolled" and is_on(state, RULE_ID):
            d = event.data
            return f"[{RULE_ID}] {event.actor} rolled {d['results']} for {d['purpose']}"
        return None
    ''', '''\
    """@CAMEL@: the rule is in the catalogue, OFF leaves the base behaviour, ON changes it."""

    from pathlib import Path

    from plugins.optional.framework import build_catalogue, new_game

    RULE_ID = "@ID@"
    @DIRS@


    def test_the_rule_is_listed_and_implemented():
        assert build_catalogue(plugin_dirs=PLUGIN_DIRS).get(RULE_ID).implemented


    def test_off_keeps_the_base_behaviour_and_on_changes_it(tmp_path):
        for on in (False, True):
            game = new_game("skirmish", tmp_path / f"{on}.wif", seed=1, on=[RULE_ID] if on else [],
                            plugin_dirs=PLUGIN_DIRS)
            roll = next(e for e in game.history() if e.type == "DiceRolled")
            assert (RULE_ID in game.describe(roll)) is on
            game.close()
    ''')

_RULES = ('''\
    """@CAMEL@: a rules plugin (skeleton written by `wif new-plugin`).

    It adds a state section, an event, its reducer and a command whose handler decides it.
    """

    from __future__ import annotations

    from pydantic import BaseModel, Field

    from kernel.errors import Rejected
    from kernel.events import Command, EventData
    from kernel.hookspecs import hookimpl

    SECTION = "@ID@.notes"


    class @CAMEL@State(BaseModel):
        lines: list[str] = Field(default_factory=list)


    class @CAMEL@Noted(EventData):  # an event: a fact in the past tense
        text: str


    class @CAMEL@Note(Command):  # a command: a player's decision
        text: str


    def note(ctx, cmd):
        if not cmd.text.strip():
            raise Rejected("@ID@: a note needs some text")  # rejected: nothing is recorded
        ctx.emit(@CAMEL@Noted(text=cmd.text))


    def _noted(state, event):  # the reducer: the only writer of this section
        state[SECTION].lines.append(event.data["text"])


    @hookimpl
    def register_state(register):
        register(SECTION, @CAMEL@State)


    @hookimpl
    def register_events(register):
        register(@CAMEL@Noted)


    @hookimpl
    def register_reducers(register):
        register("@CAMEL@Noted", _noted)


    @hookimpl
    def register_commands(register):
        register(@CAMEL@Note, note, anytime=True)
    ''', '''\
    """@CAMEL@: a command is decided into an event that the reducer folds into state."""

    from pathlib import Path

    from kernel.game import Game

    @DIRS@


    def test_a_note_is_recorded_and_an_empty_one_refused(tmp_path):
        game = Game.new("skirmish", tmp_path / "g.wif", seed=1, extra_plugins=["@ID@"], plugin_dirs=PLUGIN_DIRS)
        assert game.submit({"type": "@CAMEL@Note", "actor": "red", "text": "hello"}).accepted
        assert game.state["@ID@.notes"].lines == ["hello"]
        refused = game.submit({"type": "@CAMEL@Note", "actor": "red", "text": " "})
        assert not refused.accepted and "needs some text" in refused.reason
        game.close()
    ''')

_SCENARIO = ('''\
    """@CAMEL@: a scenario (skeleton written by `wif new-plugin`): two sides, one power each,
    a turn loop in which each power may count, then finishes the step."""

    from __future__ import annotations

    from pydantic import BaseModel

    from kernel.events import Command, EventData
    from kernel.hookspecs import hookimpl
    from kernel.plugins import ScenarioSpec
    from kernel.sequence import StepSpec

    SECTION = "@ID@.score"
    SEQUENCE = StepSpec.model_validate({
        "id": "@ID@", "title": "@CAMEL@", "level": "root", "children": [
            {"id": "turn", "title": "Turn", "level": "stage", "repeat": True, "counter": "turn", "children": [
                {"id": "play", "title": "Play", "level": "phase", "decides": "each-power",
                 "commands": ["@CAMEL@Count"]},
            ]},
        ]})


    class Score(BaseModel):
        points: dict[str, int] = {}


    class @CAMEL@Counted(EventData):
        power: str


    class @CAMEL@Count(Command):
        pass


    def count(ctx, cmd):
        ctx.emit(@CAMEL@Counted(power=cmd.actor))


    def _counted(state, event):
        points = state[SECTION].points
        points[event.data["power"]] = points.get(event.data["power"], 0) + 1


    @hookimpl
    def register_state(register):
        register(SECTION, Score)


    @hookimpl
    def register_events(register):
        register(@CAMEL@Counted)


    @hookimpl
    def register_reducers(register):
        register("@CAMEL@Counted", _counted)


    @hookimpl
    def register_commands(register):
        register(@CAMEL@Count, count)


    @hookimpl
    def register_sequences(register):
        register("@ID@", SEQUENCE)


    @hookimpl
    def register_scenarios(register):
        register(ScenarioSpec(id="@ID@", name="@CAMEL@", sides={"a": ["alpha"], "b": ["beta"]}, sequence="@ID@"))


    @hookimpl
    def repeat_step(ctx, step_id, spec):
        if step_id == "@ID@.turn":
            return ctx.state.kernel.turn < int(ctx.state.kernel.options.get("turns", 2))
        return None
    ''', '''\
    """@CAMEL@: a new game starts, a power counts, both finish, and the next turn begins."""

    from pathlib import Path

    from kernel.game import Game

    @DIRS@


    def test_a_turn_is_played(tmp_path):
        game = Game.new("@ID@", tmp_path / "g.wif", seed=1, plugin_dirs=PLUGIN_DIRS)
        assert game.state.kernel.step.endswith("play") or game.state.kernel.sequence.current.endswith("play")
        assert game.submit({"type": "@CAMEL@Count", "actor": "alpha"}).accepted
        assert game.state["@ID@.score"].points == {"alpha": 1}
        for power in ("alpha", "beta"):
            assert game.submit({"type": "FinishStep", "actor": power}).accepted
        assert game.state.kernel.turn == 2
        game.close()
    ''')

_MAP_VIEW = ('''\
    """@CAMEL@: a map view (skeleton written by `wif new-plugin`); it does not affect game state."""

    from kernel.hookspecs import hookimpl


    @hookimpl
    def register_map_views(register):
        from app.views import MapView

        # seeds, "Map Views": centre column and row, zoom 1-8, and six display switches
        register(MapView(name="@CAMEL@", col=200, row=50, zoom=5), power="germany")
    ''', '''\
    """@CAMEL@: the front end loads the view for its major power."""

    from pathlib import Path

    from app.uiplugins import load_ui_plugins

    @DIRS@


    def test_the_view_is_loaded():
        ui = load_ui_plugins(PLUGIN_DIRS)
        assert "@CAMEL@" in [v.name for v in ui.map_views["germany"]]
    ''')

_LAYOUT = ('''\
    """@CAMEL@: a screen layout (skeleton written by `wif new-plugin`); it does not affect game state."""

    from kernel.hookspecs import hookimpl


    @hookimpl
    def register_layouts(register):
        from app.views import ScreenLayout, WindowGeometry

        register(ScreenLayout(name="@CAMEL@", screen=(1280, 1024), description="one 1280x1024 monitor",
                              windows={"main": WindowGeometry(x=0, y=0, w=1280, h=1024),
                                       "detailed": WindowGeometry(x=0, y=0, w=1000, h=1024)}))
    ''', '''\
    """@CAMEL@: the front end loads the layout."""

    from pathlib import Path

    from app.uiplugins import load_ui_plugins

    @DIRS@


    def test_the_layout_is_loaded():
        ui = load_ui_plugins(PLUGIN_DIRS)
        assert "@CAMEL@" in ui.layouts
    ''')

_TEMPLATES = {"optional-rule": _OPTIONAL_RULE, "rules": _RULES, "scenario": _SCENARIO, "map-view": _MAP_VIEW,
              "layout": _LAYOUT}


def cmd_new_plugin(args) -> int:
    plugin_id = args.name
    if not re.match(r"^[a-z][a-z0-9-]*$", plugin_id):
        raise WifError(f"plugin name {plugin_id!r}: use lower-case letters, digits and '-', starting with a letter "
                       "(an optional rule's id is its name in kebab-case, e.g. blitz-bonus)")
    from kernel.plugins import discover

    dest = Path(args.dest) if args.dest else None
    known = discover([dest] if dest and dest.is_dir() else None).plugins
    if plugin_id in known:
        raise WifError(f"a plugin {plugin_id!r} exists already ({known[plugin_id].folder}); choose another name")
    files = skeleton(plugin_id, args.kind, dest)
    clash = [p for p in files if p.exists()]
    if clash:
        raise WifError(f"{clash[0]} exists already; nothing written")
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


def add_new_plugin_command(sub) -> None:
    p = sub.add_parser("new-plugin", help="write a working plugin skeleton with a passing test")
    p.add_argument("name", help="the plugin id (an optional rule: its name in kebab-case)")
    p.add_argument("--kind", required=True, choices=KINDS)
    p.add_argument("--dest", help="a folder for the plugin (default: the built-in plugins/ tree)")
    p.set_defaults(func=cmd_new_plugin)
