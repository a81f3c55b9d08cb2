"""The window asks the game, never imports it: no module of app/ imports a plugin or looks one
up by module path, and the forms are built from ``Game.choices`` and ``Game.preview``.  Three
bugs of forms that re-derived rules, driven with real pygame events (SDL_VIDEODRIVER=dummy):
who moves first chosen with the mouse (the form showed "side: -"), a land move in the step
after a rail move (refused until the window was reopened), a unit that moved is selectable
again next impulse (the list dropped it for the rest of the game)."""

from __future__ import annotations

import ast
from pathlib import Path

import pygame
import pytest

from app.play import GameWindow
from app.playforms import FINISH
from kernel.game import Game

from helpers import offered, ok, unit
from test_playing import buttons, click, hex_pos, press, pump

APP = Path(__file__).resolve().parents[2] / "app"
COUNTRIES = {"GE": "germany", "SU": "ussr", "PL": "germany"}


# ---------------------------------------------------------------- no plugin imports
def _literal_start(node) -> str | None:
    """The text a string argument starts with (a literal, or an f-string's first part)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value)
    return None


def plugin_imports(source: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "plugins"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "plugins":
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            start = _literal_start(node.args[0]) if node.args else None
            if name in ("import_module", "__import__") and start is not None and start.startswith("plugins"):
                found.append((node.lineno, start))
    return found


def test_the_check_finds_every_way_of_importing_a_plugin():
    source = ("import plugins.rules.land\nfrom plugins.rules.core import x\nimportlib.import_module('plugins.a')\n"
              "import_module(f'plugins.scenarios.{name}')\n__import__('plugins')\nfrom .plugins import y\n"
              "import_module(f'app.cli_{name}')\n")
    assert [line for line, _ in plugin_imports(source)] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("path", sorted(APP.glob("*.py")), ids=lambda p: p.name)
def test_no_app_module_imports_a_plugin(path):
    found = plugin_imports(path.read_text(encoding="utf-8"))
    assert not found, f"{path.name} imports plugins (ask the game: choices, previews, app/uihooks.py): {found}"


# ---------------------------------------------------------------- the window, driven by events
@pytest.fixture
def window_of(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    games = []

    def make(game, centre=(204, 52)):
        games.append(game)
        win = GameWindow(game, screen=pygame.display.set_mode((1024, 768)), forms=True)
        win.primary.center_on(centre)
        win.draw()
        return win

    yield make
    pygame.quit()
    for game in games:
        game.close()


def lab(path, units, start_at, **options):
    return Game.new("lab", path, seed=3, extra_plugins=["land", "turn"],
                    options={"units": units, "countries": COUNTRIES, "start_at": start_at, **options})


def form_texts(form) -> list[str]:
    out = []
    elements = list(form.get_container().elements)
    for element in elements:
        inner = element.get_container() if hasattr(element, "get_container") else None
        if inner is not None and inner is not element:
            elements += inner.elements  # the Play form's widgets are in its scrolling area
        for attr in ("text", "html_text"):
            if isinstance(getattr(element, attr, None), str):
                out.append(getattr(element, attr))
    return out


def move_by_clicks(window, unit_hex, to) -> None:
    """Click a unit, then (the map centred on it) the hex to move it to."""
    window.primary.center_on(unit_hex)
    window.draw()
    pump(window, *click(hex_pos(window, unit_hex)))
    window.primary.center_on(to)
    window.draw()
    pump(window, *click(hex_pos(window, to)))


def offered_hexes(window) -> list[tuple]:
    pending = window.play.fill.pending()
    assert pending is not None and pending.kind == "hex"
    return [tuple(o.value) for o in pending.all_options()]


def test_choose_who_moves_first_with_the_mouse(window_of, tmp_path):
    game = lab(tmp_path / "first.wif", [unit("g1", "germany", (204, 52))], "turn.new-turn.initiative")
    window = window_of(game)
    assert game.state.kernel.sequence.current.endswith("move-first-decision")
    play = window.play
    labels = [o.label for c in offered(game, "ChooseFirstMover") for o in c.fields[0].all_options()]
    assert labels and set(labels) <= set(buttons(play.form))  # a button per side the game offers
    assert not [t for t in form_texts(play.form) if t.endswith(": -")]  # no field left unfilled ("side: -")
    allies = next(label for label in labels if label.startswith("Allies"))
    press(window, play.form, allies)
    chosen = [r for r in game.history() if r.type != "DiceRolled" and "allies" in str(r.data).lower()
              and r.actor == "germany"]
    assert chosen, play.status
    assert not game.state.kernel.sequence.current.endswith("move-first-decision")


def test_a_land_move_in_the_step_after_a_rail_move(window_of, tmp_path):
    game = lab(tmp_path / "rail.wif", [unit("g1", "germany", (201, 54)), unit("g2", "germany", (202, 54))],
               "turn.impulse.land.movement.rail-movement", actions={"germany": "land"})
    window = window_of(game, centre=(201, 54))
    play = window.play
    window.primary.center_on((201, 54))
    window.draw()
    pump(window, *click(hex_pos(window, (201, 54))))
    assert play.fill.type == "RailMove" and play.fill.values["unit"] == "g1"
    rail_to = offered_hexes(window)[0]
    window.primary.center_on(rail_to)
    window.draw()
    pump(window, *click(hex_pos(window, rail_to)))
    assert tuple(game.state["units"].units["g1"].hex) == rail_to, play.status
    press(window, play.form, FINISH)
    assert game.state.kernel.sequence.current.endswith("land-movement")
    assert play.fill.type == "MoveLandUnit"  # the form follows the step
    window.primary.center_on((202, 54))
    window.draw()
    pump(window, *click(hex_pos(window, (202, 54))))
    land_to = offered_hexes(window)[0]
    before = game.state.kernel.seq
    window.primary.center_on(land_to)
    window.draw()
    pump(window, *click(hex_pos(window, land_to)))
    assert game.state.kernel.seq > before, play.status
    assert tuple(game.state["units"].units["g2"].hex) == land_to


def test_a_unit_that_moved_is_selectable_again_next_impulse(window_of, tmp_path):
    game = lab(tmp_path / "again.wif", [unit("g1", "germany", (204, 52)), unit("g2", "germany", (203, 53)),
                                         unit("r1", "ussr", (210, 48))],
               "turn.impulse.land.movement.land-movement", actions={"germany": "land"})
    window = window_of(game)
    play = window.play

    def listed() -> list:
        window.draw()
        form = play.selectable.form
        return list(form.unit_ids) if form is not None else []

    assert listed() == ["g1", "g2"]
    pump(window, *click(hex_pos(window, (204, 52))))
    to = offered_hexes(window)[0]
    move_by_clicks(window, (204, 52), to)
    assert tuple(game.state["units"].units["g1"].hex) == to, play.status
    assert listed() == ["g2"]  # moved this impulse: not offered
    first = game.state.kernel.impulse
    # on to Germany's next land movement: the game's own offers, never a command of ours
    for _ in range(200):
        k = game.state.kernel
        if k.impulse > first and k.sequence.current.endswith("land-movement") and k.sequence.pending == ["germany"]:
            break
        offer = {c.type: c for c in offered(game)}
        if "ChooseFirstMover" in offer:
            choice = offer["ChooseFirstMover"]
            ok(game, {**choice.base(), "side": choice.fields[0].values()[0]})
        elif "ChooseAction" in offer:
            choice = offer["ChooseAction"]
            values = choice.fields[0].values()
            ok(game, {**choice.base(), "action": "land" if "land" in values else values[0]})
        else:
            ok(game, offer["FinishStep"].base())
    else:
        pytest.fail("Germany never moved again")
    assert "g1" in listed()  # selectable again
    while play.popups.open:  # the rolls on the way (weather, initiative) told their results, one at a time
        press(window, play.popups.open[-1], "OK")
    at = tuple(game.state["units"].units["g1"].hex)
    window.primary.center_on(at)
    window.draw()
    pump(window, *click(hex_pos(window, at)))
    assert play.fill.values.get("unit") == "g1" and offered_hexes(window)
