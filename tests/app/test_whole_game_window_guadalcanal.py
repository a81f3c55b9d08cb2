"""A whole game of Guadalcanal through the window (issue 14: "The whole-game window test plays
Guadalcanal too"): the real program (the scene stack of app/scenes.py, SDL_VIDEODRIVER=dummy)
opens on the Start New Game form; Guadalcanal and hot seat are chosen by clicks, and both
sides play its 5 turns to the Victory form through app/guidriver.py, which only posts mouse and
keyboard events (it reads ``Game.choices`` through a bot to decide what to click, never to
submit).  The naval decisions are made on the Play form and the map as a player makes them.

It takes minutes (seeds 4/4: 9685 frames, 2800 inputs, about 6 min at load 7 on 2 cores; 220 s
quiet), more than the issue's two minutes for the default suite, so it carries the marker
``long_game`` besides ``whole_game``: the default run leaves it out, and the README's test command
(``tools/dev.py test``, which .ci/run calls) runs it after the default suite.  The seeds
are picked for a game that meets every naval decision below; they change when the bots' or the
rules' choices change the game (5/5 until the random bot kept Japan's convoys at sea, and then
met no invasion; 3/3 until the 16.4 naval set-up, 1/1 until carrier planes rebased onto
carriers, and 4/4 until carrier planes escorted and intercepted in every air mission, each then
meeting no invasion; 8/8 met every kind at 15d4794: 6772 frames, 2462 inputs, 814 commands).  A sea box over a counter, hexes under the Play form and long forms of
destinations have tests of their own (test_guidriver_sea_boxes.py, test_guidriver.py)."""

from __future__ import annotations

import pytest

import helpers
from app import cli
from kernel.game import Game

pytestmark = [pytest.mark.whole_game, pytest.mark.long_game]

GAME_SEED = 8
BOT_SEED = 8

# The war at sea's decisions the driver makes through the forms and the map in this game (seeds
# 4/4 make each of them, one invasion among them), and the event each leaves in the log
# (seeds: Naval Movement, Embark/Debark Units, Invasion, Naval Air, Select Sea Area for Naval
# Combat, Return To Base, Stay at Sea).  A naval combat's included units, type and aborts are
# made by clicks in tests/app/test_naval_forms.py.
KINDS = {
    "naval move": ("MoveNavalGroup", "NavalGroupMoved"),
    "embark": ("EmbarkUnits", "UnitsLoaded"),
    "invasion": ("Invade", "UnitsUnloaded"),
    "naval air": ("FlyToSeaArea", "AirUnitsFlewToSea"),
    "naval combat area": ("SelectNavalCombatArea", "NavalCombatBegan"),
    "naval return to base": ("ReturnNavalToBase", "NavalGroupMoved"),
    "stay at sea": ("StayAtSea", "NavalGroupMoved"),
}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Play the game once for the module: (driver, save path)."""
    driver, path = helpers.play_in_window(tmp_path_factory.mktemp("whole-game-guadalcanal"), "guadalcanal",
                                          GAME_SEED, BOT_SEED)
    f = driver.figures
    print(f"\nGuadalcanal through the window: {f.frames} frames, {f.actions} inputs, {sum(f.commands.values())} "
          f"commands in {f.seconds:.0f} s; {f.commands}")
    return driver, path


def test_guadalcanal_from_start_new_game_to_the_victory_form_by_clicks(played):
    driver, path = played
    assert driver.figures.victory_seen, "the Victory form was not on screen at the end"
    game = Game.open(path)
    try:
        k = game.state.kernel
        assert k.sequence.finished and k.scenario == "guadalcanal" and k.options["mode"] == "hotseat"
    finally:
        game.close()
    assert cli.main(["verify", str(path)]) == 0


def test_the_game_was_played_in_a_1024x768_window(played):
    driver, _path = played
    assert {size for size, _layout in driver.window_sizes} == {(1024, 768)}, driver.window_sizes


def test_the_move_first_decision_was_offered_once_and_made_by_clicks(played):
    """The Allies are the USA and the Commonwealth: their Move First Decision is one offer
    (plugins/rules/turn/initiative.py), made through the form each turn."""
    driver, path = played
    game = Game.open(path)
    try:
        chosen = [r for r in game.history(1) if r.type == "FirstSideChosen"]
    finally:
        game.close()
    assert len(chosen) == 5, chosen  # one a turn
    assert driver.figures.commands.get("ChooseFirstMover", 0) == len(chosen)


def test_the_naval_decisions_were_made_by_clicks(played):
    driver, path = played
    in_log = helpers.events_in_save(path)
    made = driver.figures.commands
    missing = {kind: pair for kind, pair in KINDS.items() if not made.get(pair[0]) or not in_log.get(pair[1])}
    assert not missing, f"naval decisions not made through the window: {missing}; made: {made}"
