"""Playing through the window, timed (part of `wif bench render`):

- click on a unit -> its reachable hexes drawn, and click on a destination -> the moved
  counter drawn: Barbarossa (seeds 1-3) played by bots to each of its first ``STEPS`` Land
  Movement steps (the USSR's and Germany's impulses, in the order the seed's play gives: the
  table names them, and the figures are also given per moving power), each clicked in a new
  1920x1200 window with its forms, up to ``UNITS`` units moved a step (a unit hemmed in is
  clicked, then the next one); each click's events are handled and the frame drawn (forms
  rebuilt, map outlined, counters redrawn), and the time from the click to the end of that
  frame is taken; p50 / p95 / max, wall-clock and CPU time of this process (on a loaded
  machine the wall-clock also counts the time the other processes had the cores), with
  /proc/loadavg before and after;
- the whole-game GUI autoplay's frames per second: app/guidriver.py plays a whole Barbarossa
  game in a 1024x768 window from the Start New Game form (hot seat), every frame drawn, no
  frame cap (``game=False``, ``wif bench play --no-game``, leaves it out: it takes minutes).
Target (issue 11): p95 <= 50 ms for each click.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

SIZE = (1920, 1200)
UNITS = 25  # units moved in each Land Movement step, at most
SEEDS = (1, 2, 3)  # Barbarossa games whose first land moves are clicked
STEPS = 4  # Land Movement steps clicked in each game, one after the other (the USSR's and Germany's impulses)


def _pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def _stats(times: list[float]) -> dict:
    if not times:
        return {"n": 0}
    return {"n": len(times), "p50_ms": round(statistics.median(times) * 1000, 1),
            "p95_ms": round(_pct(times, 95) * 1000, 1), "max_ms": round(max(times) * 1000, 1)}


def _land_mover(game) -> str | None:
    """The power offered a land move now (None: no Land Movement step)."""
    return next((c.actor for d in game.choices(None).decisions for c in d.commands if c.type == "MoveLandUnit"), None)


def _to_land_movement(game, bots) -> str:
    """Bots play until the next Land Movement step (the moves the bench left of the step it
    clicked are the bots'); the power offered the land moves."""
    from app.bots import Tally, play_pending

    tally = Tally()
    left_over = _land_mover(game) is not None  # the step just clicked: the bots finish it first
    for _ in range(5000):
        power = _land_mover(game)
        if power is None:
            left_over = False
        elif not left_over:
            return power
        if not play_pending(game, bots, tally):
            break
    raise RuntimeError("the bots never reached another Land Movement step")


def clicks(units: int = UNITS, seeds: tuple = SEEDS, steps: int = STEPS) -> dict:
    """The two clicks timed on Barbarossa games of ``seeds``: in each game its first ``steps``
    Land Movement steps (the USSR's and Germany's impulses, the order the seed's play gives), up
    to ``units`` units each; wall-clock and this process's CPU time (what the load of other
    processes does not inflate as much), in all and per moving power."""
    select, move = Times(), Times()
    game_seq, movers = [], []
    by_power: dict[str, tuple[Times, Times]] = {}

    def clicked(power, before):
        mine = by_power.setdefault(power, (Times(), Times()))
        for times, start, own in ((select, before[0], mine[0]), (move, before[1], mine[1])):
            own.cpu += times.cpu[start:]
            own.wall += times.wall[start:]

    for seed in seeds:
        seq, powers_moved = _clicks_in_one_game(seed, units, steps, select, move, clicked)
        game_seq.append(seq)
        movers.append(powers_moved)
    # per moving power: the USSR's unit clicks trace its supply (a rail net of ~2,500 hexes)
    # for the overruns among the destinations, after each move; Germany's trace is ~5x smaller
    return {"size": f"{SIZE[0]}x{SIZE[1]}", "seeds": list(seeds), "select_unit": select.stats(),
            "move_unit": move.stats(), "select_unit_cpu": select.stats(cpu=True), "move_unit_cpu": move.stats(cpu=True),
            "events_after": game_seq, "movers": movers,
            "by_mover": {p: {"select_unit": t[0].stats(), "move_unit": t[1].stats(),
                             "select_unit_cpu": t[0].stats(cpu=True), "move_unit_cpu": t[1].stats(cpu=True)}
                         for p, t in by_power.items()}}


class Times:
    def __init__(self):
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def take(self, action) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - wall)

    def stats(self, cpu: bool = False) -> dict:
        return _stats(self.cpu if cpu else self.wall)


def _clicks_in_one_game(seed: int, units: int, steps: int, select: Times, move: Times, clicked) -> tuple:
    """One game's clicks: ``steps`` Land Movement steps in turn, each in a
    window opened on it (the bots play what lies between); ``clicked(power, before)`` files the
    clicks taken since ``before`` (the two lists' lengths) under that power."""
    from app.bots import Bot
    from kernel.game import Game

    moved = []
    with tempfile.TemporaryDirectory() as tmp:
        game = Game.new("barbarossa", Path(tmp) / "bench.wif", seed=seed)
        bots = {side: Bot("random", i) for i, side in enumerate(sorted(game.state.kernel.sides))}
        try:
            for _step in range(steps):
                power = _to_land_movement(game, bots)
                before = (len(select.cpu), len(move.cpu))
                _clicks_in_one_step(game, units, select, move)
                clicked(power, before)
                moved.append(power)
            return game.state.kernel.seq, moved
        finally:
            game.close()


