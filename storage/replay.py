"""Rebuild a game from its seed and log: replay, moderator verify, and undo by replay.

Replay reads the ``(seat, command JSON)`` pairs of the commands still in effect, in log
order, and applies them with the game's ruleset to ``new_game(options, players, seed)``.
Undo entries cancel a command and, like a command, count one version; so before each
command the replayed state's version is set to the version that command was applied at,
and the rebuilt state equals the stored snapshot byte for byte (the same canonical JSON).
Works for any registered ruleset. The engine work runs in a worker thread (the engine is
pure and the states are private copies), so a long replay does not stall the event loop.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.errors import InvalidInput, RuleViolation, StaleState
from engine.core.model import GameState
from engine.core.ruleset import Ruleset, get_ruleset
from storage.errors import NothingToUndo, StorageError
from storage.records import DeadlineSpec, Game, LogEntry, LogKind, ModeratorAction
from storage.repository import Repository

_PAGE = 1000


@dataclass(frozen=True, slots=True)
class Verification:
    """The outcome of comparing a replay with the stored snapshot.

    Attributes:
        game_id: the game checked.
        ok: whether the replayed state's JSON equals the snapshot exactly.
        version: the stored version.
        commands: how many commands are in effect (replayed).
        difference: the JSON path where they first differ (``"hands.1[3]"``), the empty
            string for a difference in formatting only, None when ``ok``. Never the
            values, which may be hidden cards.
        error: the rule violation raised by replay, if a logged command no longer applies.
    """

    game_id: int
    ok: bool
    version: int
    commands: int
    difference: str | None = None
    error: str | None = None


async def read_full_log(repo: Repository, game_id: int) -> list[LogEntry]:
    """Return every entry of the game's log, unredacted, in seq order (for replay only)."""
    entries: list[LogEntry] = []
    after = 0
    while True:
        page = await repo.read_log_unredacted(game_id, after_seq=after, limit=_PAGE)
        entries.extend(page.entries)
        if not page.has_more or page.last_seq is None:
            return entries
        after = page.last_seq


def rebuild(
    ruleset: Ruleset[Any],
    game: Game,
    entries: Sequence[LogEntry],
    *,
    skip: frozenset[int] = frozenset(),
) -> GameState:
    """Replay ``entries`` (a game's whole log, in order) into the current state.

    :param skip: seqs of further commands to leave out (an undo being prepared).
    :raises StorageError: if the log has no setup entry or the game never started.
    :raises RuleViolation: if a logged command no longer applies (a replay mismatch).
    """
    if game.players is None:
        raise StorageError(f"Game #{game.id} has not started; there is nothing to replay.")
    undone = {e.undoes for e in entries if e.undoes is not None} | set(skip)
    options = ruleset.parse_options(game.options)
    state: GameState | None = None
    for entry in entries:
        if entry.kind is LogKind.SETUP:
            state, _ = ruleset.new_game(options, game.players, game.seed)
        elif state is None:
            continue  # moderator entries written in the lobby
        elif entry.kind is LogKind.COMMAND and entry.seq not in undone:
            assert entry.seat is not None and entry.command_json is not None
            state.version = entry.version_after - 1
            state, _ = ruleset.apply(state, entry.seat, entry.command_json)
        elif entry.action is ModeratorAction.UNDO:
            state.version = entry.version_after
    if state is None:
        raise StorageError(f"Game #{game.id} has no setup entry in its log.")
    return state


async def replay_game(
    repo: Repository, game_id: int, ruleset: Ruleset[Any] | None = None
) -> GameState:
    """Rebuild game ``game_id`` from its seed, options and log.

    :param ruleset: the game's ruleset (default: the registered one named by the game).
    :returns: the rebuilt state; its ``dump_state`` equals the stored snapshot when the
        game is consistent (see `verify_game`).
    :raises GameNotFound | StorageError: for an unknown or unstarted game.
    :raises RuleViolation: if a logged command no longer applies.
    """
    game = await repo.get_game(game_id)
    rules = ruleset or get_ruleset(game.ruleset)
    entries = await read_full_log(repo, game_id)
    return await asyncio.to_thread(rebuild, rules, game, entries)


async def verify_game(
    repo: Repository, game_id: int, ruleset: Ruleset[Any] | None = None
) -> Verification:
    """Replay game ``game_id`` and compare it with the stored snapshot (a moderator's verify).

    Does not write anything; log the outcome with `Repository.record_verification`.

    :raises GameNotFound | StorageError: for an unknown or unstarted game.
    """
    game = await repo.get_game(game_id)
    rules = ruleset or get_ruleset(game.ruleset)
    entries = await read_full_log(repo, game_id)
    commands = sum(1 for e in entries if e.kind is LogKind.COMMAND) - sum(
        1 for e in entries if e.undoes is not None
    )
    try:
        replayed = Ruleset.dump_state(await asyncio.to_thread(rebuild, rules, game, entries))
    except RuleViolation as error:
        return Verification(game.id, False, game.version, commands, error=error.message)
    if replayed == game.state_json:
        return Verification(game.id, True, game.version, commands)
    stored: Any = json.loads(game.state_json) if game.state_json else None
    where = first_difference(json.loads(replayed), stored)
    return Verification(game.id, False, game.version, commands, difference=where or "")


