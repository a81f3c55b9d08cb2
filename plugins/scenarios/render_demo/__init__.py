"""Render demo: counters on real hexes so the map renderer has something to draw.

Not a game: one step that each power may finish.  The positions are made up (issue 5 brings
Barbarossa's real setup); they are chosen to exercise stacks, every branch, face-down
counters, units at sea and on both sides of column 0.
"""

from __future__ import annotations

import random

from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec
from kernel.sequence import StepSpec
from plugins.rules.units import Unit, UnitCreated

SIDES = {"axis": ["germany", "italy", "japan"], "allies": ["ussr", "commonwealth", "usa", "france", "china"]}

LAND = ["inf", "inf", "inf", "arm", "mech", "mot", "cav", "mtn", "hq", "art", "para", "mar", "gar"]
AIR = ["ftr", "lnd", "nav", "bmr", "atr"]
NAVAL = ["bb", "ca", "cl", "cv", "dd", "sub", "tr", "cp"]

# (power, columns, rows, land units) — fronts drawn as boxes of hexes.
FRONTS = [
    ("germany", range(198, 206), range(42, 66), 140),
    ("ussr", range(207, 216), range(42, 66), 150),
    ("italy", range(186, 196), range(78, 84), 30),
    ("commonwealth", range(200, 212), range(80, 86), 30),
    ("japan", range(285, 300), range(55, 70), 50),
    ("china", range(275, 290), range(70, 80), 40),
    ("usa", range(354, 360), range(40, 46), 10),      # Alaska-ish, east of column 359 ...
    ("usa", range(0, 4), range(40, 46), 10),          # ... and just past it: the wrap
]
SEAS = [  # (power, columns, rows, naval units)
    ("germany", range(188, 196), range(44, 50), 20),
    ("commonwealth", range(160, 175), range(40, 55), 40),
    ("usa", range(320, 340), range(60, 80), 40),
    ("japan", range(300, 315), range(65, 80), 30),
    ("italy", range(185, 195), range(74, 78), 15),
]


def _place(ctx, rng, world, power, cols, rows, count, branch, types, serial):
    made = 0
    tries = 0
    while made < count and tries < count * 50:
        tries += 1
        hex_ = (rng.choice(cols), rng.choice(rows))
        if (branch == "naval") != world.is_sea(hex_):
            continue
        kind = rng.choice(types)
        factors = {"combat": rng.randint(1, 9), "move": rng.randint(2, 6)} if branch == "land" else \
            {"attack": rng.randint(1, 8), "range": rng.randint(2, 9)}
        serial[0] += 1
        ctx.emit(UnitCreated(unit=Unit(id=f"u{serial[0]}", power=power, branch=branch, type=kind,
                                       name=f"{power[:3].title()} {kind} {serial[0]}", factors=factors,
                                       hex=hex_, face_up=rng.random() > 0.1)))
        made += 1


def setup(ctx):
    from kernel.worldmap import load_world_map

    world = load_world_map()
    rng = random.Random(1941)
    serial = [0]
    for power, cols, rows, count in FRONTS:
        _place(ctx, rng, world, power, cols, rows, count, "land", LAND, serial)
        _place(ctx, rng, world, power, cols, rows, count // 5, "air", AIR, serial)
    for power, cols, rows, count in SEAS:
        _place(ctx, rng, world, power, cols, rows, count, "naval", NAVAL, serial)


TREE = StepSpec(id="demo", title="Render demo", level="root", children=(
    StepSpec(id="look", title="Look at the map", decides="each-power", commands=()),))


@hookimpl
def register_sequences(register):
    register("demo", TREE)


@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id="render_demo", name="Render demo", sides=SIDES, sequence="demo", setup=setup,
                          description="Counters on real hexes for the map renderer."))
