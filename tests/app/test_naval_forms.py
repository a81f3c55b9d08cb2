"""Naval Movement on the Play form (seeds, "Naval Movement": "from a sea area to a port"): the
command's choices fill through the window's forms as a player clicks them, on a lab game of the
Baltic (a DD at sea in section 2, a CA in Konigsberg).  A move into a port has one "section"
option whose value is None (the port): the form's button for it must choose it, not clear the
field (the form took None for "clear")."""

from __future__ import annotations

import pygame

from app.guiclicks import post, scroll_to, visible_point
from app.play import GameWindow
from helpers import lab_game, rig, ship
from plugins.rules.core import world_map
from test_find_review_supply import click, pump

STETTIN = world_map().port("Stettin").hex


def test_naval_movement_into_a_port_by_the_forms_buttons(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    g = lab_game(tmp_path / "g.wif", options={"units": [ship("ca"), ship("dd", type_="dd", speed=5, range_=5)],
                                              "actions": {"germany": "naval"},
                                              "start_at": "turn.impulse.naval.naval-movement"},
                 extra_plugins=["naval"])
    try:
        rig(g, "RigShipsAtSea", units=["dd"], area="BA", section=2)
        win = GameWindow(g, forms=True)
        win.draw()
        play = win.play
        play.fill_in(next(c for c in play.decisions.commands() if c.type == "MoveNavalGroup"))
        assert play.fill.set("origin", "BA:2") and play.fill.set("to", f"{STETTIN[0]},{STETTIN[1]}")
        play.fill_changed()
        pump(win)
        port = next(b for b in play.form.owned if getattr(b, "sets", None) == ("section", None))
        for _ in range(40):  # the form scrolls: the button whole into view, as a player scrolls to it
            wheel = scroll_to(win.gui, port, "the port's button", [play.body.area])
            if wheel is None:
                break
            post(wheel)
            pump(win)
        pump(win, *click(visible_point(win.gui, port)))
        assert "section" in play.fill.values and play.fill.values["section"] is None
        assert play.fill.pending().name == "units"
        assert play.fill.set("units", ["dd"]) and play.fill.complete()
        assert g.preview(play.fill.command())["legal"]
        assert play.submit(play.fill.command())
        assert tuple(g.state["units"].units["dd"].hex) == tuple(STETTIN)
    finally:
        pygame.quit()
        g.close()
