"""A long list on the Play form is in A-Z order when it lists places by name (issue 11, a new
player at the window): Naval Movement's "to" offered 143 sea areas and ports of Guadalcanal in
the rules' order (by sea-area code, then the ports), so "Great Australian Bight" came first and
"Baja California" after "Bay of Bengal".  Lab game of the Baltic (seeds, "Naval Movement"): a
CA in Konigsberg may sail to 18 sea areas and ports; the list is chosen from by real clicks."""

from __future__ import annotations

import pygame

from app.guiclicks import find_button, list_row, post, scroll_to, visible_point
from app.play import GameWindow
from helpers import lab_game, ship
from plugins.rules.core import world_map
from test_find_review_supply import click, pump

KONIGSBERG, STETTIN = world_map().port("Konigsberg").hex, world_map().port("Stettin").hex


def click_button(win, button, what):
    """Scroll the Play form until ``button`` is in view, as a player does, then click it."""
    for _ in range(40):
        wheel = scroll_to(win.gui, button, what, [win.play.body.area])
        if wheel is None:
            break
        post(wheel)
        pump(win)
    pump(win, *click(visible_point(win.gui, button)))


def test_the_places_a_ship_may_sail_to_are_listed_a_to_z(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    g = lab_game(tmp_path / "g.wif", options={"units": [ship("ca")], "actions": {"germany": "naval"},
                                              "start_at": "turn.impulse.naval.naval-movement"},
                 extra_plugins=["naval"])
    try:
        win = GameWindow(g, screen=pygame.display.set_mode((1024, 768)), forms=True)
        win.draw()
        play = win.play
        pump(win, *click(find_button(play.form, fills=("MoveNavalGroup", "germany")).rect.center))
        origin = f"{KONIGSBERG[0]},{KONIGSBERG[1]}"
        button = find_button(play.form, sets=("origin", origin))
        click_button(win, button, "Konigsberg")
        assert play.fill.values.get("origin") == origin
        lst = next(e for e in play.form.owned if getattr(e, "field_name", None) == "to")
        names = [item["text"] for item in lst.item_list]
        assert len(names) > 8 and "Stettin" in names and "Baltic Sea" in names
        assert names == sorted(names, key=str.lower)
        index = names.index("Stettin")
        assert lst.options[index].value == f"{STETTIN[0]},{STETTIN[1]}"  # the row and its value go together
        for _ in range(40):
            action = scroll_to(win.gui, lst, "the list", [win.play.body.area]) or list_row(win.gui, lst, index, "Stettin")
            post(action)
            pump(win)
            if action.kind == "click":
                break
        assert play.fill.values.get("to") == f"{STETTIN[0]},{STETTIN[1]}"
    finally:
        pygame.quit()
        g.close()
