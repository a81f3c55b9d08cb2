"""The Naval Combat Results form, as the window shows it (the front-end hook
``naval_combat_report``, app/uihooks.py): a batch of stored events told in words.

Seeds, "Naval Combat Results", Form Layout: "The most important line is the Damage Risks.
This is taken straight from the naval combat results table.  One possible result is 3
Destroyed and 2 Aborted"; "The table in the lower left keeps a running record of what has
happened so far in the current naval combat round" with the columns Possible, Effect and
Cumulative; "The same form is used for all three type of naval combat as well as for the
results of port attacks."  Seeds, "Naval Combat Results Table": the column an attack total
reads, the row of the opponent's ships, the defence roll ("If you roll the target's defense
value or less, it suffers the result ... an X becomes a D; a D becomes an A and an A becomes a
half-A"); "Naval Combat Abort Queue": aborting units wait with a number, then move to port.

Only events are read (what happened); the state is read for names and for what a unit is now
(the Cumulative column).  The chart is the plugin's own data (data/naval.json, authored cells).
"""

from __future__ import annotations

import re

from plugins.rules.core.names import power_name
from plugins.rules.units import units

from . import naval_units as nu
from .sea_box_section import area_name
from .state import data, naval

SIDE_NAMES = {"axis": "the Axis", "allies": "the Allies"}
LETTERS = {"x": "X", "d": "D", "a": "A", "half-a": "½A", "none": "-"}
WORDS = {"x": "destroyed", "d": "damaged", "a": "aborts", "half-a": "half-abort", "none": "no effect"}
RISKS = {"x": "Destroyed", "d": "Damaged", "a": "Aborted", "half-a": "Half-aborted"}
KINDS = {"surface": "surface", "submarine": "submarine", "naval-air": "naval air (air-to-sea)"}
# the chart's row each combat type reads (seeds: surface, SUB, ASW, air-to-sea rows)
ROW_OF_KIND = {"surface": "surface", "submarine": "SUB / ASW", "naval-air": "air-to-sea"}
# the events a report tells (the rest of a batch stays with the window's other results)
TOLD = {"NavalCombatBegan", "NavalSearchResolved", "NavalSectionsIncluded", "SurpriseSpent", "NavalCombatTypeSet",
        "NavalResultsDue", "NavalResultApplied", "NavalUnitDamaged", "NavalUnitLost", "UnitsQueuedForAbort",
        "AbortGroupMoved", "NavalSideAborted", "NavalRoundEnded", "NavalCombatEnded", "SubsCommitted",
        "PlaneRoleSet", "NavalAirStageReached", "InterceptionSearched"}
# Naval air combat's stages (events.NavalAirStageReached): whose anti-aircraft fire was rolled
AIR_STAGES = {"kamikaze": "Japan may declare its bombers that came through kamikazes",
              "aa-by-nis": "the non-initiating side's ships fired their anti-aircraft fire",
              "aa-by-is": "the initiating side's ships fired their anti-aircraft fire",
              "done": "the bombers that got through attack: both sides' results are due"}
# what makes a batch worth a results form: dice, the chart read, a result, the abort queue, the end
# (an abort group's move alone is the player's own: told only when a unit goes to the repair pool)
RESULTS = {"NavalResultsDue", "NavalResultApplied", "NavalUnitDamaged", "UnitsQueuedForAbort",
           "NavalCombatEnded", "NavalCombatTypeSet", "NavalSideAborted", "NavalAirStageReached"}
DEFENCE_ROLL = re.compile(r"^(Naval Combat Results Table|Port Attack): defence roll")
NAVAL_DICE = re.compile(r"^(Naval Combat Results Table|Port Attack|Search Die Rolls|Naval Interception)")


def side_name(side: str) -> str:
    return SIDE_NAMES.get(side, power_name(side))


def unit_name(state, uid: str) -> str:
    u = units(state).units.get(uid)
    if u is None:
        return uid
    if u.branch == "air":  # an aircraft at sea or a carrier plane: its name says what it is
        return f"{power_name(u.power)} {u.name or uid}"
    cls = data()["classes"].get(u.type, {}).get("name", u.type)
    if nu.is_convoy(u):
        return f"{power_name(u.power)} convoy, {nu.convoy_points(u)} point(s)"
    return f"{power_name(u.power)} {cls} {u.name or uid}"


