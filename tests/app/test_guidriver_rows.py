"""Rows of the Play form's lists take every click (the GUI driver stopped in whole games with
"a click on row of ... changed nothing": Barbarossa's AssignLandLosses, Guadalcanal's
MoveNavalGroup, both lists of several units).  pygame_gui takes a second click on a row within
its double-click time (0.5 s) as a double click, which chooses nothing: a player who clicks a
row and at once again to take it out, or the driver clicking again after a rebuild, was
ignored.  The Play form's lists take no double clicks."""

from __future__ import annotations

from app.guiclicks import list_row
from test_playing import DECL, SUPPLY_HQ, TARGET, click, hex_pos, lab_game, open_window, pump  # noqa: F401


def test_a_units_row_clicked_twice_at_once_is_chosen_then_taken_out(open_window, tmp_path):
    game = lab_game(tmp_path / "rows.wif", start_at=DECL, extra_units=[SUPPLY_HQ])
    window = open_window(game)
    play = window.play
    assert play.fill.type == "DeclareAttack"
    pump(window, *click(hex_pos(window, TARGET)))
    units = next(b for b in play.form.owned if getattr(b, "field_name", None) == "units")
    assert len(units.options) >= 2
    row = list_row(window.gui, units, 0, "the first attacker")
    first = units.options[0].value
    pump(window, *click(row.pos))
    assert play.fill.values.get("units") == [first]
    units = next(b for b in play.form.owned if getattr(b, "field_name", None) == "units")
    row = list_row(window.gui, units, 0, "the first attacker")
    pump(window, *click(row.pos))  # well within 0.5 s of the first click
    assert not play.fill.values.get("units"), play.fill.values
