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


# ---------------------------------------------------------------- the naval combat forms
NAVAL_COMBAT_COMMANDS = ("SelectNavalCombatArea", "IncludeSeaBoxSections", "SpendSurprise", "ChooseNavalCombatType",
                         "ChooseNavalTarget", "NavalSideAbort", "CommitSubs")


def test_naval_combat_decisions_through_the_play_form(tmp_path, monkeypatch):
    """Naval Combat, Naval Combat Included Units and Naval Combat Type, Surprise Points: a
    German cruiser sails into the Baltic where a Soviet cruiser is at sea in section 1; the
    searches (dice 3 and 1) find only the Soviet section, so the USSR must choose the sections
    it includes, then the rounds are fought.  Each decision is made by the clicks the GUI driver
    (app/guidriver.py) finds on the Play form for a command chosen from ``Game.choices``."""
    import random

    from app.guidriver import GuiDriver
    from helpers import dice, ok

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    konigsberg = world_map().port("Konigsberg").hex
    leningrad = world_map().port("Leningrad").hex
    g = lab_game(tmp_path / "g.wif", options={"units": [ship("g1", attack=6, defense=4),
                                                        ship("r1", power="ussr", hex_=leningrad, attack=2)],
                                              "actions": {"germany": "naval"},
                                              "start_at": "turn.impulse.naval.naval-movement"},
                 extra_plugins=["naval"])
    try:
        rig(g, "RigShipsAtSea", units=["r1"], area="BA", section=1)
        ok(g, type="MoveNavalGroup", actor="germany", origin=f"{konigsberg[0]},{konigsberg[1]}", to="BA", section=2,
           units=["g1"])
        if g.state.kernel.sequence.current == "wif.digressions.naval-interception.offer-interception":
            ok(g, type="DeclineIntercept", actor="ussr")
        dice(g, 3, 1, then_ordinary=True)
        ok(g, type="FinishStep", actor="germany")
        win = GameWindow(g, forms=True)
        win.draw()
        driver = GuiDriver(seed=1)
        rng = random.Random(3)
        made: list[str] = []
        for _ in range(30):
            if "naval" not in (g.state.kernel.sequence.current or ""):
                break
            offered = [c for c in g.choices().commands() if not c.type.startswith("Rig")]
            wanted = [c for c in offered if c.type in NAVAL_COMBAT_COMMANDS] or offered
            command = wanted[0].sample(rng)
            before = g.state.kernel.seq
            for _ in range(60):  # the clicks that make it
                win.play.refresh()
                driver.scrolling = [win.play.body.area] if win.play.body is not None else []
                post(driver.make(win, command))
                pump(win)
                if g.state.kernel.seq != before:
                    break
            assert g.state.kernel.seq != before, f"{command} was not made through the Play form"
            made.append(command["type"])
        print(f"\nnaval combat through the Play form: {made}")
        assert {"SelectNavalCombatArea", "IncludeSeaBoxSections", "ChooseNavalCombatType"} <= set(made), made
        assert [e for e in g.store.records() if e.type == "NavalCombatEnded"]
    finally:
        pygame.quit()
        g.close()


def make_by_clicks(win, command: dict) -> None:
    """``command`` made by the clicks the GUI driver finds on the Play form and the map."""
    from app.guidriver import GuiDriver

    driver, game = GuiDriver(seed=1), win.game
    before = game.state.kernel.seq
    for _ in range(80):
        win.play.refresh()
        driver.scrolling = [win.play.body.area] if win.play.body is not None else []
        post(driver.make(win, command))
        pump(win)
        if game.state.kernel.seq != before:
            return
    raise AssertionError(f"{command} was not made through the window")


def test_embark_debark_units_and_invasion_through_the_window(tmp_path, monkeypatch):
    """Embark/Debark Units, Unload Land Units and Invasion (seeds): a German infantry corps
    embarks on a transport in Konigsberg, sails into the Baltic (section 0), and lands: once on
    a friendly coast (Unload Land Units), once, in a second game, on the Soviet coast
    (Invasion, a forced land attack)."""
    from helpers import ok, unit
    from plugins.rules.naval.naval_transport import coastal_hexes

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    m = world_map()
    konigsberg = m.port("Konigsberg").hex
    german_coast = min(h for h in coastal_hexes("BA") if m.country_code(h) == "GE" and h != konigsberg
                       and m.terrain(h) == "clear")
    soviet_coast = min(h for h in coastal_hexes("BA") if m.country_code(h) == "SU" and m.city_at(h) is None)
    games = []
    try:
        for landing, step, hex_ in (("DebarkUnit", "unload-land-units", german_coast),
                                    ("Invade", "invasion", soviet_coast)):
            g = lab_game(tmp_path / f"{landing}.wif", options={
                "units": [ship("trs", type_="trs", attack=0, defense=1, aa=0, speed=4, range_=4),
                          unit("inf", hex_=konigsberg)],
                "actions": {"germany": "combined"}, "start_at": "turn.impulse.naval.naval-movement"},
                extra_plugins=["naval"])
            games.append(g)
            win = GameWindow(g, forms=True)
            win.draw()
            make_by_clicks(win, {"type": "EmbarkUnits", "actor": "germany", "ship": "trs", "units": ["inf"]})
            assert g.state["naval"].aboard == {"trs": ["inf"]}
            ok(g, type="MoveNavalGroup", actor="germany", origin=f"{konigsberg[0]},{konigsberg[1]}", to="BA",
               section=0, units=["trs"])
            rig(g, "RigStep", step=f"turn.impulse.land.movement.{step}")
            make_by_clicks(win, {"type": landing, "actor": "germany", "ship": "trs", "unit": "inf", "hex": list(hex_)})
            if landing == "DebarkUnit":
                assert g.state["units"].units["inf"].hex == german_coast
            else:
                combat = g.state["combat"].combats[f"{soviet_coast[0]},{soviet_coast[1]}"]
                assert combat.forced == "invasion" and combat.attackers == ["inf"]
    finally:
        pygame.quit()
        for g in games:
            g.close()
