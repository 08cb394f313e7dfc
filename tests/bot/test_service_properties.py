"""Random play through the GameService for every ruleset (issue 21's property test): people
click the buttons of random legal commands or type them, ask for the status and their
hands, and send random illegal input (a click on an older position, a damaged option, a
seat or a spectator acting out of turn, a command with a changed option, one that does
not exist). After every step: the public view and every seat's view build, a refusal left
the game's version and state as they were (and input that had to be refused was), and
the ruleset's audit holds.

The fast test plays the first steps of one game per ruleset; the ``slow`` one plays whole
games with several seeds. A failure names the ruleset, the seed and the step.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import engine.rulesets  # noqa: F401  (registers every shipped ruleset)
from bot import customids
from bot.errors import USER_ERRORS
from bot.outbox import Outbox
from bot.service import GameService
from engine.core.model import Command, GameState
from engine.core.ruleset import get_ruleset
from storage.records import Game, GameStatus
from tests.bot.service_helpers import (
    CHANNEL,
    GUILD,
    FakeClock,
    current,
    make_service,
    person,
    started_game,
)

SPECTATOR = 77
"""A person in the channel without a seat."""

Send = Callable[[], Awaitable[Outbox]]


@dataclass(frozen=True)
class Action:
    """One thing a person does: ``what`` (for messages), how to ``send`` it, and whether
    it must be refused (None: either way is right, e.g. a command with a changed option
    that may still be legal)."""

    what: str
    send: Send
    must_refuse: bool | None = False
    legal: bool = False


@dataclass
class Play:
    """A game played at random through ``service`` and what was seen."""

    service: GameService
    game_id: int
    ruleset: str
    seed: int
    users: dict[int, int]
    rng: random.Random
    problems: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    step: int = 0

    def note(self, problem: str) -> None:
        self.problems.append(f"{self.ruleset} seed {self.seed} step {self.step}: {problem}")

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    # ------------------------------------------------------------------- checks
    def check_position(self, state: GameState) -> None:
        """The public view and every seat's view build; the audit holds."""
        rules = get_ruleset(state.ruleset)
        try:
            rules.public_view(state)
        except Exception as error:
            self.note(f"the public view does not build: {type(error).__name__}: {error}")
        for seat in range(state.players):
            try:
                rules.view(state, seat)
            except Exception as error:
                self.note(f"seat {seat}'s view does not build: {type(error).__name__}: {error}")
        self.problems += [
            f"{self.ruleset} seed {self.seed} step {self.step}: audit: {p}"
            for p in rules.audit(state)
        ]

    # ------------------------------------------------------------------ actions
    def actor(self, seat: int) -> Any:
        user = next(u for u, s in self.users.items() if s == seat)
        return person(user)

    def click(self, who: Any, game: Game, version: int, token: str) -> Send:
        custom_id = customids.encode(game.id, version, "opt", token)
        return lambda: self.service.click(who, custom_id, channel_id=CHANNEL, guild_id=GUILD)

    def typed(self, who: Any, path: tuple[str, ...], options: dict[str, Any]) -> Send:
        return lambda: self.service.run(who, path, options, channel_id=CHANNEL, guild_id=GUILD)

    def slash(self, command: Command) -> tuple[tuple[str, ...], dict[str, Any]] | None:
        table = importlib.import_module(f"bot.{self.ruleset}.commands")
        try:
            path, options = table.slash_for(command)
        except (KeyError, ValueError, TypeError):
            return None
        return tuple(path), dict(options)

    def choose(self, game: Game, state: GameState) -> Action:
        """A random action: mostly a legal command of an owing person (clicked or typed),
        sometimes the status or a hand, sometimes illegal input."""
        rules, rng = get_ruleset(state.ruleset), self.rng
        owing = sorted({d.seat for d in rules.pending(state)} & set(self.users.values()))
        if not owing:
            return Action("/game status", lambda: self.service.status(person(SPECTATOR), CHANNEL))
        seat = rng.choice(owing)
        legal = rules.legal_commands(state, seat)
        if rng.random() < 0.5:
            index = rng.randrange(len(legal))
        else:
            pick = rules.ai_command(state, seat, rng)
            index = legal.index(pick) if pick in legal else 0
        command = legal[index]
        token = customids.option_token(index, command.model_dump_json())
        idle = [s for s in self.users.values() if s not in owing]
        roll = rng.random()
        if roll < 0.03:
            return Action("/game status", lambda: self.service.status(person(SPECTATOR), CHANNEL))
        if roll < 0.06:
            who = self.actor(rng.choice(sorted(self.users.values())))
            return Action("/hand", lambda: self.service.hand(who, CHANNEL))
        if roll < 0.30:
            return self.illegal(game, state, seat, command, token, idle)
        typed = self.slash(command) if roll > 0.8 else None
        if typed is not None:
            path, options = typed
            return Action(
                f"seat {seat} types /{' '.join(path)} {options}",
                self.typed(self.actor(seat), path, options),
                legal=True,
            )
        return Action(
            f"seat {seat} clicks {command.model_dump_json()}",
            self.click(self.actor(seat), game, state.version, token),
            legal=True,
        )

    def illegal(
        self,
        game: Game,
        state: GameState,
        seat: int,
        command: Command,
        token: str,
        idle: list[int],
    ) -> Action:
        """Input the rules or the service refuse (or may refuse: a changed option)."""
        rng, said = self.rng, command.model_dump_json()
        kinds = ["stale click", "damaged option", "spectator click", "unknown command"]
        kinds += ["changed option", "spectator types"]
        if idle:
            kinds += ["idle click", "idle types"]
        kind = rng.choice(kinds)
        self.count(kind)
        typed = self.slash(command)
        if kind == "stale click" and state.version > 0:
            return Action(
                f"seat {seat} clicks {said} of version {state.version - 1}",
                self.click(self.actor(seat), game, state.version - 1, token),
                True,
            )
        if kind == "damaged option":
            # The index is only a hint (`customids.find_option`): the hash must not match.
            damaged = f"{token.partition('.')[0]}.zzzzzz"
            return Action(
                f"seat {seat} clicks the damaged option {damaged!r}",
                self.click(self.actor(seat), game, state.version, damaged),
                True,
            )
        if kind == "spectator click":
            return Action(
                f"a spectator clicks {said}",
                self.click(person(SPECTATOR), game, state.version, token),
                True,
            )
        if kind == "idle click":
            other = rng.choice(idle)
            return Action(
                f"idle seat {other} clicks seat {seat}'s {said}",
                self.click(self.actor(other), game, state.version, token),
                True,
            )
        if typed is None or kind == "unknown command":
            path = (self.ruleset, "no-such-command")
            return Action(
                f"seat {seat} types /{' '.join(path)}", self.typed(self.actor(seat), path, {}), True
            )
        path, options = typed
        if kind == "spectator types":
            return Action(
                f"a spectator types /{' '.join(path)} {options}",
                self.typed(person(SPECTATOR), path, options),
                True,
            )
        if kind == "idle types":
            other = rng.choice(idle)
            return Action(
                f"idle seat {other} types seat {seat}'s /{' '.join(path)} {options}",
                self.typed(self.actor(other), path, options),
                True,
            )
        changed = dict(options)
        if changed and rng.random() < 0.8:
            key = rng.choice(sorted(changed))
            changed[key] = rng.choice(["", "ZZ99", "-1", "#999", "x" * 120, 10**6, -3, 0])
        else:
            changed["no-such-option"] = "1"
        return Action(
            f"seat {seat} types /{' '.join(path)} {changed} (from {options})",
            self.typed(self.actor(seat), path, changed),
            None,
        )


