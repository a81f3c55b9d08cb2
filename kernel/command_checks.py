"""Whether a player may make a command now (``submit``, dry runs, choices and ``wif verify``
all ask the same)."""

from __future__ import annotations

from .errors import Rejected


def check_allowed(game, entry, cmd, player: str | None) -> None:
    """Refuse (Rejected, with the reason) a command ``player`` may not make now: an actor he
    does not control, a game over, a step that does not take it or waits for nobody."""
    k = game.state.kernel
    actor = cmd.actor
    if actor not in k.powers() and actor not in k.sides:
        raise Rejected(f"{actor!r} is not a power or side in this game ({', '.join(k.powers())})")
    if player is not None:
        owner = k.controllers.get(actor)
        if actor in k.sides:
            owners = {k.controllers.get(p) for p in k.sides[actor]}
            allowed = player in owners
        else:
            allowed = owner == player
        if not allowed:
            raise Rejected(f"player {player!r} does not control {actor} (it is played by {owner or 'another player'})")
    seq = k.sequence
    if seq.finished and not (k.lab and entry.anytime):  # a lab game's rig may reopen it
        raise Rejected("the game is over")
    name = type(cmd).__name__
    spec = game.sequence_index.specs.get(seq.current) if (game.sequence_index and seq.current) else None
    title = spec.title if spec else (seq.current or "none")
    if not entry.anytime and (spec is None or name not in spec.commands):
        legal = ", ".join(game.legal_commands()) or "none"
        raise Rejected(f"{name} is not allowed now: the current step is {title!r} (allowed now: {legal})")
    if name == "FinishStep" or not entry.anytime:
        if not seq.waiting:
            raise Rejected(f"nobody decides in {title!r}; it runs by itself")
        if actor not in seq.pending and k.side_of(actor) not in seq.pending:
            waiting = ", ".join(seq.pending)
            raise Rejected(f"{actor} has nothing (more) to decide in {title!r} (waiting for: {waiting})")
