"""Skirmish's rules: each check is one function that the handler, the choices and the
preview of its command call."""

from __future__ import annotations

from kernel.choices import one_of
from kernel.errors import Rejected

from .board import (
    Attack,
    AttackResolved,
    Counter,
    CounterEliminated,
    CounterMoved,
    CounterWeakened,
    MoveCounter,
    Retreat,
    RetreatRequired,
    board,
    neighbours,
)


# ---------------------------------------------------------------- the rules, shared by handlers, choices, previews
def own_counter_problem(state, actor: str, counter_id: str) -> str | None:
    counter = board(state).counters.get(counter_id)
    if counter is None:
        return f"there is no counter {counter_id!r} on the board"
    if counter.power != actor and state.kernel.side_of(counter.power) != actor:
        return f"counter {counter_id} belongs to {counter.power}, not {actor}"
    return None


def occupied(state, hex_) -> bool:
    return any(c.hex == tuple(hex_) for c in board(state).counters.values())


def free_neighbours(state, hex_) -> list[tuple[int, int]]:
    return [h for h in neighbours(*hex_) if not occupied(state, h)]


def move_problem(state, actor: str, counter_id: str, to) -> str | None:
    """Why ``actor`` may not move the counter to ``to`` (a free adjacent hex), or None."""
    problem = own_counter_problem(state, actor, counter_id)
    if problem:
        return problem
    counter = board(state).counters[counter_id]
    to = tuple(to)
    if to not in neighbours(*counter.hex):
        return f"{counter_id} at {counter.hex} can only move to an adjacent hex, not {to}"
    if occupied(state, to):
        return f"hex {to} is occupied"
    return None


def attack_problem(state, actor: str, attacker_id: str, defender_id: str) -> str | None:
    """Why ``actor``'s counter may not attack the defender (an adjacent enemy), or None."""
    problem = own_counter_problem(state, actor, attacker_id)
    if problem:
        return problem
    attacker = board(state).counters[attacker_id]
    defender = board(state).counters.get(defender_id)
    if defender is None:
        return f"there is no counter {defender_id!r} on the board"
    if state.kernel.side_of(defender.power) == state.kernel.side_of(attacker.power):
        return f"{defender_id} is on your own side"
    if defender.hex not in neighbours(*attacker.hex):
        return f"{defender_id} is not adjacent to {attacker_id}"
    return None


def retreat_problem(state, actor: str, counter_id: str, to) -> str | None:
    """Why the beaten counter may not retreat to ``to`` (a free adjacent hex), or None."""
    if board(state).retreating != counter_id:
        return f"{counter_id} does not have to retreat"
    problem = own_counter_problem(state, actor, counter_id)
    if problem:
        return problem
    counter = board(state).counters[counter_id]
    to = tuple(to)
    if to not in neighbours(*counter.hex) or occupied(state, to):
        return f"{counter_id} cannot retreat to {to}: it must be a free adjacent hex"
    return None


def attack_result(total: int) -> str:
    """The d10 + attacker - defender table."""
    if total >= 9:
        return "defender-eliminated"
    if total >= 6:
        return "defender-retreats"
    if total <= 2:
        return "attacker-weakened"
    return "no-effect"


def _check(problem: str | None) -> None:
    if problem:
        raise Rejected(problem)


# ---------------------------------------------------------------- handlers
def move_counter(ctx, cmd: MoveCounter) -> None:
    _check(move_problem(ctx.state, cmd.actor, cmd.counter, cmd.to))
    counter = board(ctx.state).counters[cmd.counter]
    ctx.emit(CounterMoved(counter=cmd.counter, from_hex=counter.hex, to_hex=tuple(cmd.to)))