def names(state, ids) -> str:
    return ", ".join(unit_name(state, u) for u in ids) or "none"


# ---------------------------------------------------------------- the chart
def column_labels() -> list[str]:
    bounds = data()["chart"]["columns"]
    out = []
    for i, low in enumerate(bounds):
        high = bounds[i + 1] - 1 if i + 1 < len(bounds) else None
        out.append(f"{low}+" if high is None else (str(low) if high == low else f"{low}-{high}"))
    return out


def results_text(results: list[str]) -> str:
    return "".join(LETTERS[r] for r in results) or "-"  # as a printed chart cell: "XDA"


def chart(hits: list[list[str]]) -> dict:
    """The naval combat chart as the window draws a results table (as ``land_combat_chart``):
    attack totals across, the opponent's ships down, each cell the results it inflicts."""
    c = data()["chart"]
    labels = column_labels()
    rows = list(c["rows"])
    cells = {row: {labels[i]: results_text(c["results"][i][row]) for i in range(len(labels))} for row in rows}
    first = hits[0] if hits else [None, None]
    return {"title": "Naval combat chart: attack total across, the opponent's ships down",
            "rows": rows, "columns": labels, "cells": cells, "hits": hits, "row": first[0], "column": first[1],
            "row_head": "ships",
            "legend": [[LETTERS[k], WORDS[k]] for k in ("x", "d", "a", "half-a")],
            "source": "data/naval.json (the seeds give the rows and the letters, not the cells)",
            "approximations": data().get("approximations", "")}


def damage_risks(results: list[str]) -> str:
    """Seeds: "One possible result is 3 Destroyed and 2 Aborted"."""
    counts = [(RISKS[r], results.count(r)) for r in ("x", "d", "a", "half-a") if r in results]
    return " and ".join(f"{n} {word}" for word, n in counts) or "nothing"


# ---------------------------------------------------------------- the batch in words
def cumulative(state, uid: str) -> str:
    """What the unit is now (the form's Cumulative column)."""
    u = units(state).units.get(uid)
    n = naval(state)
    if u is None or u.where == "eliminated":
        return "destroyed"
    if u.where == "repair-pool":
        return "in the repair pool"
    said = []
    if nu.damaged(state, uid):
        said.append("damaged")
    if any(e.unit == uid for e in n.abort_queue):
        said.append("in the abort queue")
    elif n.combat is not None and uid in n.combat.aborting:
        said.append("aborts at round end")
    elif n.combat is not None and n.combat.half_a.get(uid):
        said.append("half-abort")
    return ", ".join(said) or "unharmed"


def _defence(state, uid: str, records, index: int) -> float:
    """The defence the roll was made against: printed, +1 if it was damaged before."""
    u = units(state).units.get(uid)
    if u is None:
        return 0
    if nu.is_convoy(u):
        return data()["convoy_defense"]
    later = records[index + 1:]
    damaged_now = any(r.type == "NavalUnitDamaged" and r.data.get("unit") == uid for r in later)
    lost_now = any(r.type == "NavalUnitLost" and r.data.get("unit") == uid for r in later)
    final = records[index].data.get("final")
    if damaged_now:
        before = False
    elif lost_now and final == "d":
        before = True  # a D on a damaged unit destroys it
    else:
        before = nu.damaged(state, uid)
    return u.factors.get("defense", 0) + (1 if before else 0)


def _row(state, uid: str, possible: str, roll, defence, effect: str) -> dict:
    return {"unit": uid, "name": unit_name(state, uid), "possible": LETTERS.get(possible, possible),
            "defence": defence, "roll": roll, "effect": effect, "cumulative": cumulative(state, uid)}


