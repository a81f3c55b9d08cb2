"""The war at sea in bot games: plays ``wif autoplay``'s games and counts, over them, the
naval combats, the carrier strikes and the invasions, checks every save with ``wif verify``
and counts the "no rule yet" skips (issue #14's done-when).

    .venv/bin/python tools/naval_tally.py guadalcanal --seeds 1-20 --policy random --jobs 2

Counted from each save's events: a naval combat is a ``NavalCombatBegan`` (most end when both
searches fail), one "a ship initiated" one whose designated initiating unit is a naval unit (only
the non-phasing side designates one: an aircraft at sea or a ship; the phasing side names none); a round fought a ``NavalCombatTypeSet`` (a search found: surface, submarine, naval air),
a surface round one of kind ``surface``; a naval result a ``NavalResultApplied`` that did
something (x, d, a, half-a); a carrier strike
a round of naval air combat (``NavalCombatTypeSet`` kind ``naval-air``: carrier air units or
aircraft at sea attacked ships); a port attack an ``AirMissionPerformed`` of kind
``port-attack``; an invasion an ``AttackDeclared`` forced by ``invasion``; a carrier plane boarded a
``CarrierAirUnitRebased`` onto a carrier from a hex (a plane ashore, e.g. one that arrived at a
base, going aboard: Ships in Flames 8.5); a shore bombardment a ``GroundSupportAdded`` in a
shore bombardment step; a ship damaged a ``NavalUnitDamaged`` of a naval unit; a ship lost a
``NavalUnitLost`` of a naval unit (sunk, stranded at sea, or to the repair pool; the event also
tells an aircraft flying home from the sea, not counted); a fleet move a ``NavalGroupMoved`` (a
group of ships moved, into a sea area or back to port); in Barbarossa, whose players set their
ships up in the Setup Tray, the ships whose setup port is not their saved default one.
A carrier plane's flight from its carrier (an ``AirUnitFlew`` of a unit aboard a ship then) is
counted by its role: a carrier bombing (a bomber outside the port attack: ground strike, ground
support, a bombing), a carrier escort, a carrier interception, a carrier CAP.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COUNTS = ("naval combats", "naval combats a ship initiated", "rounds fought", "surface rounds", "naval results", "carrier strikes", "port attacks", "invasions", "carrier planes boarded",
          "shore bombardments", "ships damaged", "ships lost", "fleet moves", "ships set up off their default port",
          "carrier bombings", "carrier escorts", "carrier interceptions", "carrier CAP")
CARRIER_ROLES = {"escort": "carrier escorts", "interceptor": "carrier interceptions", "cap": "carrier CAP"}


def default_ports(scenario: str) -> dict[str, tuple[int, int]]:
    """Ship id -> its saved default port hex, for a scenario whose players set their ships up
    (Barbarossa: Ships in Flames 16.1/16.3 in the Setup Tray); empty for the others."""
    if scenario != "barbarossa":
        return {}
    from plugins.scenarios.barbarossa import oob

    return {ship.id: oob.port_hex(ship) for ship in oob.naval_data().units}


def count_events(save: Path, scenario: str = "") -> dict[str, int]:
    from kernel.game import Game

    out = dict.fromkeys(COUNTS, 0)
    branch: dict[str, str] = {}  # unit id -> branch (NavalUnitLost also tells an aircraft leaving the sea)
    set_up_at: dict[str, tuple] = {}  # ship id -> the hex it was last put in during setup
    aboard: set[str] = set()  # the units aboard a ship now (carrier planes fly from their carrier)
    mission = ""  # the air mission flown now
    with Game.open(save, read_only=True) as game:
        for rec in game.history(1):
            if rec.type == "UnitCreated":
                branch[rec.data["unit"]["id"]] = rec.data["unit"]["branch"]
            elif rec.type == "UnitMoved":
                if rec.data.get("to_where") == "aboard":
                    aboard.add(rec.data["unit"])
                else:
                    aboard.discard(rec.data["unit"])
                if rec.turn == 0 and branch.get(rec.data["unit"]) == "naval":
                    set_up_at[rec.data["unit"]] = tuple(rec.data["to_hex"] or ())
            elif rec.type == "AirMissionBegan":
                mission = rec.data.get("kind", "")
            elif rec.type == "AirUnitFlew" and rec.data["unit"] in aboard and mission != "naval-air":
                # (a naval air combat's planes "fly into battle": counted as its carrier strikes)
                role = rec.data["role"]
                if role == "bomber" and mission != "port-attack":
                    out["carrier bombings"] += 1
                elif role in CARRIER_ROLES:
                    out[CARRIER_ROLES[role]] += 1
            elif rec.type == "NavalCombatBegan":
                out["naval combats"] += 1
                out["naval combats a ship initiated"] += branch.get(rec.data.get("initiating_unit")) == "naval"
            elif rec.type == "NavalCombatTypeSet":
                out["rounds fought"] += 1
                out["surface rounds"] += rec.data.get("kind") == "surface"
                out["carrier strikes"] += rec.data.get("kind") == "naval-air"
            elif rec.type == "NavalResultApplied" and rec.data.get("final") not in (None, "none"):
                out["naval results"] += 1
            elif rec.type == "AirMissionPerformed" and rec.data.get("kind") == "port-attack":
                out["port attacks"] += 1
            elif rec.type == "AttackDeclared" and rec.data.get("forced") == "invasion":
                out["invasions"] += 1
            elif rec.type == "CarrierAirUnitRebased" and "," in rec.data["origin"] and "," not in rec.data["to"]:
                out["carrier planes boarded"] += 1
            elif rec.type == "GroundSupportAdded" and "shore-bombardment" in (rec.step or ""):
                out["shore bombardments"] += 1
            elif rec.type == "NavalUnitDamaged" and branch.get(rec.data["unit"]) == "naval":
                out["ships damaged"] += 1
            elif rec.type == "NavalUnitLost" and branch.get(rec.data["unit"]) == "naval":
                out["ships lost"] += 1
            elif rec.type == "NavalGroupMoved":
                out["fleet moves"] += 1
    defaults = default_ports(scenario)
    out["ships set up off their default port"] = sum(1 for uid, h in set_up_at.items() if uid in defaults and h != defaults[uid])
    return out


def one_game(scenario: str, seed: int, policy: str, folder: str, pairs: tuple = ()) -> dict:
    from app.cli_bots import play_one
    from kernel.engine import NO_RULE_YET
    from kernel.verify import verify

    save = Path(folder) / f"{scenario}-{policy}-{seed}.wif"
    skips: dict = {}
    started = time.perf_counter()
    policies, result, tally, events = play_one(scenario, seed, policy, list(pairs), save, 200000, skips=skips)
    report = verify(save)
    return {"seed": seed, "policy": policy, "result": (result or {}).get("text", "no result"),
            "winner": (result or {}).get("winner"), "events": events, "commands": tally.commands,
            "refused": len(tally.refused), "refused_lines": tally.refused[:3], "verify": report.ok, "problems": [str(p) for p in report.problems][:3],
            "no_rule_yet": sum(n for (_, reason), n in skips.items() if reason == NO_RULE_YET),
            "seconds": time.perf_counter() - started, "load": os.getloadavg()[0],
            "scores": (result or {}).get("scores") or {}, **count_events(save, scenario)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scenario")
    p.add_argument("--seeds", default="1-20")
    from app.bots import POLICIES

    p.add_argument("--policy", action="append", choices=POLICIES,
                   help="a bot policy for every side (repeat for several; default: every policy)")
    p.add_argument("--side", action="append", default=[], metavar="SIDE=POLICY",
                   help="one side's policy whatever --policy says, e.g. axis=greedy (as wif autoplay --side)")
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    lo, _, hi = args.seeds.partition("-")
    seeds = range(int(lo), int(hi or lo) + 1)
    failed = 0
    with tempfile.TemporaryDirectory() as folder, ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for policy in args.policy or list(POLICIES):
            totals = dict.fromkeys(COUNTS, 0)
            wins: dict[str, int] = {}
            verified = refused = no_rule_yet = 0
            points: dict[str, list[float]] = {}  # side -> its victory points in each game
            jobs = [pool.submit(one_game, args.scenario, s, policy, folder, tuple(args.side)) for s in seeds]
            for job in jobs:
                r = job.result()
                for k in COUNTS:
                    totals[k] += r[k]
                wins[r["winner"] or "none"] = wins.get(r["winner"] or "none", 0) + 1
                bad = not r["verify"] or r["refused"] or r["no_rule_yet"]
                failed += bool(bad)
                verified += bool(r["verify"])
                refused += r["refused"]
                no_rule_yet += r["no_rule_yet"]
                for side, value in r["scores"].items():
                    points.setdefault(side, []).append(value)
                print(f"{policy} seed {r['seed']}: {r['result']}; {r['commands']} commands, {r['events']} events, "
                      + ", ".join(f"{r[k]} {k}" for k in COUNTS)
                      + f", verify {'OK' if r['verify'] else 'FAILED'}, refused {r['refused']}, "
                      f"'no rule yet' {r['no_rule_yet']}, {r['seconds']:.0f} s, load {r['load']:.1f}", flush=True)
                for problem in r["problems"] + r["refused_lines"]:
                    print(f"  {problem}", flush=True)
            print(f"{policy}{''.join(' ' + p for p in args.side)}: {len(seeds)} games: " + ", ".join(f"{totals[k]} {k}" for k in COUNTS)
                  + f"; verify OK {verified}/{len(seeds)}, refused {refused}, 'no rule yet' {no_rule_yet}"
                  + "; winners " + ", ".join(f"{w} {n}" for w, n in sorted(wins.items()))
                  + "; victory points " + ", ".join(f"{side} {sum(v):g} (in {sum(x > 0 for x in v)} games)"
                                                    for side, v in sorted(points.items())), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
