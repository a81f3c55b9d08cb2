"""Playing on the map with real pygame-ce events (SDL_VIDEODRIVER=dummy): select and move a
unit, declare and resolve an attack with its odds preview and dice, end a phase, a refused
command's reason in the Play form with nothing appended, hot seat, the Start New Game form.

Situation (lab scenario): German corps in 206,51 (armour) and 206,52 (infantry), a Soviet
rifle corps in the clear hex 207,52."""

from __future__ import annotations

import pygame
import pytest

from app.forms import Gui
from app.newgame import MODES, NewGameForm
from app.play import GameWindow
from app.playforms import FINISH
from kernel.game import Game

from helpers import unit

MOVE = "turn.impulse.land.movement.land-movement"
DECL = "turn.impulse.land.combat.land-combat-declaration"
TARGET = (207, 52)


# keeps the German units in supply (an attack with no unit in supply is called off)
SUPPLY_HQ = unit("g-hq", "germany", (204, 51), "hq-i", combat=1, factors={"reorg": 1})


def lab_game(path, start_at=MOVE, seed=1, extra_units=(), **extra):
    options = {"units": [unit("g-arm", "germany", (206, 51), "arm", combat=6), unit("g-inf", "germany", (206, 52)),
                         unit("s-inf", "ussr", TARGET, combat=1), *extra_units],
               "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
               "actions": {"germany": "land"}, "start_at": start_at, **extra.pop("options", {})}
    return Game.new("lab", path, seed=seed, options=options, extra_plugins=["land", "combat"], **extra)


@pytest.fixture
def open_window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    made = []

    def make(game):
        win = GameWindow(game, forms=True)
        win.primary.center_on((206, 52))
        win.draw()
        made.append(game)
        return win

    yield make
    pygame.quit()
    for game in made:
        game.close()


def pump(window, *events):
    """Handle the events and the events the forms post in reply, drawing between passes."""
    for e in events:
        pygame.event.post(e)
    for _ in range(5):
        pending = pygame.event.get()
        for e in pending:
            window.handle(e)
        window.draw()
        if not pending:
            break


def motion(pos):
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def click(pos):
    return [motion(pos), pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)]


def hex_pos(window, hex_):
    body = window.panels["detailed"].body
    x, y = window.primary.hex_to_screen(hex_)
    return (body.x + x, body.y + y)


def buttons(form):
    return {b.text: b for b in form.owned if hasattr(b, "text")}


def press(window, form, text):
    button = buttons(form)[text]
    pump(window, *click(button.rect.center))


def seq(game):
    return game.state.kernel.seq


def destinations(play) -> set:
    """The hexes the game offers the unit being moved (the map outlines them)."""
    pending = play.fill.pending()
    return {tuple(o.value) for o in pending.all_options()} if pending is not None and pending.kind == "hex" else set()


def test_select_a_unit_see_its_path_and_cost_and_move_it(open_window, tmp_path):
    game = lab_game(tmp_path / "m.wif")
    window = open_window(game)
    play = window.play
    pump(window, *click(hex_pos(window, (206, 52))))
    assert play.fill.values["unit"] == "g-inf" and len(destinations(play)) > 3
    goal = (205, 53)
    assert goal in destinations(play)
    pump(window, motion(hex_pos(window, goal)))
    preview = play.map.hover_preview  # the game's preview of the move, shown before it is made
    expected = game.preview({"type": "MoveLandUnit", "actor": "germany", "unit": "g-inf", "to": list(goal)})
    assert tuple(preview["path"][-1]) == goal and preview["cost"] == expected["cost"]
    shown = [e for e in play.body.get_container().elements if getattr(e, "preview", None)]
    assert shown and shown[0].preview is preview and f"cost: {expected['cost']}" in shown[0].html_text
    window.draw()
    pygame.image.save(window.screen, str(tmp_path / "move-preview.png"))
    before = seq(game)
    pump(window, *click(hex_pos(window, goal)))
    assert tuple(game.state["units"].units["g-inf"].hex) == goal
    moved = [r.type for r in game.history(before + 1)]
    assert "LandUnitMoved" in moved or "UnitMoved" in moved
    assert "unit" not in play.fill.values  # a fresh move is filled in


def test_an_illegal_move_shows_the_rules_reason_and_appends_nothing(open_window, tmp_path):
    game = lab_game(tmp_path / "bad.wif")
    window = open_window(game)
    play = window.play
    pump(window, *click(hex_pos(window, (206, 52))))
    far = (206, 58)
    assert far not in destinations(play)
    before = seq(game)
    pump(window, *click(hex_pos(window, far)))
    assert seq(game) == before
    assert "Land Movement" in play.status[0]
    status = [e for e in play.body.get_container().elements if getattr(e, "status_text", None)]
    assert status and "Land Movement" in status[0].status_text  # shown in the Play form