def report(state, records) -> dict | None:
    records = list(records)
    lines: list[str] = []
    rows: list[dict] = []
    hits: list[list[str]] = []
    seqs: list[int] = []
    area = kind = None
    port_attack = worth_a_form = False
    labels = column_labels()
    c = naval(state).combat
    for i, rec in enumerate(records):
        d, t = rec.data, rec.type
        if t == "DiceRolled":
            purpose = d.get("purpose", "")
            if NAVAL_DICE.match(purpose):
                seqs.append(rec.seq)
                worth_a_form = True
                port_attack = port_attack or purpose.startswith("Port Attack")
                if not DEFENCE_ROLL.match(purpose):  # a defence roll is told with its result
                    lines.append(f"<b>dice</b> {purpose}: {', '.join(str(x) for x in d.get('results', []))} (d10)")
                elif purpose.startswith("Port Attack"):
                    uid = _port_target(state, records, i)
                    if uid is not None:
                        lines.append(_port_line(state, rec, uid, records, i, rows))
            continue
        if t not in TOLD:
            continue
        seqs.append(rec.seq)
        worth_a_form = worth_a_form or t in RESULTS
        if t == "NavalCombatBegan":
            area = d["area"]
            lines.append(f"<b>Naval combat in {area_name(area)}</b>, initiated by {side_name(d['initiator'])}")
        elif t == "NavalSearchResolved":
            first = next((r.data["initiator"] for r in records if r.type == "NavalCombatBegan"),
                         c.initiator if c is not None else None)
            order = sorted(d["rolls"], key=lambda side: side != first)  # as the dice were rolled
            said = ", ".join(f"{side_name(s)} rolled {d['rolls'][s]} ({'found' if d['found'].get(s) else 'did not find'})"
                             for s in order)
            lines.append(f"Search: {said}")
            for s, ids in d["included"].items():
                lines.append(f"{side_name(s)} included: {names(state, ids)}")
            points = ", ".join(f"{side_name(s)} {p}" for s, p in d["surprise"].items() if p)
            if points:
                lines.append(f"surprise points: {points}")
        elif t == "NavalSectionsIncluded":
            lines.append(f"{side_name(d['side'])} included too: {names(state, d['units'])}")
        elif t == "SurpriseSpent":
            lines.append(f"{side_name(d['side'])} spent {d['points']} surprise points: {d['benefit']}")
        elif t == "SubsCommitted":
            lines.append(f"{side_name(d['side'])} {'commits' if d['commit'] else 'does not commit'} its submarines")
        elif t == "NavalCombatTypeSet":
            kind = d["kind"]
            lines.append(f"Combat type: <b>{KINDS.get(kind, kind)}</b> (the chart's {ROW_OF_KIND.get(kind, kind)} row)")
        elif t == "InterceptionSearched":  # seeds, "Naval Interception": the search die against the number
            lines.append(f"Interception search: die {d['roll']} against {d['number']}: "
                         f"{'the moving group is found' if d['success'] else 'not found'}")
        elif t == "PlaneRoleSet":
            lines.append(f"{unit_name(state, d['unit'])} flies as a {d['role']} this round")
        elif t == "NavalAirStageReached":
            lines.append(f"Naval air combat: {AIR_STAGES.get(d['stage'], d['stage'])}")
        elif t == "NavalResultsDue":
            attacker = next((s for s in state.kernel.sides if s != d["target_side"]), "?")
            column = labels[d["column"]] if d.get("column") is not None else None
            if column is None:
                read = "no column (off the chart's left-hand end, or nothing to attack with): no result"
            else:
                read = f"column {column}, row {d['row']} ship(s)"
                hits.append([d["row"], column])
            lines.append(f"{side_name(attacker)} attack {side_name(d['target_side'])}: {read}; "
                         f"<b>Damage Risks: {damage_risks(d['results'])}</b>")
        elif t == "NavalResultApplied":
            uid = d["unit"]
            defence = _defence(state, uid, records, i)
            held = d["final"] == d["result"]
            effect = LETTERS[d["final"]]
            roll_words = (f"die {d['roll']}, at most its defence {defence:g}: {LETTERS[d['result']]} applies" if held
                          else f"die {d['roll']}, above its defence {defence:g}: {LETTERS[d['result']]} becomes "
                               f"{effect if d['final'] != 'none' else 'nothing'}")
            rows.append(_row(state, uid, d["result"], d["roll"], defence, effect))
            lines.append(f"{unit_name(state, uid)}: {roll_words} ({WORDS[d['final']]}); now {cumulative(state, uid)}")
        elif t == "NavalUnitDamaged" and not _told_by_result(records, i):
            lines.append(f"{unit_name(state, d['unit'])} is damaged")
        elif t == "NavalUnitLost" and not _told_by_result(records, i):
            now = cumulative(state, d["unit"])
            if now in ("destroyed", "in the repair pool"):  # not a unit that simply left the sea box
                lines.append(f"{unit_name(state, d['unit'])} is {now}")
                worth_a_form = True
        elif t == "UnitsQueuedForAbort":
            lines.append(f"abort queue number {d['number']}: {names(state, d['units'])}")
        elif t == "AbortGroupMoved":
            lines.append(f"{power_name(d['power'])} abort group to the port at {d['to']}: {names(state, d['units'])}")
        elif t == "NavalSideAborted":
            lines.append(f"{side_name(d['side'])} abort the combat")
        elif t == "NavalRoundEnded":
            lines.append(f"end of round {d['round']}" + (f": {d['over']}" if d.get("over") else ""))
        elif t == "NavalCombatEnded":
            area = area or d["area"]
            lines.append(f"<b>The naval combat in {area_name(d['area'])} is over</b>: {d['reason']}")
    if not worth_a_form or not (lines or rows):
        return None  # a player's own choice (a plane's role, surprise spent) needs no form
    ended = [r.data["round"] for r in records if r.type == "NavalRoundEnded"]
    round_no = ended[0] if ended else (c.round if c is not None else None)
    area = area or (c.area if c is not None else None)
    kind = kind or (c.kind if c is not None else None)
    if port_attack:
        title = "Naval Combat Results: Port Attack"
    else:
        title = "Naval Combat Results" + (f": {area_name(area)}" if area else "") + \
            (f", {KINDS.get(kind, kind)} combat" if kind else "")
    # the running record is kept per round (seeds: "so far in the current naval combat round")
    round_key = f"{'port' if port_attack else area}:{round_no}:{records[0].turn}:{records[0].impulse}"
    return {"title": title, "lines": lines, "rows": rows, "chart": chart(hits) if hits else None, "seqs": seqs,
            "round": round_key}


