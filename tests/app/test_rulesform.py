"""The Optional Rules form: in play (right-click toggles, as a command) and before a game."""

import pygame
import pytest

from app.forms import Gui
from app.rulesform import NOT_IN_GAME, new_game_rules_form, play_rules_form
from plugins.optional.framework.presets import new_game


@pytest.fixture
def gui():
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1024, 768))
    g = Gui(screen.get_size())
    yield g, screen
    pygame.quit()


def pump(g, screen, events=()):
    for event in events:
        pygame.event.post(event)
    for _ in range(2):  # pygame_gui answers a press with a second event
        for event in pygame.event.get():
            g.process(event)
        g.update(0.05)
        g.draw(screen)


def row(form, name):
    return next(r for r in form.shown if r.text.split("  ", 1)[1].startswith(name))


def right_click(form, name):
    pos = row(form, name).elements[1].get_abs_rect().center  # on the rule's name
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=3, pos=pos)


def left_click(element):
    pos = element.get_abs_rect().center
    return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos),
            pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos)]


def test_in_play_right_click_toggles_a_rule_and_the_log_records_it(gui, tmp_path):
    g, screen = gui
    game = new_game("skirmish", tmp_path / "g.wif", seed=1, on=["hq-support"])
    form = play_rules_form(g, game, player="solo", actor="red")
    pump(g, screen)
    form.show("land")
    pump(g, screen)
    labels = [t for t, _ in form.items]
    assert "ON  HQ support" in labels
    assert any(t.endswith(NOT_IN_GAME) for t in labels)
    event = right_click(form, "HQ support")
    assert form.handle(event)
    assert "HQ support is now OFF" in form.message.html_text
    toggled = [e for e in game.history() if e.type == "OptionalRuleToggled"]
    assert toggled and toggled[-1].data == {"rule": "hq-support", "on": False}
    assert "OFF  HQ support" in [t for t, _ in form.items]  # relabelled OFF
    # a rule that may not be toggled now: refused, the reason shown, nothing logged
    form.show("additional-units")
    pump(g, screen)
    before = game.state.kernel.seq
    assert form.handle(right_click(form, "Divisions"))
    assert game.state.kernel.seq == before
    assert "cannot be switched" in form.message.html_text
    game.close()


def test_before_a_game_the_tabs_edit_the_chosen_rules_with_prerequisites(gui):
    g, screen = gui
    chosen: list[str] = []
    changes = []
    form = new_game_rules_form(g, chosen, changes.append)
    pump(g, screen)
    form.show("additional-units")
    reply = form.toggle("artillery")
    assert "Divisions" in reply and chosen == []  # its prerequisite is not ON
    form.toggle("divisions")
    form.toggle("artillery")
    assert chosen == ["divisions", "artillery"] and changes
    form.show("additional-units")
    assert "ON  Artillery" in [t for t, _ in form.items]


def test_ctrl_o_in_the_game_window_opens_the_rules_and_a_right_click_toggles(tmp_path, monkeypatch):
    from app.play import GameWindow

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = new_game("skirmish", tmp_path / "s.wif", seed=1, on=["hq-support"])
    try:
        window = GameWindow(game, forms=True)
        window.draw()
        key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_o, mod=pygame.KMOD_CTRL, unicode="o", scancode=18)
        for event in (key,):
            window.handle(event)
        window.draw()
        form = window.rules_form
        assert form is not None and form.in_play
        form.show("land")
        window.draw()
        pygame.event.post(right_click(form, "HQ support"))
        for event in pygame.event.get():
            window.handle(event)
        assert [e.data for e in game.history() if e.type == "OptionalRuleToggled"] == [{"rule": "hq-support", "on": False}], form.message.html_text
    finally:
        pygame.quit()
        game.close()


def test_start_new_game_rule_tabs_decide_the_rules_the_game_starts_with(tmp_path, monkeypatch):
    from app.newgame import NewGameForm
    from plugins.optional.framework import is_on

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    try:
        screen = pygame.display.set_mode((1024, 768))
        g = Gui(screen.get_size())
        form = NewGameForm(g, "skirmish", lambda scenario: tmp_path / f"{scenario}.wif")
        form.open_rules()
        form.rules_form.toggle("divisions")
        form.rules_form.toggle("artillery")
        form.start()
        assert form.done and form.choice.kind == "game"
        game = form.choice.game
        assert is_on(game.state, "divisions") and is_on(game.state, "artillery")
        game.close()
    finally:
        pygame.quit()


