"""A row of a Play-form list wider than the form ends with an ellipsis, its tip the whole row
(issue 11: "202,49 (clear): 8th Army (inf 3), 12th Mec" was cut without a mark).  Lab game
(tests/app/test_playing.py's, seeds "Land Movement"): ten German corps, so the units to move
are a list, one of them with a name longer than the form; real posted pygame events."""

from __future__ import annotations

import pygame

from app.guiclicks import list_row, post, scroll_to
from app.listrows import ELLIPSIS
from helpers import unit
from test_playing import lab_game, open_window, pump  # noqa: F401

LONG = "Panzergruppe Guderian Kampfgruppe Nord Reserve der Heeresgruppe Mitte (Vorausabteilung)"
CORPS = [unit(f"g-row{i}", "germany", (200 + i % 4, 45 + i // 4)) for i in range(9)]


def test_a_row_wider_than_the_list_ends_with_an_ellipsis_and_its_tip_is_the_whole_label(open_window, tmp_path):
    game = lab_game(tmp_path / "rows.wif", extra_units=[*CORPS, unit("g-long", "germany", (203, 47), name=LONG)])
    window = open_window(game)
    play = window.play
    lst = next(e for e in play.body.owned if getattr(e, "field_name", None) == "unit")
    index = next(i for i, o in enumerate(lst.options) if o.value == "g-long")
    for _ in range(40):  # as a player: the list scrolled into the form's view, the row into the list's
        action = scroll_to(window.gui, lst, "the list", [play.body.area]) or list_row(window.gui, lst, index, LONG)
        if action.kind == "click":
            break
        post(action)
        pump(window)
    shown = lst.item_list[index]["text"]
    assert shown.startswith("Panzergruppe Guderian") and shown.endswith(ELLIPSIS), shown
    for item in lst.item_list:  # every row the list shows fits its button
        button = item["button_element"]
        if button is not None:
            assert button.font.size(item["text"])[0] <= button.rect.width - 4, item["text"]
    button = lst.item_list[index]["button_element"]
    pump(window)  # a frame: the list gives its shown rows their tips
    assert button.tool_tip_text is not None and button.tool_tip_text.startswith(LONG), button.tool_tip_text
    short = next(item for item in lst.item_list if item["button_element"] is not None and item is not lst.item_list[index])
    assert short["button_element"].tool_tip_text is None and not short["text"].endswith(ELLIPSIS)
    post(action)  # the cut row still chooses its unit
    pump(window)
    assert play.fill.values["unit"] == "g-long"
