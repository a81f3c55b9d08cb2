"""What tests write again and again: counters for the lab scenario, submitting a command that
must be accepted or refused, and playing on by the choices the game offers.

``import helpers`` works from any test (tests/ is on sys.path, see conftest.py)."""

from __future__ import annotations

import random
from functools import cache
from typing import Callable, Iterable

from kernel.game import SOLO

# ---------------------------------------------------------------- counters for the lab scenario


def unit(uid: str, power: str = "germany", hex_=(204, 52), type_: str = "inf", combat: int = 4, move: int = 4,
         size: str = "army", branch: str = "land", **extra) -> dict:
    """A land unit as the lab scenario's ``units`` option takes it; ``factors`` in ``extra``
    are added to combat and move, anything else (``name``, ``face_up``…) is passed on."""
    factors = {"combat": combat, "move": move, **extra.pop("factors", {})}
    return {"id": uid, "power": power, "branch": branch, "type": type_, "size": size, "name": extra.pop("name", uid),
            "factors": factors, "hex": list(hex_) if hex_ is not None else None, **extra}


def air_unit(uid: str, power: str = "germany", type_: str = "ftr", hex_=(204, 52), air: int = 1, tactical: int = 0,
             range_: int = 4, **extra) -> dict:
    """An air unit for the lab scenario."""
    factors = {"air": air, "tactical": tactical, "range": range_, **extra.pop("factors", {})}
    return {"id": uid, "power": power, "branch": "air", "type": type_, "name": extra.pop("name", uid),
            "factors": factors, "hex": list(hex_) if hex_ is not None else None, **extra}


def ship(uid: str, power: str = "germany", type_: str = "ca", hex_=(200, 50), attack: float = 3, defense: float = 3,
         aa: float = 1, speed: float = 4, range_: float = 4, **extra) -> dict:
    """A naval unit for the lab scenario (plugins/rules/naval/README.md): ``type_`` one of cv, bb,
    ca, cl, dd, sub, trs, amph (a convoy: ``type_="convoy", factors={"points": n}``); default
    hex Konigsberg."""
    factors = {"attack": attack, "defense": defense, "aa": aa, "speed": speed, "range": range_}
    if type_ == "convoy":
        factors = {"speed": speed, "range": range_}
    factors.update(extra.pop("factors", {}))
    return {"id": uid, "power": power, "branch": "naval", "type": type_, "name": extra.pop("name", uid),
            "factors": factors, "hex": list(hex_) if hex_ is not None else None, **extra}


# ---------------------------------------------------------------- the rig (lab games; docs/MODDING.md)
@cache
def _available():
    from kernel.plugins import discover

    return discover().plugins


def rig_plugins(scenario: str, extra_plugins: Iterable[str] = ()) -> list[str]:
    """The rig plugins a lab game of ``scenario`` with ``extra_plugins`` loads: ``rig``, and
    ``rig-turn`` when the turn plugin is in play (it would bring turn's rules otherwise)."""
    from kernel.plugins import resolve

    ids = {i.id for i in resolve([scenario, *extra_plugins], _available())}
    return ["rig", "rig-turn"] if "turn" in ids else ["rig"]


def lab_game(path, scenario: str = "lab", seed: int = 1, options: dict | None = None,
             extra_plugins: Iterable[str] = (), **kw):
    """A new lab game (``Game.new(..., lab=True)``) of any scenario with the rig loaded."""
    from kernel.game import Game

    extra = list(extra_plugins)
    return Game.new(scenario, path, seed=seed, options=options, lab=True,
                    extra_plugins=extra + [p for p in rig_plugins(scenario, extra) if p not in extra], **kw)


def rig(game, type_: str, /, **fields) -> list:
    """Submit the rig command ``type_`` (``"RigUnit"``, ``"RigWeather"``…) with ``fields``, as the
    game's first power unless ``actor`` is given; it must be accepted.  Its events."""
    fields.setdefault("actor", game.state.kernel.powers()[0])
    return ok(game, {"type": type_, **fields})


def place(game, *counters: dict) -> list:
    """Put counters (``unit(...)``/``air_unit(...)`` dicts; any factors, halves included) in play,
    or move, re-face and re-factor those already in play."""
    return [e for c in counters for e in rig(game, "RigUnit", unit=c)]


def dice(game, *results: int, then_ordinary: bool = False) -> list:
    """The next dice of the game are ``results``, in order (an error naming the roll when they
    run out, unless ``then_ordinary``); ``dice(game, None)`` goes back to the ordinary dice."""
    return rig(game, "RigDice", results=None if results == (None,) else list(results), then_ordinary=then_ordinary)


def go_to(game, step: str, **fields) -> list:
    """Go to ``step`` (``turn``, ``impulse``, ``active_side`` too when given) and run from there."""
    return rig(game, "RigStep", step=step, **fields)