def _clicks_in_one_step(game, units: int, select: Times, move: Times) -> None:
    import pygame

    from app.guiclicks import events_of, hex_point
    from app.play import GameWindow

    window = GameWindow(game, screen=pygame.Surface(SIZE).convert(), forms=True)
    moves_before = len(move.cpu)
    try:
        window.draw()
        play = window.play
        tried: set = set()  # units clicked: moved, or with no destination to click
        while len(move.cpu) - moves_before < units and len(tried) < 4 * units:
            choice = next((c for c in play.decisions.commands() if c.type == "MoveLandUnit"), None)
            if choice is None:
                break
            if play.fill is None or play.fill.choice is not choice:
                play.fill_in(choice)
                window.draw()
            unit = next((o.value for o in choice.fields[0].all_options()
                         if o.value not in tried and play.map.unit_hex(o.value)), None)
            if unit is None:
                break
            tried.add(unit)
            where = play.map.unit_hex(unit)
            window.primary.center_on(where)
            window.draw()
            for _clicks in range(8):  # a stack: the click picks its next unit until it is ours
                pos = hex_point(window, where)
                select.take(lambda: _click(window, events_of, pos))
                if play.fill.values.get(choice.fields[0].name) == unit:
                    break
            pending = play.fill.pending()
            destinations = [tuple(o.value) for o in pending.all_options()] if pending is not None else []
            target = next((h for h in reversed(destinations) if hex_point(window, h)), None)
            if target is None:
                continue  # hemmed in (an HQ behind the line): the next unit
            move.take(lambda: _click(window, events_of, hex_point(window, target)))
    finally:
        game.listeners.remove(window._on_events)  # the bots play on without this window


def _click(window, events_of, pos) -> None:
    from app.guiclicks import Action

    for event in events_of(Action("click", pos)):
        window.handle(event)
    window.draw()


def whole_game(seed: int = 1) -> dict:
    """The GUI driver plays a whole game from the Start New Game form; frames per second."""
    import os

    import pygame

    from app.guidriver import GuiDriver
    from app.scenes import NewGameScene, SceneStack

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["WIF_CONFIG_DIR"] = str(Path(tmp) / "config")
        stack = SceneStack()
        stack.push(NewGameScene("barbarossa", lambda scenario: Path(tmp) / f"{scenario}.wif"))
        driver = GuiDriver(seed=seed)
        started = time.perf_counter()
        stack.run(each_frame=driver, fps=None)
        seconds = time.perf_counter() - started
        pygame.display.set_mode((64, 64))
    f = driver.figures
    return {"frames": f.frames, "seconds": round(seconds, 1), "fps": round(f.frames / seconds, 1),
            "clicks": f.actions, "commands": sum(f.commands.values()), "victory_seen": f.victory_seen}


def _loadavg() -> str:
    with open("/proc/loadavg") as f:
        return f.read().strip()


def run(game: bool = True, **_options) -> dict:
    """``wif bench play`` (``--no-game``: the clicks only), or the end of ``wif bench render``."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    pygame.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((64, 64))
    out = {"loadavg_before": _loadavg()}
    out["clicks"] = clicks()
    out["loadavg_after"] = _loadavg()
    if game:
        out["whole_game"] = whole_game()
    return out


def _line(s: dict) -> str:
    return f"p50 {s.get('p50_ms')} / p95 {s.get('p95_ms')} / max {s.get('max_ms')} ms"


def print_table(result: dict) -> None:
    c = result["clicks"]
    movers = ", ".join(f"seed {seed}: {' then '.join(powers)}" for seed, powers in zip(c.get("seeds", []), c.get("movers", [])))
    print(f"clicks at Barbarossa's first land movements ({movers}), {c['size']} window with its forms:")
    for name, what in (("select_unit", "click on a unit -> reachable hexes drawn"),
                       ("move_unit", "click on a destination -> moved counter drawn")):
        print(f"  {what}: n {c.get(name, {}).get('n')}")
        print(f"    all powers   wall {_line(c.get(name, {}))};  cpu {_line(c.get(name + '_cpu', {}))}")
        for power, figures in c.get("by_mover", {}).items():
            print(f"    {power:<12} wall {_line(figures[name])};  cpu {_line(figures[name + '_cpu'])} "
                  f"(n {figures[name].get('n')})")
    g = result.get("whole_game")
    if g:
        print(f"whole-game GUI autoplay: {g['frames']} frames in {g['seconds']} s = {g['fps']} frames/s "
              f"({g['clicks']} inputs, {g['commands']} commands, Victory form seen: {g['victory_seen']})")
    print(f"/proc/loadavg before the clicks: {result.get('loadavg_before')}; after: {result.get('loadavg_after')}")
    print("target: p95 <= 50 ms for each click")
