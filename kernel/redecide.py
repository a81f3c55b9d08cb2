"""``wif verify`` decides every stored command again and compares (docs/FAIRPLAY.md).

The rules are the judge: a command is taken from the ``commands`` table, checked as
``submit`` checks it (its player must control its actor, the step must allow it), decided
by the same handler on the state the earlier commands made, and its events must be exactly
the stored ones (the same hashes: type, envelope, data and chain).  The dice: a seeded game's
from its seed, a host-dice game's from this machine's host key when it is the game's, else
the recorded results, checked roll by roll for purpose, faces and count.
"""

from __future__ import annotations

import json

from .dice import RecordedDice
from .engine import Context, apply_event, upcast, validate_command
from .events import GENESIS_HASH, EventRecord, command_digest
from .fairplay import HOST
from .state import GameState


def redecide(game, report, lenient: bool = False) -> None:
    """Re-decide ``game``'s commands into a fresh state; problems go to ``report`` (a game
    played with hot-reloaded rules, ``lenient``, gets warnings instead)."""
    from .game import genesis

    store, host, ident = game.store, game.host, game.identity
    game.state = GameState.empty(host.state_models)
    game._last_hash = GENESIS_HASH
    if ident.dice == HOST and game.dice_key is None:
        recorded = {seq: json.loads(data) for seq, data in store.conn.execute(
            "SELECT seq, data FROM events WHERE type='DiceRolled'")}
        game.dice_source = lambda ctx: RecordedDice(recorded, ctx.state)
    else:
        report.dice_rederived = ident.dice == HOST
    upcast_noted = False
    # snapshots are compared as the commands are re-decided (the state at their seq exists then)
    snapshots = {seq: (text, player, sig) for seq, h, text, player, sig in store.snapshot_rows() if h == game.plugins_hash}
    report.snapshots_complete = True  # every snapshot met here: no separate fold is needed
    forked = store.meta("forked_from")
    fork_seq = forked.get("seq") if isinstance(forked, dict) else None

    def problem(seq, message):
        if lenient:
            report.warnings.append(f"{message} (the game was played with hot-reloaded rules)")
        else:
            report.bad(seq, message)

    events = _EventStream(store)  # one cursor over the log (a query per command cost seconds)
    for first, last, player, command_json, _sig in store.commands():
        cut = fork_seq is not None and first <= fork_seq < last  # cut short by ``wif fork``: fold what is there
        rows = events.take(first, fork_seq if cut else last)
        if cut or any(host.events.get(r[1]) is None or host.events[r[1]].version != r[2] for r in rows):
            # events stored by an older version of their plugin: fold them, as replay does
            for seq, type_, v, actor, turn, impulse, step, cmd, data, hash_ in rows:
                rec = upcast(host, EventRecord(seq, type_, v, actor, turn, impulse, step, cmd, json.loads(data), hash_))
                apply_event(host, game.state, rec)
            game._last_hash = rows[-1][9] if rows else game._last_hash
            report.snapshots_complete = False
            if not upcast_noted and not cut:
                report.warnings.append(f"seq {first}: events stored by older plugin versions are folded (upcast), "
                                       "not re-decided")
                upcast_noted = True
            continue
        command = json.loads(command_json)
        name = command.get("type", "?") if isinstance(command, dict) else "?"
        ctx = _decide(game, host, ident, first, player, command, command_json, name, problem)
        if ctx is None:
            return
        got = ctx.records
        for i in range(max(len(got), len(rows))):
            mine = got[i] if i < len(got) else None
            row = rows[i] if i < len(rows) else None
            if mine is None or row is None or mine.hash != row[9]:
                seq = first + i
                stored = f"{row[1]} {_short(row[8])}" if row else "nothing"
                made = f"{mine.type} {_short(json.dumps(mine.data, sort_keys=True))}" if mine else "nothing"
                problem(seq, f"table events, seq {seq}: the log has {stored}; deciding {name} by {player!r} "
                             f"(command at seq {first}) again gives {made}")
                return
        game._last_hash = got[-1].hash if got else game._last_hash
        report.redecided += 1
        made = list(ctx.snapshots)
        if got and got[-1].seq in snapshots and (not made or made[-1][0] != got[-1].seq):
            made.append((got[-1].seq, game.state.to_snapshot_json()))
        for seq, text in made:
            if seq in snapshots and not _same_snapshot(game, report, seq, text, *snapshots[seq]):
                return


class _EventStream:
    """The stored events in order, taken command by command."""

    def __init__(self, store):
        self._rows = iter(store.rows())
        self._ahead = next(self._rows, None)

    def take(self, first: int, last: int) -> list[tuple]:
        """The rows of seqs ``first``..``last`` (any before ``first`` are passed over: the
        signed-log check names an event no command made)."""
        out = []
        while self._ahead is not None and self._ahead[0] <= last:
            if self._ahead[0] >= first:
                out.append(self._ahead)
            self._ahead = next(self._rows, None)
        return out


def _decide(game, host, ident, first, player, command, command_json, name, problem):
    """One stored command decided again on ``game.state``; None (and the problem told) when
    the rules refuse it."""
    from .game import genesis

    try:
        if name == "NewGame":
            decide, actor = genesis(host, host.scenarios[command["scenario"]], command), "system"
        else:
            entry, cmd = validate_command(host, command)
            game._check_allowed(entry, cmd, player)
            decide, actor = (lambda ctx: entry.handler(ctx, cmd)), cmd.actor
        ctx = Context(game, actor=actor, command_digest=command_digest(ident.game_id, first, player, command_json))
        decide(ctx)
    except Exception as exc:  # any refusal or failure of the rules is the finding
        problem(first, f"table commands, seq {first}: {name} by {player!r} is refused when decided again: {exc}")
        return None
    return ctx


def _same_snapshot(game, report, seq, text, stored, player, signature) -> bool:
    why = game._snapshot_problem(seq, stored, player, signature)
    # a save of an earlier build keeps its snapshots with sorted keys: the same state
    if why is None and stored != text and json.loads(stored) != json.loads(text):
        why = "differs from the state the events give"
    if why:
        report.bad(seq, f"table snapshots, seq {seq}: {why}")
        return False
    report.snapshots_checked += 1
    return True


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