def control(game, hex_, power: str | None) -> list:
    return rig(game, "RigHexControl", hex=list(hex_), power=power)


def weather(game, zone, weather_: str) -> list:
    return rig(game, "RigWeather", zone=str(zone), weather=weather_)


def initiative(game, side: str | None = None, track: int | None = None) -> list:
    return rig(game, "RigInitiative", side=side, track=track)


def calendar(game, year: int | None = None, bimonth: str | None = None, last_turn: int | None = None) -> list:
    """RigCalendar: the current turn's date, and/or the scenario's last turn."""
    return rig(game, "RigCalendar", year=year, bimonth=bimonth, last_turn=last_turn)


def event(game, type_: str, /, **data) -> list:
    """RigEvent: record a plugin's event ``type_`` with ``data`` as it is (a situation no other
    rig command builds)."""
    return rig(game, "RigEvent", event=type_, data=data)


# ---------------------------------------------------------------- submitting
def player_for(game, actor: str | None) -> str:
    """The player who answers for ``actor`` (a power or a side): hot seat games have several."""
    k = game.state.kernel
    if actor in k.sides:
        actor = k.sides[actor][0] if k.sides[actor] else actor
    return k.controllers.get(actor, SOLO)


def ok(game, cmd: dict | None = None, /, **fields) -> list:
    """Submit a command (a dict, or its fields as keywords) that must be accepted; its events."""
    cmd = dict(cmd or {}, **fields)
    out = game.submit(cmd, player_for(game, cmd.get("actor")))
    assert out.accepted, f"{cmd} was refused: {out.reason}"
    return out.events


def refused(game, cmd: dict | None = None, /, *words: str, match_case: bool = False, **fields) -> str:
    """Submit a command that must be refused, with nothing appended (to the state or the
    store); its reason, which must contain each of ``words`` (case-insensitive unless
    ``match_case``)."""
    cmd = dict(cmd or {}, **fields)
    before = game.state.kernel.seq
    out = game.submit(cmd, player_for(game, cmd.get("actor")))
    assert not out.accepted, f"{cmd} was accepted"
    for word in words:
        if match_case:
            assert word in out.reason, out.reason
        else:
            assert word.lower() in out.reason.lower(), out.reason
    assert game.state.kernel.seq == before  # nothing appended
    assert len(game.history()) == before
    return out.reason


def types(records) -> list[str]:
    return [r.type for r in records]


def finish(game, actor: str | None = None) -> list:
    """FinishStep for ``actor`` (default: the power answering for the first pending decider)."""
    actor = actor or game.state.kernel.acting_power()
    return ok(game, {"type": "FinishStep", "actor": actor})


# ---------------------------------------------------------------- playing by the choices
def offered(game, type_: str | None = None, player: str | None = None) -> list:
    """The CommandChoices the game offers now (of ``type_`` only, if given)."""
    return [c for c in game.choices(player).commands() if type_ is None or c.type == type_]


def play_by_choices(game, rng: random.Random | int = 0, max_commands: int = 300,
                    until: Callable[[object], bool] | None = None,
                    prefer: Iterable[str] = (), finish_weight: float = 0.3) -> int:
    """Play on by sampling what the game offers (never a command of our own making): types in
    ``prefer`` first, FinishStep with probability ``finish_weight`` when something else is
    offered.  Stops when ``until(game)`` is true, the game is over or waits for nobody, or
    after ``max_commands``.  Every sampled command must be accepted.  Returns how many were
    submitted."""
    rng = rng if isinstance(rng, random.Random) else random.Random(rng)
    prefer = list(prefer)
    done = attempts = 0
    while done < max_commands and attempts < 4 * max_commands:
        attempts += 1
        if until is not None and until(game):
            break
        choices = game.choices(None)
        commands = [c for c in choices.commands() if c.source == "rules" and not c.type.startswith("Rig")]
        if choices.finished or not commands:
            break
        finishing = [c for c in commands if c.type == "FinishStep"]
        others = [c for c in commands if c.type != "FinishStep"]
        preferred = [c for c in others if c.type in prefer]
        if preferred:
            pool = preferred
        elif others and (not finishing or rng.random() > finish_weight):
            pool = others
        else:
            pool = finishing or others
        cmd = rng.choice(pool).sample(rng)
        if cmd is None:
            continue
        ok(game, cmd)
        done += 1
    return done


