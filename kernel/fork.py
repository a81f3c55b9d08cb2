"""``wif fork``: a new save holding a game's first events, to play a what-if from there."""

from __future__ import annotations

from pathlib import Path

from . import fairplay
from .errors import SaveFileError, WifError
from .store import EventStore


def fork_game(game, seq: int, path: str | Path):
    """A new save holding this game's first ``seq`` events; the original is untouched."""
    last, _ = game.store.last()
    if not 0 < seq <= last:
        raise WifError(f"cannot fork at seq {seq}: the game has events 1..{last}")
    path = Path(path)
    if path.exists():
        raise SaveFileError(f"{path}: a file of that name exists already; choose another save name")
    if game.identity.signed and game.store.meta_signer is None:
        # the fork's meta (its new head) must be signed by one of the game's players
        raise WifError(f"cannot fork {game.path.name}: none of its players has a key on this machine "
                       f"({', '.join(sorted(game.identity.keys)) or 'no keys recorded'}), so the new save could not be signed")
    meta = game.store.all_meta()
    meta.pop("schema_version", None)
    meta.pop("created_at", None)
    meta["forked_from"] = {"path": str(game.path), "seq": seq}
    new_store = EventStore.create(path, meta)
    try:
        batch: list[tuple] = []
        for row in game.store.rows(1, seq):
            batch.append(row)
            if len(batch) >= 10000:
                new_store.append(batch)
                batch = []
        snaps = [row for row in game.store.snapshot_rows() if row[0] <= seq]
        new_store.append(batch, snaps)
        # the signed commands that made these events (verify: one cut short by the fork is
        # chained but cannot be signed, kernel/verify.py)
        new_store.copy_commands([c for c in game.store.commands() if c[0] <= seq])
        new_store.meta_signer = game.store.meta_signer
        head = new_store.last()
        new_store.set_meta("head", [head[0], head[1].hex()])  # re-signs the fork's meta
        # a fork is a what-if: its later dice are its own, never the original's future ones
        new_store.set_meta("dice_salt", fairplay.new_dice_salt())
    finally:
        new_store.close()
    return type(game).open(path, snapshot_every=game.snapshot_every)