def attack(ctx, cmd: Attack) -> None:
    _check(attack_problem(ctx.state, cmd.actor, cmd.attacker, cmd.defender))
    attacker = board(ctx.state).counters[cmd.attacker]
    defender = board(ctx.state).counters[cmd.defender]
    (roll,) = ctx.roll(f"attack {cmd.attacker} on {cmd.defender}")
    result = attack_result(roll + attacker.strength - defender.strength)
    ctx.emit(AttackResolved(attacker=cmd.attacker, defender=cmd.defender, roll=roll, result=result))
    if result == "defender-eliminated":
        ctx.emit(CounterEliminated(counter=cmd.defender))
    elif result == "attacker-weakened":
        if attacker.strength <= 1:
            ctx.emit(CounterEliminated(counter=cmd.attacker))
        else:
            ctx.emit(CounterWeakened(counter=cmd.attacker, strength=attacker.strength - 1))
    elif result == "defender-retreats":
        if not free_neighbours(ctx.state, defender.hex):
            ctx.emit(CounterEliminated(counter=cmd.defender))
        else:
            ctx.emit(RetreatRequired(counter=cmd.defender), actor="system")
            ctx.push("digressions.retreat")  # the defender decides where, then combat goes on


def retreat(ctx, cmd: Retreat) -> None:
    _check(retreat_problem(ctx.state, cmd.actor, cmd.counter, cmd.to))
    counter = board(ctx.state).counters[cmd.counter]
    ctx.emit(CounterMoved(counter=cmd.counter, from_hex=counter.hex, to_hex=tuple(cmd.to)))
    ctx.finish_decision(cmd.actor)


# ---------------------------------------------------------------- choices and previews
def _label(counter_id: str, counter: Counter) -> str:
    return f"{counter_id} ({counter.power}, strength {counter.strength}) at {counter.hex}"


def _own(state, actor: str) -> list[str]:
    return sorted(cid for cid in board(state).counters if own_counter_problem(state, actor, cid) is None)


def move_choices(state, actor: str, step_id: str):
    counters = board(state).counters

    def destinations(cid):
        return [one_of("to", "hex", [h for h in neighbours(*counters[cid].hex)
                                     if move_problem(state, actor, cid, h) is None])]

    movable = [cid for cid in _own(state, actor) if free_neighbours(state, counters[cid].hex)]
    return [one_of("counter", "unit", movable, label=lambda c: _label(c, counters[c]), then=destinations)]


def attack_choices(state, actor: str, step_id: str):
    counters = board(state).counters

    def targets(attacker):
        return [c for c in sorted(counters) if attack_problem(state, actor, attacker, c) is None]

    def defenders(attacker):
        return [one_of("defender", "unit", targets(attacker), label=lambda c: _label(c, counters[c]))]

    attackers = [c for c in _own(state, actor) if targets(c)]
    return [one_of("attacker", "unit", attackers, label=lambda c: _label(c, counters[c]), then=defenders)]


def retreat_choices(state, actor: str, step_id: str):
    cid = board(state).retreating
    if cid is None or own_counter_problem(state, actor, cid):
        return None
    counter = board(state).counters[cid]

    def destinations(c):
        return [one_of("to", "hex", [h for h in neighbours(*counter.hex) if retreat_problem(state, actor, c, h) is None])]

    return [one_of("counter", "unit", [cid], label=lambda c: _label(c, counter), then=destinations)]


def move_preview(state, cmd: MoveCounter) -> dict:
    _check(move_problem(state, cmd.actor, cmd.counter, cmd.to))
    return {"path": [list(board(state).counters[cmd.counter].hex), list(cmd.to)], "cost": 1}


def attack_preview(state, cmd: Attack) -> dict:
    _check(attack_problem(state, cmd.actor, cmd.attacker, cmd.defender))
    counters = board(state).counters
    diff = counters[cmd.attacker].strength - counters[cmd.defender].strength
    results = [attack_result(roll + diff) for roll in range(1, 11)]
    return {"odds": diff, "table": "d10 + attacker - defender",
            "chances": {r: results.count(r) / 10 for r in dict.fromkeys(results)}}
