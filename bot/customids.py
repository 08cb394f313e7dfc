"""Component custom ids: which game, at which state version, which action, which arguments.

Buttons and select menus outlive the process that sent them, so everything a click needs
is in its custom id (at most 100 characters, Discord's limit)::

    ht:<game id>:<version>:<action>[:<arg>...]

Numbers are base 36 to save room. ``version`` is the game's state version when the
component was sent; `GameService.click` refuses a click whose version is no longer the
game's (the engine's `StaleState`, which says why) — so an old button never acts on a
newer position. Actions (see `bot.service` for what each does): ``opt`` (one of the legal
commands: its index in `Ruleset.legal_commands` and a short hash of its JSON, so a changed
enumeration is detected), ``pick`` (a select menu whose values are such ``index.hash``
pairs), ``cards`` (a multi-select of card ids building one command), ``hand``, ``status``,
``log`` (page before a seq), ``join``, ``leave``, ``start``, ``ai``, ``skipv`` (a vote
to play the default for the seat in its argument, whose deadline passed: `bot.deadlines`), ``undo`` (``y`` or
``n`` and the asker's command's seq: an answer to a player's undo request, `bot.undo`; a
request belongs to the version it was asked at and lapses with it), ``me`` (a page of
``/me games``, `bot.me`: game and version 0, of no game).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

PREFIX = "ht"
"""The first field of every custom id this bot makes (other ids are not ours)."""

MAX_LENGTH = 100
"""Discord's limit on a custom id (characters)."""

_ARG = re.compile(r"^[A-Za-z0-9_.+\-~]*$")


class CustomIdError(ValueError):
    """A custom id that this bot did not make, or one that was damaged."""


def _b36(value: int) -> str:
    if value < 0:
        raise ValueError(f"custom id numbers must be non-negative, got {value}")
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        value, rest = divmod(value, 36)
        out = digits[rest] + out
        if value == 0:
            return out


MAX_NUMBER = 2**63 - 1
"""The largest number a custom id may carry (SQLite's largest integer): a larger one was
not made by this bot, and asking the database about it would overflow."""


def _from_b36(text: str) -> int:
    try:
        value = int(text, 36)
    except ValueError:
        raise CustomIdError(f"not a number: {text!r}") from None
    if value > MAX_NUMBER:
        raise CustomIdError(f"number out of range: {text[:20]!r}")
    return value


@dataclass(frozen=True, slots=True)
class CustomId:
    """A decoded custom id.

    Attributes:
        game_id: the game the component belongs to.
        version: the game's state version when it was sent.
        action: what the click does (``opt``, ``pick``, ``cards``, ``hand``...).
        args: the action's arguments (short strings of ``[A-Za-z0-9_.+-~]``).
    """

    game_id: int
    version: int
    action: str
    args: tuple[str, ...] = ()

    def encode(self) -> str:
        """Return the custom id text (``ht:c:1f:opt:3.a1b2``).

        :raises ValueError: if an argument has a forbidden character or the result is
            longer than `MAX_LENGTH`.
        """
        for part in (self.action, *self.args):
            if not _ARG.match(part):
                raise ValueError(f"custom id part {part!r} has a forbidden character")
        text = ":".join((PREFIX, _b36(self.game_id), _b36(self.version), self.action, *self.args))
        if len(text) > MAX_LENGTH:
            raise ValueError(f"custom id is {len(text)} characters; the limit is {MAX_LENGTH}")
        return text


def encode(game_id: int, version: int, action: str, *args: str | int) -> str:
    """Build and encode a custom id; integer arguments are written in base 36.

    :raises ValueError: see `CustomId.encode`.
    """
    parts = tuple(_b36(a) if isinstance(a, int) else a for a in args)
    return CustomId(game_id, version, action, parts).encode()


def decode(text: str) -> CustomId:
    """Read a custom id made by `encode`.

    :raises CustomIdError: if ``text`` is not one of ours or is malformed.
    """
    parts = text.split(":")
    if len(parts) < 4 or parts[0] != PREFIX:
        raise CustomIdError(f"not a Heroes Table component id: {text[:40]!r}")
    return CustomId(_from_b36(parts[1]), _from_b36(parts[2]), parts[3], tuple(parts[4:]))


def is_ours(text: str) -> bool:
    """Whether ``text`` looks like a custom id made by this module (cheap prefix check)."""
    return text.startswith(PREFIX + ":")


def arg_int(text: str) -> int:
    """Read an integer argument written by `encode` (base 36).

    :raises CustomIdError: if it is not a number.
    """
    return _from_b36(text)


def command_hash(command_json: str) -> str:
    """A short (5 hex digits) fingerprint of a command's canonical JSON.

    Stored next to an option index so that a click never applies a different command
    than the one its button showed, even if the enumeration of legal commands changed.
    """
    return hashlib.blake2s(command_json.encode("utf-8"), digest_size=4).hexdigest()[:5]


def option_token(index: int, command_json: str) -> str:
    """The ``index.hash`` token of one legal command (a button arg or a select value)."""
    return f"{_b36(index)}.{command_hash(command_json)}"


def read_option_token(token: str) -> tuple[int, str]:
    """Split an ``index.hash`` token into ``(index, hash)``.

    :raises CustomIdError: if malformed.
    """
    index, sep, digest = token.partition(".")
    if not sep or not digest:
        raise CustomIdError(f"not an option token: {token!r}")
    return _from_b36(index), digest


def find_option(commands_json: Sequence[str], index: int, digest: str) -> int | None:
    """Which of the legal commands (their canonical JSON, in order) an option token means.

    The token's ``index`` counts among the commands its message offered, which may be
    fewer than the legal ones (a channel message leaves out those naming private cards,
    so that its numbers do not tell how many there are): the command at ``index`` when
    its hash matches, else the only legal command with that hash. None when no command,
    or more than one, has it (the player chooses again).
    """
    if 0 <= index < len(commands_json) and command_hash(commands_json[index]) == digest:
        return index
    found = [i for i, text in enumerate(commands_json) if command_hash(text) == digest]
    return found[0] if len(found) == 1 else None
