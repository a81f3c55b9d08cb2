"""`wif render`, and bad input: corrupt map-view and layout files, a layout larger than the
screen, an unknown unit type, broken UI plugins — a clear message, defaults, nothing lost."""

from __future__ import annotations

import json

import pygame
import pytest

from app import cli as wif_cli
from app.play import GameWindow
from app.uiplugins import load_ui_plugins
from app.views import LayoutStore, MapView, MapViewStore, fit_layout
from kernel.game import Game

UNKNOWN_TYPE_SCENARIO = """
from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec
from kernel.sequence import StepSpec
from plugins.rules.units import Unit, UnitCreated

def setup(ctx):
    ctx.emit(UnitCreated(unit=Unit(id="w1", power="germany", branch="land", type="wunderwaffe", hex=(193, 54))))
    ctx.emit(UnitCreated(unit=Unit(id="g1", power="germany", branch="land", type="inf", hex=(193, 54))))

@hookimpl
def register_sequences(register):
    register("odd", StepSpec(id="odd", title="Odd", level="root", children=(
        StepSpec(id="go", title="Go", decides="each-power", commands=("FinishStep",)),)))

@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id="odd-units", name="Odd", sides={"axis": ["germany"]}, sequence="odd", setup=setup))
"""


@pytest.fixture
def config(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    monkeypatch.setenv("WIF_CONFIG_DIR", str(folder))
    return folder


def test_wif_render_writes_the_detailed_and_global_maps(tmp_path, config, capsys):
    out = tmp_path / "d.png"
    assert wif_cli.main(["render", "render_demo", "--view", "detailed", "--center", "Kiev", "--zoom", "6",
                         "--size", "640x400", "--out", str(out)]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (640, 400)
    out2 = tmp_path / "g.png"
    assert wif_cli.main(["render", "render_demo", "--view", "global", "--global-view", "control",
                         "--size", "760x430", "--out", str(out2)]) == 0
    assert pygame.image.load(str(out2)).get_size() == (760, 430)
    assert wif_cli.main(["render", "render_demo", "--center", "Atlantis", "--out", str(tmp_path / "x.png")]) == 1
    assert "Atlantis" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_corrupt_map_view_file_uses_defaults_and_keeps_the_file(config):
    folder = config / "mapviews"
    folder.mkdir(parents=True)
    (folder / "germany.json").write_text("{ not json")
    defaults = {"germany": [MapView(name="Moscow", col=217, row=48, zoom=6)]}
    messages: list[str] = []
    store = MapViewStore(defaults, config, messages)
    assert store.names("germany") == ["Moscow"]
    assert "germany.json" in messages[0] and "cannot read" in messages[0]
    store.save("germany", MapView(name="Mine", col=1, row=2, zoom=3))
    assert (folder / "germany.json.bad").read_text() == "{ not json"  # the player's file is kept
    assert [v["name"] for v in json.loads((folder / "germany.json").read_text())["views"]] == ["Moscow", "Mine"]


def test_a_bad_view_in_a_good_file_is_skipped_by_name(config):
    folder = config / "mapviews"
    folder.mkdir(parents=True)
    (folder / "ussr.json").write_text(json.dumps({"views": [
        {"name": "Kiev", "col": 210, "row": 57, "zoom": 6}, {"name": "Mars", "col": 10, "row": 999, "zoom": 12}]}))
    messages: list[str] = []
    store = MapViewStore({}, config, messages)
    assert store.names("ussr") == ["Kiev"]
    assert "Mars" in messages[0] and "row" in messages[0]


def test_corrupt_layout_file_and_oversized_layout(config, tmp_path):
    ui = load_ui_plugins()
    folder = config / "layouts"
    folder.mkdir(parents=True)
    (folder / "M1210.json").write_text(json.dumps({"name": "M1210", "screen": [1280, 1024], "windows": "lots"}))
    messages: list[str] = []
    store = LayoutStore(ui.layouts, config, messages)
    layout = store.get("M1210")
    assert layout == ui.layouts["M1210"] and "M1210.json" in messages[0] and "windows" in messages[0]
    fitted, note = fit_layout(ui.layouts["M1912"], (1024, 768))
    assert "1920x1200" in note and "1024x768" in note
    for g in fitted.windows.values():
        assert g.x >= 0 and g.y >= 0 and g.x + g.w <= 1024 and g.y + g.h <= 768
    assert ui.layouts["M1912"].windows["detailed"].w > 1024  # the saved layout is untouched


def test_window_with_oversized_layout_says_so_and_fits(config, tmp_path):
    game = Game.new("render_demo", tmp_path / "g.wif", seed=1)
    pygame.display.init()
    pygame.font.init()
    try:
        window = GameWindow(game, layout="M1912")
        assert window.screen.get_size() == (1024, 768)
        assert any("M1912" in text and "scaled to fit" in text for text, _ in window.messages)
        for panel in window.panels.values():
            assert panel.rect.right <= 1024 and panel.geometry.y + panel.geometry.h <= 768
        window.apply_layout("no such layout")
        assert any("no such layout" in text for text, _ in window.messages)
        window.draw()
    finally:
        pygame.quit()
        game.close()


def test_unknown_unit_type_is_reported_and_drawn(config, tmp_path, plugin_dir):
    plugin_dir.add("odd-units", UNKNOWN_TYPE_SCENARIO, kind="scenario", requires=["units"])
    game = Game.new("odd-units", tmp_path / "odd.wif", seed=1, plugin_dirs=[plugin_dir.path])
    pygame.display.init()
    pygame.font.init()
    try:
        window = GameWindow(game)
        window.primary.set_zoom(7)
        window.primary.center_on((193, 54))
        window.draw()
        window.draw()
        texts = [t for t, _ in window.messages]
        assert any("w1" in t and "wunderwaffe" in t for t in texts)
        assert sum("wunderwaffe" in t for t in texts) == 1  # said once, not every frame
        assert len(game.state["units"].in_hex((193, 54))) == 2  # nothing lost
    finally:
        pygame.quit()
        game.close()


def test_broken_ui_plugin_is_reported_and_the_others_load(config, plugin_dir):
    plugin_dir.add("broken-views", "raise RuntimeError('oops')\n", kind="map-view", affects_state=False)
    plugin_dir.add("odd-views", """
from kernel.hookspecs import hookimpl
@hookimpl
def register_map_views(register):
    register("not a view", power="germany")
""", kind="map-view", affects_state=False)
    ui = load_ui_plugins([plugin_dir.path])
    assert "layouts_standard" in ui.loaded and "mapviews_fronts" in ui.loaded
    assert any("broken-views" in m and "oops" in m for m in ui.messages)
    assert any("odd-views" in m and "MapView" in m for m in ui.messages)
    assert ui.map_views["germany"][0].name == "Leningrad"