async def play_randomly(
    tmp_path: Path,
    ruleset: str,
    *,
    seed: int,
    steps: int,
    humans: int = 2,
    ai: int = 0,
    **options: Any,
) -> Play:
    """Play up to ``steps`` random actions of a new game (see the module docstring)."""
    repo, service = await make_service(tmp_path, clock=FakeClock())
    try:
        game = await started_game(
            service, humans=humans, ai=ai, seed=seed, ruleset=ruleset, **options
        )
        users = {s.user_id: s.seat for s in await repo.seats(game.id) if s.user_id and not s.is_ai}
        play = Play(service, game.id, ruleset, seed, users, random.Random(seed))
        for play.step in range(steps):
            row, state = await current(service, game.id)
            play.check_position(state)
            if row.status is not GameStatus.ACTIVE:
                play.count("finished")
                break
            action = play.choose(row, state)
            try:
                await action.send()
            except USER_ERRORS as error:
                refused = True
                if action.legal:
                    play.note(f"{action.what}: a legal command was refused: {error}")
            except Exception as error:
                play.note(f"{action.what}: raised {type(error).__name__}: {error}")
                break
            else:
                refused = False
            after, _ = await current(service, game.id)
            if refused:
                play.count("refused")
                if (after.version, after.state_json) != (row.version, row.state_json):
                    play.note(f"{action.what}: refused, yet the game changed")
            elif action.must_refuse:
                play.note(f"{action.what}: accepted (version {row.version} -> {after.version})")
            elif action.legal and after.version <= row.version:
                play.note(f"{action.what}: a legal command did not land")
            else:
                play.count("accepted")
        else:
            row, state = await current(service, game.id)
            play.check_position(state)
        return play
    finally:
        await repo.close()


GAMES = [
    pytest.param("homm4", 2, 0, {}, id="homm4"),
    pytest.param("homm4", 1, 1, {}, id="homm4-computer"),
    pytest.param("homm3", 2, 0, {}, id="homm3-skirmish"),
    pytest.param("homm3", 2, 0, {"mode": "adventure"}, id="homm3-adventure"),
    pytest.param("homm3", 2, 0, {"size": "large", "siege": True}, id="homm3-siege"),
    pytest.param("mmh", 2, 0, {"length": "quick"}, id="mmh"),
    pytest.param("mmh", 3, 0, {"length": "quick"}, id="mmh-three"),
    pytest.param("heroforge", 2, 0, {}, id="heroforge"),
    pytest.param("heroforge", 1, 1, {}, id="heroforge-computer"),
]


@pytest.mark.parametrize(("ruleset", "humans", "ai", "options"), GAMES)
async def test_random_play_keeps_views_refusals_and_audit_sound(
    tmp_path: Path, ruleset: str, humans: int, ai: int, options: dict[str, Any]
) -> None:
    play = await play_randomly(tmp_path, ruleset, seed=5, steps=80, humans=humans, ai=ai, **options)
    assert not play.problems, "\n".join(play.problems[:10])
    assert play.counts.get("refused", 0) >= 5 and play.counts.get("accepted", 0) >= 20


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("ruleset", "humans", "ai", "options"), GAMES)
async def test_whole_random_games_keep_views_refusals_and_audit_sound(
    tmp_path: Path, ruleset: str, humans: int, ai: int, options: dict[str, Any], seed: int
) -> None:
    play = await play_randomly(
        tmp_path, ruleset, seed=seed, steps=3000, humans=humans, ai=ai, **options
    )
    assert not play.problems, "\n".join(play.problems[:10])
    assert play.counts.get("finished") == 1, f"{ruleset} seed {seed}: did not end"
