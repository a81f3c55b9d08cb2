"""Map layers (app/uiplugins.py): the window's supply layer is always loaded; a UI plugin's
layer is drawn over the detailed map, and one that cannot be drawn is refused by name."""

import pygame

from app.play import GameWindow
from app.supplylayer import SupplyLayer
from app.uiplugins import load_ui_plugins
from kernel.game import Game


def test_the_supply_layer_is_loaded_and_a_plugins_layer_is_drawn(tmp_path, monkeypatch, plugin_dir):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    plugin_dir.add("dot-layer", """
from kernel.hookspecs import hookimpl

class Dot:
    drawn = 0

    def draw(self, window, dmap, surface, pos):
        Dot.drawn += 1

@hookimpl
def register_map_layers(register):
    register(Dot())
    register("not a layer")
""", kind="ui", affects_state=False)
    ui = load_ui_plugins([plugin_dir.path])
    assert isinstance(ui.layers[0], SupplyLayer)
    dots = [layer for layer in ui.layers if type(layer).__name__ == "Dot"]  # the map's own layers load too
    assert len(dots) == 1 and "ports" in [getattr(layer, "name", "") for layer in ui.layers]
    dot = dots[0]
    assert any("dot-layer" in m and "draw(window, dmap, surface, pos)" in m and "'not a layer'" in m
               for m in ui.messages)
    pygame.display.init()
    pygame.font.init()
    game = Game.new("barbarossa", tmp_path / "b.wif", seed=1)
    try:
        window = GameWindow(game, screen=pygame.Surface((1024, 768)), ui=ui)
        window.draw()
        assert type(dot).drawn >= 1
    finally:
        pygame.quit()
        game.close()