def play_land_turns(game, turns: int, towards: dict[str, int] | None = None, max_commands: int = 300) -> None:
    """Play until turn ``turns`` by what the game offers: the first side offered moves first,
    each power chooses a land action and moves each of its units once a turn-impulse, to the
    offered destination farthest ``towards`` (power -> +1 east, -1 west; default: nearest)."""
    towards = towards or {}
    moved: set[tuple] = set()
    for _ in range(max_commands):
        k = game.state.kernel
        if k.sequence.finished or not k.sequence.pending or k.turn >= turns:
            return
        offer = {c.type: c for c in offered(game)}
        if "ChooseFirstMover" in offer:
            choice = offer["ChooseFirstMover"]
            ok(game, {**choice.base(), "side": choice.fields[0].values()[0]})
            continue
        if "ChooseAction" in offer:
            choice = offer["ChooseAction"]
            values = choice.fields[0].values()
            ok(game, {**choice.base(), "action": "land" if "land" in values else values[0]})
            continue
        move = offer.get("MoveLandUnit")
        fresh = [o for o in (move.fields[0].all_options() if move else []) if (k.turn, k.impulse, o.value) not in moved]
        if fresh:
            unit_option = fresh[0]
            moved.add((k.turn, k.impulse, unit_option.value))
            destinations = unit_option.next_fields()[0].all_options()
            if destinations:
                way = towards.get(move.actor, 0)
                to = max(destinations, key=lambda o: way * o.value[0]).value if way else destinations[0].value
                ok(game, {**move.base(), "unit": unit_option.value, "to": to})
            continue
        finish(game, offer["FinishStep"].actor if "FinishStep" in offer else None)


# ---------------------------------------------------------------- a whole game through the window
def play_in_window(folder, scenario: str, game_seed: int, bot_seed: int, **driver_options):
    """The real program (app/scenes.py's scene stack, SDL_VIDEODRIVER=dummy) opened on the Start
    New Game form with another scenario and solitaire set, played to the Victory form by
    app/guidriver.py (it must choose ``scenario`` and hot seat by clicks), the game's dice seeded
    by ``game_seed``.  Returns (driver, save path); ``driver.window_sizes`` holds each
    (size, layout name) the game window had."""
    import pygame
    import pytest

    from app import newgame
    from app.guidriver import GuiDriver
    from app.scenes import NewGameScene, SceneStack

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WIF_CONFIG_DIR", str(folder / "config"))
        ask = newgame.ask_optional_rules

        def seeded(hook, *args, **kwargs):
            if hook == "new_game_with_rules":
                kwargs["seed"] = game_seed  # the Start New Game form draws a seed otherwise
            return ask(hook, *args, **kwargs)

        mp.setattr(newgame, "ask_optional_rules", seeded)
        pygame.display.init()
        pygame.font.init()
        try:
            stack = SceneStack()
            stack.push(NewGameScene("skirmish", lambda name: folder / f"{name}.wif"))
            driver = GuiDriver(policy="random", seed=bot_seed, scenario=scenario, **driver_options)
            driver.window_sizes = set()

            def each_frame(stack):
                window = getattr(stack.top, "window", None)
                if window is not None:
                    driver.window_sizes.add((window.screen.get_size(), window.layout.name))
                driver(stack)

            stack.run(each_frame=each_frame, fps=None)
        finally:
            pygame.quit()
    return driver, folder / f"{scenario}.wif"


def events_in_save(path) -> dict[str, int]:
    """How many events of each type a save's log holds."""
    from kernel.game import Game

    game = Game.open(path)
    try:
        counts: dict[str, int] = {}
        for record in game.history(1):
            counts[record.type] = counts.get(record.type, 0) + 1
        return counts
    finally:
        game.close()


# The odds and supply of an overrun come from rules after land, through the hooks land publishes
# (land/hooks.py).  Land's own tests answer them with this stand-in plugin: odds by plain combat
# factors; supply refused for the units the game's "out_of_supply" option names, and a unit in
# "supply_not_asked" raises if its supply is asked at all.  Add it with
# ``plugin_dir.add("overrun-stand-in", OVERRUN_STAND_IN, requires=["land"])``.
OVERRUN_STAND_IN = """
from kernel.hookspecs import hookimpl


@hookimpl
def overrun_odds(state, unit, hex_, min_odds):
    attack = unit.factors.get("combat", 0)
    defence = sum(u.factors.get("combat", 0) for u in state["units"].in_hex(hex_)
                  if u.branch == "land" and u.power != unit.power)
    ratio = attack / defence if defence else float(min_odds)
    return {"enough": ratio >= min_odds, "ratio": float(int(ratio)), "odds": f"{attack}:{defence}"}


@hookimpl
def overrun_refusal(state, unit, hex_):
    if unit.id in state.kernel.options.get("supply_not_asked", []):
        raise RuntimeError(f"supply asked for {unit.id}")
    if unit.id in state.kernel.options.get("out_of_supply", []):
        return f"Overrun: {unit.name or unit.id} is out of supply (test stand-in for the supply rules)"
    return None
"""
