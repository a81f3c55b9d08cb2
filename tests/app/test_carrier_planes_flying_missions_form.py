"""Carrier planes flying missions on the Play form (Ships in Flames 8.5 Flying Missions; seed 000
"Phasing Side Flies Bombers & Escorts" L11840-11880: "the owning major power needs to specify
whether the air unit is flying as a bomber or as a fighter"): in a Ground Strike, the German
carrier plane p1 aboard its carrier in the Baltic is offered "as a bomber", then its target, the
Soviet army in Riga, by the form's buttons, clicked as a player clicks them."""

from __future__ import annotations

import sys
from pathlib import Path

import pygame

from app.guiclicks import post, scroll_to, visible_point
from app.play import GameWindow
from test_find_review_supply import click, pump

sys.path.append(str(Path(__file__).resolve().parents[1] / "plugins" / "rules"))
from test_naval_carrier_planes_flying_missions import RIGA, carrier_at_sea  # noqa: E402


def _click_button(win, sets: tuple) -> str:
    """Scroll the Play form's button that sets ``sets`` whole into view and click it; its text."""
    play = win.play
    button = next(b for b in play.form.owned if getattr(b, "sets", None) == sets)
    for _ in range(40):
        wheel = scroll_to(win.gui, button, f"the button {sets}", [play.body.area])
        if wheel is None:
            break
        post(wheel)
        pump(win)
    text = button.text
    pump(win, *click(visible_point(win.gui, button)))
    return text


def test_carrier_planes_flying_missions_a_ground_strike_by_the_play_forms_buttons(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    g = carrier_at_sea(tmp_path)
    try:
        win = GameWindow(g, forms=True)
        win.draw()
        play = win.play
        play.fill_in(next(c for c in play.decisions.commands() if c.type == "FlyCarrierAirUnit"))
        assert play.fill.set("unit", "p1")
        play.fill_changed()
        pump(win)
        assert _click_button(win, ("role", "bomber")) == "as a bomber"
        assert play.fill.values["role"] == "bomber" and play.fill.pending().name == "hex"
        assert _click_button(win, ("hex", tuple(RIGA))).startswith("Riga")  # the last field: the click sends it
        flight = g.state["air"].mission.flights["p1"]
        assert flight.role == "bomber" and tuple(flight.hex) == tuple(RIGA)
    finally:
        pygame.quit()
        g.close()