def test_end_a_phase_with_the_button(open_window, tmp_path):
    game = lab_game(tmp_path / "end.wif")
    window = open_window(game)
    assert game.state.kernel.sequence.current.endswith("land-movement")
    before = seq(game)
    press(window, window.play.form, FINISH)
    assert seq(game) > before
    assert not game.state.kernel.sequence.current.endswith("land-movement")


def resolve_by_buttons(window) -> bool:
    """A declared attack resolved with the Play form's buttons: the declaration ended, the blitz
    table chosen if asked, the die rolled; True once "Resolve combat" was pressed."""
    play = window.play
    for _ in range(8):
        offered = {c.type for c in play.decisions.commands()}
        if "ChooseLandCombatType" in offered:
            press(window, play.form, next(t for t in buttons(play.form) if "blitz" in t.lower()))
        elif "ResolveCombat" in offered:
            press(window, play.form, "Resolve combat")
            return True
        elif "FinishStep" in offered:
            press(window, play.form, FINISH)
        else:
            return False
    return False


def test_declare_and_resolve_an_attack_with_odds_preview_and_dice(open_window, tmp_path):
    game = lab_game(tmp_path / "a.wif", start_at=DECL, extra_units=[SUPPLY_HQ])
    window = open_window(game)
    play = window.play
    assert play.fill.type == "DeclareAttack"
    before = seq(game)
    # the game offers the hexes that may be attacked, then the units that may attack each
    pump(window, *click(hex_pos(window, TARGET)), *click(hex_pos(window, (206, 51))), *click(hex_pos(window, (206, 52))))
    assert sorted(play.fill.units_chosen()) == ["g-arm", "g-inf"] and play.fill.hexes_chosen() == [TARGET]
    assert play.fill.complete() and play.preview()["odds"]  # previewed before anything is committed
    assert seq(game) == before
    press(window, play.form, "Declare attack")
    assert game.state["combat"].combats["207,52"].attackers == ["g-arm", "g-inf"]
    press(window, play.form, FINISH)
    # the resolution: the table choice and the roll, each a button built from its command
    resolve_by_buttons(window)
    resolved = [r for r in game.history(before) if r.type == "LandCombatResolved"]
    assert resolved, [r.type for r in game.history(before)]
    popup = next(p for p in play.popups.open if any(resolved[0].data["result"] in line for line in p.lines))
    assert any("dice" in line for line in popup.lines)
    window.draw()
    pygame.image.save(window.screen, str(tmp_path / "combat.png"))


def test_hot_seat_asks_for_the_other_player_first(open_window, tmp_path):
    game = lab_game(tmp_path / "h.wif", players={"Anna": ["germany"], "Boris": ["ussr"]},
                    options={"mode": "hotseat"})
    window = open_window(game)
    play = window.play
    assert play.hidden() and "I am Anna: show my decisions" in buttons(play.form)
    before = seq(game)
    pump(window, *click(hex_pos(window, (206, 52))), *click(hex_pos(window, (205, 53))))
    assert seq(game) == before and "unit" not in play.fill.values  # nothing is decided while hidden
    press(window, play.form, "I am Anna: show my decisions")
    assert not play.hidden() and FINISH in buttons(play.form)


def test_start_new_game_form_creates_the_game(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    try:
        screen = pygame.display.set_mode((1024, 768))
        gui = Gui(screen.get_size())
        form = NewGameForm(gui, "skirmish", lambda scenario: tmp_path / f"{scenario}.wif")
        form._mode_changed(MODES["hotseat"])
        gui.update(0.01)
        for e in click(form.start_button.rect.center):
            pygame.event.post(e)
        for _ in range(3):
            for e in pygame.event.get():
                gui.process(e)
            gui.update(0.01)
        assert form.done and form.choice.kind == "game"
        game = form.choice.game
        try:
            assert game.state.kernel.options["mode"] == "hotseat"
            assert set(game.state.kernel.controllers.values()) == {"Player-1", "Player-2"}
        finally:
            game.close()
    finally:
        pygame.quit()


def test_forms_roll_up_to_their_title_bar(open_window, tmp_path):
    game = lab_game(tmp_path / "r.wif")
    window = open_window(game)
    form = window.play.form
    pump(window, *click(form.roll_button.rect.center))
    assert form.rolled and not form.visible and form.rolled_bar.rect.height < 40
    pump(window, *click(form.rolled_bar.rect.center))
    assert not form.rolled and form.visible
