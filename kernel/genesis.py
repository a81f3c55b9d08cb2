"""A game's first command, ``NewGame``: who controls which power, and what it decides
(GameStarted, the scenario's setup, the first step).  ``Game.new`` runs it and ``wif verify``
re-decides it from the stored command; ``game_started`` reads its first event back."""

from __future__ import annotations

from typing import Callable

from .decisions import SOLO
from .engine import Context
from .errors import WifError
from .plugins import PluginHost
from .store import EventStore


def controllers_of(sides: dict[str, list[str]], players: dict[str, list[str]] | None) -> dict[str, str]:
    powers = [p for ps in sides.values() for p in ps]
    if not players:
        return {p: SOLO for p in powers}
    out: dict[str, str] = {}
    for player, controlled in players.items():
        for power in controlled:
            if power not in powers:
                raise WifError(f"player {player!r} is given {power!r}, which is not a power of this scenario")
            if power in out:
                raise WifError(f"{power} is given to both {out[power]!r} and {player!r}")
            out[power] = player
    missing = [p for p in powers if p not in out]
    if missing:
        raise WifError(f"no player controls {', '.join(missing)}")
    return out


def first_event_sequence(store: EventStore) -> str | None:
    started = game_started(store)
    return started.get("sequence") if started else None


def game_started(store: EventStore) -> dict | None:
    for rec in store.records(1, 1):
        if rec.type == "GameStarted" and isinstance(rec.data, dict):
            return rec.data
    return None


def genesis(host: PluginHost, spec, command: dict) -> Callable[[Context], None]:
    """The first command's decision (``NewGame``): GameStarted, the scenario's setup, the
    first step; Game.new runs it, and ``wif verify`` re-decides it from the stored command."""
    from .builtin import GameStarted

    options = command.get("options") or {}

    def begin(ctx: Context) -> None:
        ctx.emit(GameStarted(scenario=command["scenario"], seed=command.get("seed"), sides=spec.sides,
                             controllers=command["controllers"], sequence=spec.sequence, options=options,
                             lab=bool(command.get("lab")), game_id=command.get("game_id", ""),
                             dice=command.get("dice", "seeded"), dice_commitment=command.get("dice_commitment", ""),
                             keys=command.get("keys") or {}, head_salt=command.get("head_salt", "")))
        if spec.setup is not None:
            spec.setup(ctx)
        start_at = spec.start_at(options) if callable(spec.start_at) else spec.start_at
        ctx.start(at=start_at)

    return begin
