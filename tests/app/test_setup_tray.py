"""The Setup Tray form (seeds, "Setup Tray") on a new Barbarossa game, driven with real
events: the units by set-up area, Ready / In Stack, a click on the map places the units in
hand (PlaceUnit), a refused placement shows the rule's reason, Restore Setup."""

from __future__ import annotations

import pygame
import pytest

from app.play import GameWindow
from kernel.game import Game
from plugins.rules.core import world_map
from plugins.scenarios.barbarossa import oob, tray_units

from test_playing import click, pump


@pytest.fixture
def tray_window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = Game.new("barbarossa", tmp_path / "b.wif", seed=1941)
    window = GameWindow(game, screen=pygame.display.set_mode((1280, 1024)), forms=True, layout="M1210")
    window.draw()
    yield window
    pygame.quit()
    game.close()


def item(selection_list, starts):
    return next(i["button_element"] for i in selection_list.item_list if i["text"].startswith(starts))


def hex_pos(window, hex_):
    body = window.panels["detailed"].body
    x, y = window.primary.hex_to_screen(hex_)
    return (body.x + x, body.y + y)


def test_pick_units_by_area_and_place_them_on_the_map(tray_window):
    window = tray_window
    tray = window.play.tray
    form = tray.form
    assert form is not None and form.visible_rect().topleft == (window.layout.windows["setup_tray"].x,
                                                                window.layout.windows["setup_tray"].y)
    assert [name for _, name, _ in tray.areas()][0] == "Baltic Special Military District"
    pump(window, *click(item(form.area_list, "Baltic Special Military District").rect.center))
    assert tray.area == "baltic"
    listed = tray.listed_units()
    assert listed and all(oob.scenario_data().unit(u).area == "baltic" for u in listed)
    first = listed[0]
    label = tray.label(first)
    assert label.startswith("Ready")
    pump(window, *click(item(tray.form.unit_list, label).rect.center))
    assert tray.in_stack == [first]
    # the hexes the unit in hand may be placed in are the game's offer, all in its area
    outlined = set(tray.outlined())
    assert outlined and outlined <= set(oob.area_hexes("baltic"))
    assert any(i["text"].startswith("In Stack") for i in tray.form.unit_list.item_list)
    # a hex outside the unit's area: refused with the rule's reason, nothing appended
    outside = (217, 48)  # Moscow: the Stavka reserve area, not the Baltic district
    window.primary.center_on(outside)
    window.draw()
    before = window.game.state.kernel.seq
    pump(window, *click(hex_pos(window, outside)))
    assert window.game.state.kernel.seq == before and tray.in_stack == [first]
    assert "Baltic" in window.play.status[0]
    # its default hex is legal
    target = tuple(oob.scenario_data().unit(first).hex)
    window.primary.center_on(target)
    window.draw()
    pump(window, *click(hex_pos(window, target)))
    unit = window.game.state["units"].units[first]
    assert unit.where == "map" and tuple(unit.hex) == target
    assert tray.in_stack == [] and first not in tray_units(window.game.state, "ussr")


def test_restore_setup_places_every_unit_left_in_the_tray(tray_window):
    window = tray_window
    tray = window.play.tray
    assert tray_units(window.game.state, "ussr")
    restore = next(b for b in tray.form.owned if getattr(b, "text", "") == "Restore Setup")
    pump(window, *click(restore.rect.center))
    assert tray_units(window.game.state, "ussr") == []
    assert "Restore setup" in window.play.status[0]  # in words (issue 11 item 5)


def test_ships_are_set_up_in_the_ports_of_their_sea(tray_window, tmp_path):
    """Ships in Flames 16.1/16.3: the tray lists the Soviet Baltic fleet under its ports; the ports
    a ship in hand may go to are outlined (the game's offer); a click on a port places it, a click
    on a port of the wrong sea is refused with the rule's reason."""
    window = tray_window
    tray = window.play.tray
    assert "Ports on the Baltic Sea" in [name for _, name, _ in tray.areas()]
    pump(window, *click(item(tray.form.area_list, "Ports on the Baltic Sea").rect.center))
    assert tray.area == "ports-BA"
    assert set(tray.listed_units()) == {"su-marat", "su-oct-revolution", "su-kirov", "su-maxim-gorkiy"}
    label = tray.label("su-marat")
    pump(window, *click(item(tray.form.unit_list, label).rect.center))
    assert tray.in_stack == ["su-marat"]
    m = world_map()
    outlined = {m.port_at(h).name for h in tray.outlined()}
    assert {"Leningrad", "Tallinn", "Riga"} <= outlined and "Sevastopol" not in outlined
    pygame.image.save(window.screen, str(tmp_path / "ships.png"))
    # a Black Sea port: refused with the rule's reason, nothing appended
    sevastopol = tuple(m.port("Sevastopol").hex)
    window.primary.center_on(sevastopol)
    window.draw()
    before = window.game.state.kernel.seq
    pump(window, *click(hex_pos(window, sevastopol)))
    assert window.game.state.kernel.seq == before and tray.in_stack == ["su-marat"]
    assert "Baltic Sea" in window.play.status[0]
    riga = tuple(m.port("Riga").hex)
    window.primary.center_on(riga)
    window.draw()
    pump(window, *click(hex_pos(window, riga)))
    marat = window.game.state["units"].units["su-marat"]
    assert marat.where == "map" and tuple(marat.hex) == riga and tray.in_stack == []