async def verify_games(
    repo: Repository,
    game_ids: Iterable[int],
    ruleset_for: Callable[[str], Ruleset[Any]] | None = None,
) -> tuple[int, list[Verification]]:
    """Replay each game of ``game_ids`` and compare it with its snapshot (`verify_game`);
    a game that cannot be replayed at all (no setup entry, an unknown ruleset) counts as
    failed with that error. Writes nothing.

    :param ruleset_for: the ruleset of a game's ``ruleset`` id (default: the registry).
    :returns: how many matched, and the failed verifications in ``game_ids``' order.
    """
    verified, failed = 0, []
    for game_id in game_ids:
        try:
            ruleset = None
            if ruleset_for is not None:
                ruleset = ruleset_for((await repo.get_game(game_id)).ruleset)
            verification = await verify_game(repo, game_id, ruleset)
        except (StorageError, InvalidInput, ValueError) as error:
            version = (await repo.get_game(game_id)).version
            verification = Verification(game_id, False, version, 0, error=str(error))
        if verification.ok:
            verified += 1
        else:
            failed.append(verification)
    return verified, failed


def first_difference(left: Any, right: Any, path: str = "") -> str | None:
    """Return the JSON path where ``left`` and ``right`` first differ, or None if equal.

    Paths look like ``players[2].hand`` (the root is ``""``).
    """
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right), key=str):
            inner = f"{path}.{key}" if path else str(key)
            if key not in left or key not in right:
                return inner
            found = first_difference(left[key], right[key], inner)
            if found is not None:
                return found
        return None
    if isinstance(left, list) and isinstance(right, list):
        for index, (a, b) in enumerate(zip(left, right, strict=False)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found is not None:
                return found
        return None if len(left) == len(right) else f"{path}[{min(len(left), len(right))}]"
    return None if left == right and type(left) is type(right) else path


async def undo_last_command(
    repo: Repository,
    game_id: int,
    *,
    expected_version: int,
    moderator_user_id: int | None,
    reason: str,
    ruleset: Ruleset[Any] | None = None,
) -> LogEntry:
    """Undo the last command in effect: replay the log without it and log the undo.

    The undo gets its own version (``expected_version + 1``), so a button from before it
    is stale. Undoing again undoes the command before, and so on. A finished game becomes
    active again.

    :returns: the ``undo`` log entry (its ``undoes`` names the cancelled command).
    :raises NothingToUndo: if no command is in effect.
    :raises StaleState: if the game moved on meanwhile.
    :raises GameNotFound | WrongGameStatus | ChannelBusy: see `Repository.record_undos`.
    """
    entries = await undo_last_commands(
        repo,
        game_id,
        count=1,
        expected_version=expected_version,
        moderator_user_id=moderator_user_id,
        reason=reason,
        ruleset=ruleset,
    )
    return entries[0]


async def undo_last_commands(
    repo: Repository,
    game_id: int,
    *,
    count: int,
    expected_version: int,
    moderator_user_id: int | None,
    reason: str,
    ruleset: Ruleset[Any] | None = None,
    expected_seqs: Sequence[int] | None = None,
    deadlines: Callable[[GameState], Awaitable[Sequence[DeadlineSpec]]] | None = None,
) -> list[LogEntry]:
    """Undo the last ``count`` commands in effect as ONE commit (`Repository.record_undos`):
    the log is replayed once without all of them, and an undo entry per command is logged
    (newest first, a version each, ``expected_version + 1 .. + count``). A crash or a
    refusal half-way leaves the game as it was, never half undone.

    :param expected_seqs: the seqs the caller planned to undo (newest first); when given,
        any other last ``count`` commands refuse (the log changed since the plan).
    :param deadlines: when given, asked for the deadlines of the restored position (its
        argument, at its final version) before the write; they replace the game's
        deadlines in the same transaction (`Repository.record_undos`).
    :returns: the ``undo`` entries, newest undone command first.
    :raises NothingToUndo: if fewer than ``count`` commands are in effect, or they are not
        ``expected_seqs``.
    :raises StaleState: if the game moved on meanwhile.
    :raises ValueError: if ``count`` is below 1.
    :raises GameNotFound | WrongGameStatus | ChannelBusy: see `Repository.record_undos`.
    """
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    game = await repo.get_game(game_id)
    if game.version != expected_version:
        raise StaleState(
            f"This undo was asked for move {expected_version}, but the game is now at move "
            f"{game.version}. Look at the current position and try again."
        )
    rules = ruleset or get_ruleset(game.ruleset)
    entries = await read_full_log(repo, game_id)
    undone = {e.undoes for e in entries if e.undoes is not None}
    in_effect = [e for e in entries if e.kind is LogKind.COMMAND and e.seq not in undone]
    if not in_effect:
        raise NothingToUndo(f"Game #{game_id} has no move to undo.")
    if len(in_effect) < count:
        raise NothingToUndo(
            f"Game #{game_id} has only {len(in_effect)} moves in effect, not {count}."
        )
    seqs = [e.seq for e in reversed(in_effect[-count:])]
    if expected_seqs is not None and list(expected_seqs) != seqs:
        raise NothingToUndo(
            f"The moves to undo in game #{game_id} changed since they were chosen; "
            "nothing was undone."
        )
    state = await asyncio.to_thread(rebuild, rules, game, entries, skip=frozenset(seqs))
    state.version = game.version + count
    return await repo.record_undos(
        game_id,
        undone_seqs=seqs,
        expected_version=expected_version,
        state=state,
        moderator_user_id=moderator_user_id,
        reason=reason,
        deadlines=None if deadlines is None else await deadlines(state),
    )