def _told_by_result(records, index: int) -> bool:
    """A damage or a loss that a result (or a port attack's defence roll) just told."""
    for rec in reversed(records[:index]):
        if rec.type in ("NavalResultApplied", "DiceRolled"):
            return rec.type == "NavalResultApplied" or bool(DEFENCE_ROLL.match(rec.data.get("purpose", "")))
    return False


def _port_target(state, records, index: int) -> str | None:
    """The ship a port attack's defence roll was for: the next damage, loss or flip of a naval unit."""
    for rec in records[index + 1:]:
        if rec.type == "DiceRolled":
            break
        if rec.type in ("NavalUnitDamaged", "NavalUnitLost", "UnitFlipped"):
            return rec.data.get("unit")
    match = re.search(r"\(([^()]+)\) against", records[index].data.get("purpose", ""))
    return match.group(1) if match else None


def _port_line(state, rec, uid: str, records, index: int, rows: list) -> str:
    """Port Attack: "Roll a die for each target" as the Naval Combat Results Table says."""
    result = rec.data["purpose"].rsplit(" against ", 1)[-1].strip()
    effect = "-"
    for later in records[index + 1:]:
        if later.type == "DiceRolled":
            break
        if later.data.get("unit") == uid:
            effect = {"NavalUnitDamaged": "D", "NavalUnitLost": "X", "UnitFlipped": "A"}.get(later.type, effect)
    roll = rec.data.get("results", [None])[0]
    u = units(state).units.get(uid)
    defence = u.factors.get("defense", 0) if u is not None else 0
    rows.append(_row(state, uid, result, roll, defence, effect))
    return f"{unit_name(state, uid)}: possible {LETTERS.get(result, result)}, die {roll}: {effect}; now {cumulative(state, uid)}"
