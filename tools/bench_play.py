"""Playing through the window, timed (part of `wif bench render`):

- click on a unit -> its reachable hexes drawn, and click on a destination -> the moved
  counter drawn: Barbarossa (seeds 1-3) played by bots to the first Land Movement step (whose
  power that is depends on the seed and on the rules and bots of the day: the table names it for
  each seed, and the figures are also given per moving power), a 1920x1200 window with its
  forms; each click's events are handled and the frame
  drawn (forms rebuilt, map outlined, counters redrawn), and the time from the click to the
  end of that frame is taken, for up to ``units`` units a game; p50 / p95 / max, wall-clock
  and CPU time of this process (on a loaded machine the wall-clock also counts the time the
  other processes had the cores);
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
UNITS = 25
SEEDS = (1, 2, 3)  # Barbarossa games whose first Axis land moves are clicked


def _pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def _stats(times: list[float]) -> dict:
    if not times:
        return {"n": 0}
    return {"n": len(times), "p50_ms": round(statistics.median(times) * 1000, 1),
            "p95_ms": round(_pct(times, 95) * 1000, 1), "max_ms": round(max(times) * 1000, 1)}


def _to_land_movement(game) -> None:
    """Bots play until the Axis may move a land unit (the first Land Movement step)."""
    from app.bots import Bot, Tally, play_pending

    bots = {side: Bot("random", i) for i, side in enumerate(sorted(game.state.kernel.sides))}
    tally = Tally()
    for _ in range(3000):
        offered = {c.type for d in game.choices(None).decisions for c in d.commands}
        if "MoveLandUnit" in offered:
            return
        if not play_pending(game, bots, tally):
            break
    raise RuntimeError("the bots never reached a Land Movement step")


def clicks(units: int = UNITS, seeds: tuple = SEEDS) -> dict:
    """The two clicks timed on Barbarossa games of ``seeds`` (each ends when the Axis has no
    land move left: ~10 a game), wall-clock and this process's CPU time (what the load of
    other processes does not inflate as much)."""
    select, move = Times(), Times()
    game_seq, movers = [], []
    by_power: dict[str, tuple[Times, Times]] = {}
    for seed in seeds:
        before = (len(select.cpu), len(move.cpu))
        seq, power = _clicks_in_one_game(seed, units, select, move)
        game_seq.append(seq)
        movers.append(power)
        mine = by_power.setdefault(power, (Times(), Times()))
        for times, start, own in ((select, before[0], mine[0]), (move, before[1], mine[1])):
            own.cpu += times.cpu[start:]
            own.wall += times.wall[start:]
    # per moving power: the USSR's unit clicks trace its supply (a rail net of ~2,500 hexes)
    # for the overruns among the destinations, after each move; Germany's trace is ~5x smaller
    return {"size": f"{SIZE[0]}x{SIZE[1]}", "seeds": list(seeds), "select_unit": select.stats(),
            "move_unit": move.stats(), "select_unit_cpu": select.stats(cpu=True), "move_unit_cpu": move.stats(cpu=True),
            "events_after": game_seq, "movers": movers,
            "cpu_by_mover": {p: {"select_unit": t[0].stats(cpu=True), "move_unit": t[1].stats(cpu=True)}
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


def _clicks_in_one_game(seed: int, units: int, select: Times, move: Times) -> int:
    import pygame

    from app.guiclicks import events_of, hex_point
    from app.play import GameWindow
    from kernel.game import Game

    with tempfile.TemporaryDirectory() as tmp:
        game = Game.new("barbarossa", Path(tmp) / "bench.wif", seed=seed)
        try:
            _to_land_movement(game)
            power = next(c.actor for d in game.choices(None).decisions for c in d.commands if c.type == "MoveLandUnit")
            window = GameWindow(game, screen=pygame.Surface(SIZE).convert(), forms=True)
            window.draw()
            play = window.play
            for _ in range(units):
                choice = next((c for c in play.decisions.commands() if c.type == "MoveLandUnit"), None)
                if choice is None:
                    break
                if play.fill is None or play.fill.choice is not choice:
                    play.fill_in(choice)
                    window.draw()
                unit = next((o.value for o in choice.fields[0].all_options() if play.map.unit_hex(o.value)), None)
                if unit is None:
                    break
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
                    break
                move.take(lambda: _click(window, events_of, hex_point(window, target)))
            return game.state.kernel.seq, power
        finally:
            game.close()


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


def run(game: bool = True, **_options) -> dict:
    """``wif bench play`` (``--no-game``: the clicks only), or the end of ``wif bench render``."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    pygame.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((64, 64))
    load = [round(v, 2) for v in os.getloadavg()]
    out = {"clicks": clicks(), "load_average": load}
    if game:
        out["whole_game"] = whole_game()
    return out


def print_table(result: dict) -> None:
    c = result["clicks"]
    movers = ", ".join(f"seed {seed}: {power}" for seed, power in zip(c.get("seeds", []), c.get("movers", [])))
    print(f"clicks at Barbarossa's first land movement ({movers}), {c['size']} window with its forms:")
    for name, what in (("select_unit", "click on a unit -> reachable hexes drawn"),
                       ("move_unit", "click on a destination -> moved counter drawn")):
        for key, clock in ((name, "wall"), (f"{name}_cpu", "cpu")):
            s = c.get(key, {})
            print(f"  {what} ({clock}): n {s.get('n')}, p50 {s.get('p50_ms')} ms, p95 {s.get('p95_ms')} ms, "
                  f"max {s.get('max_ms')} ms")
    for power, figures in c.get("cpu_by_mover", {}).items():
        print(f"  {power} moving (cpu p50 / p95): unit click {figures['select_unit'].get('p50_ms')} / "
              f"{figures['select_unit'].get('p95_ms')} ms, destination {figures['move_unit'].get('p50_ms')} / "
              f"{figures['move_unit'].get('p95_ms')} ms (n {figures['select_unit'].get('n')})")
    g = result.get("whole_game")
    if g:
        print(f"whole-game GUI autoplay: {g['frames']} frames in {g['seconds']} s = {g['fps']} frames/s "
              f"({g['clicks']} inputs, {g['commands']} commands, Victory form seen: {g['victory_seen']})")
    if "load_average" in result:
        print(f"load average before the clicks (1, 5, 15 min): {result['load_average']}")
    print("target: p95 <= 50 ms for each click")