def test_before_a_game_the_chosen_rules_save_as_the_personal_set_and_a_named_set(gui, tmp_path, monkeypatch):
    from plugins.optional.framework.presets import list_rule_sets, load_rule_set

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    g, screen = gui
    chosen = ["divisions"]
    form = new_game_rules_form(g, chosen, lambda c: None)
    pump(g, screen)
    save_button = next(b for b in form.window.owned if getattr(b, "text", "") == "Save as Personal Set")
    pump(g, screen, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=save_button.rect.center),
                     pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=save_button.rect.center)])
    assert load_rule_set("personal") == ["divisions"]
    assert "Personal Set" in form.message.html_text
    save_as = next(b for b in form.window.owned if getattr(b, "text", "") == "Save As...")
    pump(g, screen, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=save_as.rect.center),
                     pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=save_as.rect.center)])
    dialog = g.modal[-1]
    dialog.entry.set_text("eastern-front")
    pump(g, screen, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=40)])
    assert "eastern-front" in list_rule_sets() and load_rule_set("eastern-front") == ["divisions"]


def test_the_rules_list_shows_on_or_off_and_the_description_of_every_rule(gui, tmp_path, monkeypatch):
    """Issue 11, item 12: the Start New Game form's rules list (its "Rules..." button) shows
    each rule with ON/OFF and its description; the ON/OFF button, clicked with real mouse
    events, switches it; a click on the name shows the whole description; Start begins the
    game with the rules switched ON."""
    from app.newgame import NewGameForm
    from plugins.optional.framework import is_on

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    g, screen = gui
    start = NewGameForm(g, "skirmish", lambda scenario: tmp_path / f"{scenario}.wif")
    pump(g, screen)
    rules_button = next(e for e in start.window.get_container().elements if getattr(e, "text", "") == "Rules...")
    pump(g, screen, left_click(rules_button))
    form = start.rules_form
    assert form is not None and not form.in_play
    form.show("additional-units")
    pump(g, screen)
    divisions, artillery = row(form, "Divisions"), row(form, "Artillery")
    assert divisions.switch.text == "OFF" and artillery.switch.text == "OFF"
    described = {r["id"]: r["description"] for r in form.rows()}
    for shown in form.shown:  # the description's first words under every rule's name
        first = shown.elements[2].text.removesuffix(" ...")
        assert first and described[shown.id].startswith(first), shown.text
    pump(g, screen, left_click(artillery.switch))  # its prerequisite is OFF: refused, said why
    assert row(form, "Artillery").switch.text == "OFF" and "Divisions" in form.message.html_text
    pump(g, screen, left_click(row(form, "Divisions").switch))
    pump(g, screen, left_click(row(form, "Artillery").switch))
    assert row(form, "Artillery").switch.text == "ON" and "Artillery ON" in form.message.html_text
    pump(g, screen, left_click(row(form, "Divisions").elements[1]))
    assert "Divisions (ON): Adds division-sized land units" in form.message.html_text
    assert "Prerequisite of Artillery" in form.message.html_text  # the whole description
    close = next(b for b in form.window.owned if getattr(b, "text", "") == "Close")
    pump(g, screen, left_click(close))
    assert form.closed
    pump(g, screen, left_click(start.start_button))
    assert start.done and start.choice.kind == "game"
    game = start.choice.game
    assert is_on(game.state, "divisions") and is_on(game.state, "artillery")
    game.close()


def test_before_a_barbarossa_game_kamikaze_says_it_does_not_apply_and_stays_off(gui):
    """Kamikaze Form: "The Japanese player can declare kamikaze attacks": in Barbarossa (no
    Japan) the Start New Game tabs show why the rule does nothing there and keep it OFF."""
    g, screen = gui
    chosen: list[str] = []
    form = new_game_rules_form(g, chosen, lambda c: None, scenario="barbarossa")
    pump(g, screen)
    reply = form.toggle("kamikaze")
    assert "stays OFF" in reply and "japan" in reply.lower() and chosen == []
    row = next(r for r in form.rows() if r["id"] == "kamikaze")
    assert row["description"].startswith("Does not apply here")
    guadalcanal: list[str] = []
    new_game_rules_form(g, guadalcanal, lambda c: None, scenario="guadalcanal").toggle("kamikaze")
    assert guadalcanal == ["kamikaze"]  # Japan is in play there
