"""Commands racing for one game, through the real bot and the fake Discord (issue 21).

A typed command carries no version (a button does), so the service notes the version it
read when the command arrived, and under the game's lock refuses the command if its seat
had a command committed since: the same command sent twice at once applies once. A seat
that changed hands while its old player's move waited (``/mod replace``) refuses that move
under the lock, and two ``/mod undo`` at once undo one move.

Each race is made certain, never left to timing: the test holds the game's lock (or stops
a call on an `asyncio.Event`) until every racing command has read the game and waits.
"""

from __future__ import annotations

import asyncio
import importlib
import random
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.adapters import PlayRequest, adapter_for
from bot.discord_bot import HeroesBot
from bot.errors import ServiceError
from bot.service import GameService
from engine.core.errors import RuleViolation
from engine.core.model import GameState
from engine.core.ruleset import Ruleset, get_ruleset
from storage.records import Game, LogKind
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord, FakeUser, InteractionResult
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

SlashFor = Callable[[Any], tuple[tuple[str, ...], dict[str, Any]]]

GUARD = 60.0
"""Seconds before a wait that should end at once counts as a hang (a guard, not a timing)."""


def _request(rules: Ruleset[Any], state: GameState, seat: int) -> PlayRequest:
    owed = next((d for d in rules.pending(state) if d.seat == seat), None)
    legal = rules.legal_commands(state, seat) if owed is not None else []
    return PlayRequest(state=state, seat=seat, legal=legal, decision=owed)


def repeatable(
    ruleset: str, state: GameState, seat: int
) -> tuple[tuple[str, ...], dict[str, Any]] | None:
    """A typed command (path and options) of ``seat`` that the rules accept now and, typed
    again the same way, once more right after: the kind a double send applies twice."""
    rules = get_ruleset(ruleset)
    adapter = adapter_for(ruleset)
    slash_for: SlashFor = importlib.import_module(f"bot.{ruleset}.commands").slash_for
    for command in rules.legal_commands(state, seat):
        try:
            path, options = slash_for(command)
            built = adapter.build_command(tuple(path), _request(rules, state, seat), options)
            after, _ = rules.apply(state, seat, rules.parse_command(built))
            if not any(d.seat == seat for d in rules.pending(after)):
                continue
            again = adapter.build_command(tuple(path), _request(rules, after, seat), options)
            rules.apply(after, seat, rules.parse_command(again))
        except (RuleViolation, ServiceError, ValueError, KeyError):
            continue
        return tuple(path), options
    return None


async def advance_to_repeatable(
    service: GameService, game_id: int, people: dict[int, FakeUser], seed: int
) -> tuple[FakeUser, tuple[str, ...], dict[str, Any]]:
    """Play the ruleset's AI moves for the people (through the service: quick) until one
    of them owes a decision with a `repeatable` typed command; who, and the command."""
    rng = random.Random(seed)
    for _ in range(400):
        game = await service.repo.get_game(game_id)
        rules = get_ruleset(game.ruleset)
        state = rules.load_state(game.state_json or "")
        decision = rules.pending(state)[0]
        assert decision.seat in people, "the computer answers its own decisions"
        found = repeatable(game.ruleset, state, decision.seat)
        if found is not None:
            return people[decision.seat], *found
        command = rules.ai_command(state, decision.seat, rng)
        await service.act(game_id, decision.seat, command, actor_user_id=people[decision.seat].id)
    pytest.fail("no repeatable typed command came up")


@contextmanager
def arrivals(
    monkeypatch: pytest.MonkeyPatch, service: GameService, name: str, count: int
) -> Iterator[asyncio.Event]:
    """An event set once ``service.<name>`` was called ``count`` times (each call goes on
    to the real method)."""
    real = getattr(service, name)
    arrived = asyncio.Event()
    calls = 0

    def counting(*args: Any, **kwargs: Any) -> Awaitable[Any]:
        nonlocal calls
        calls += 1
        if calls >= count:
            arrived.set()
        result: Awaitable[Any] = real(*args, **kwargs)
        return result

    monkeypatch.setattr(service, name, counting)
    try:
        yield arrived
    finally:
        monkeypatch.setattr(service, name, real)


async def send_twice_at_once(
    fake: FakeDiscord,
    bot: HeroesBot,
    monkeypatch: pytest.MonkeyPatch,
    game_id: int,
    who: FakeUser,
    channel: Any,
    command: str,
    options: dict[str, Any],
) -> list[str]:
    """``who`` types the same command twice; both read the game before either applies
    (the test holds the game's lock until both wait for it). The two final replies."""
    service = bot.service
    results: list[InteractionResult] = []
    with arrivals(monkeypatch, service, "act", 2) as both:
        async with service.lock(game_id):
            results.append(await fake.slash(who, channel, command, **options))
            results.append(await fake.slash(who, channel, command, **options))
            await asyncio.wait_for(both.wait(), GUARD)
        await bot.wait_idle()
    return [(await r.final_message()).content for r in results]


async def commands_of(service: GameService, game: Game, seat: int, since: int) -> int:
    """How many commands were applied as ``seat`` after version ``since``."""
    page = await service.repo.read_log(game.id, limit=1000)
    return sum(
        1
        for e in page.entries
        if e.kind is LogKind.COMMAND and e.seat == seat and e.version_after > since
    )


async def _open(table: Table, fake: FakeDiscord, ruleset: str, humans: int) -> None:
    channel = table.channel
    options: dict[str, Any] = {"ruleset": ruleset, "players": 2}
    if ruleset == "mmh":
        options["options"] = "length:quick"
    await (
        await fake.slash(table.ann, channel, "game new", where="here", **options)
    ).final_message()
    if humans == 2:
        await (await fake.slash(table.bob, channel, "game join")).final_message()
    else:
        await (await fake.slash(table.ann, channel, "game add-ai", count=1)).final_message()
    await (await fake.slash(table.ann, channel, "game start")).final_message()


@pytest.mark.parametrize(
    ("ruleset", "humans", "seed"),
    [("heroforge", 1, 1), ("mmh", 1, 1), ("homm4", 2, 1)],
)
async def test_the_same_typed_command_sent_twice_at_once_applies_once(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ruleset: str,
    humans: int,
    seed: int,
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "race.db") as runner:
        bot = heroes_bot(runner)
        await _open(table, fake_discord, ruleset, humans)
        await bot.wait_idle()
        game = await bot.service.repo.game_in_channel(table.channel.id)
        assert game is not None
        people = {s.seat: s for s in await bot.service.repo.seats(game.id)}
        users = {u.id: u for u in (table.ann, table.bob)}
        humans_by_seat = {n: users[s.user_id] for n, s in people.items() if s.user_id in users}
        who, path, options = await advance_to_repeatable(bot.service, game.id, humans_by_seat, seed)
        seat = next(n for n, u in humans_by_seat.items() if u is who)
        before = await bot.service.repo.get_game(game.id)

        replies = await send_twice_at_once(
            fake_discord, bot, monkeypatch, game.id, who, table.channel, " ".join(path), options
        )

        applied = [r for r in replies if r.startswith("✅")]
        refused = [r for r in replies if "Your earlier command already moved the game" in r]
        assert len(applied) == 1 and len(refused) == 1, replies
        assert f"to move {before.version + 1}" in refused[0]
        assert "Send it again if you meant it twice" in refused[0]
        assert await commands_of(bot.service, before, seat, before.version) == 1
        # Sent again on purpose (after seeing the first), it applies: a second command.
        again = await fake_discord.slash(who, table.channel, " ".join(path), **options)
        assert (await again.final_message()).content.startswith("✅")
        await bot.wait_idle()
        assert await commands_of(bot.service, before, seat, before.version) == 2
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_two_seats_typing_at_once_both_apply(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Other seats' moves do not refuse a typed command, only its own seat's: ann and bob
    choose their mmh Heroes at once (one decision each), both choices apply."""
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "both.db") as runner:
        bot = heroes_bot(runner)
        service = bot.service
        await _open(table, fake_discord, "mmh", 2)
        await bot.wait_idle()
        game = await service.repo.game_in_channel(table.channel.id)
        assert game is not None
        rules = get_ruleset("mmh")
        users = {s.seat: s.user_id for s in await service.repo.seats(game.id)}
        by_id = {table.ann.id: table.ann, table.bob.id: table.bob}
        rng = random.Random(2)
        for _ in range(50):
            row = await service.repo.get_game(game.id)
            state = rules.load_state(row.state_json or "")
            owing = sorted({d.seat for d in rules.pending(state)})
            if len(owing) == 2:
                break
            seat = owing[0]
            await service.act(
                game.id, seat, rules.ai_command(state, seat, rng), actor_user_id=users[seat]
            )
        else:
            pytest.fail("no two decisions at once came up")
        slash_for: SlashFor = importlib.import_module("bot.mmh.commands").slash_for
        sends = []
        for seat in owing:
            path, options = slash_for(rules.ai_command(state, seat, rng))
            sends.append((by_id[users[seat] or 0], " ".join(path), options))
        results: list[InteractionResult] = []
        with arrivals(monkeypatch, service, "act", 2) as both:
            async with service.lock(game.id):
                for who, command, options in sends:
                    results.append(await fake_discord.slash(who, table.channel, command, **options))
                await asyncio.wait_for(both.wait(), GUARD)
            await bot.wait_idle()
        replies = [(await r.final_message()).content for r in results]
        assert all(r.startswith("✅") for r in replies), replies
        for seat in owing:
            assert await commands_of(service, row, seat, row.version) == 1
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_a_replaced_players_move_in_flight_is_refused(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann's typed move has passed the seat check when a moderator gives her seat to cara;
    it then waits for the game; under the lock the seat is cara's, so it is refused."""
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "replace.db") as runner:
        bot = heroes_bot(runner)
        service = bot.service
        await _open(table, fake_discord, "homm4", 2)
        await bot.wait_idle()
        game = await service.repo.game_in_channel(table.channel.id)
        assert game is not None
        rules = get_ruleset("homm4")
        state = rules.load_state(game.state_json or "")
        seats = {s.user_id: s.seat for s in await service.repo.seats(game.id)}
        red = seats[table.ann.id]
        slash_for: SlashFor = importlib.import_module("bot.homm4.commands").slash_for
        path, options = slash_for(rules.ai_command(state, red, random.Random(3)))

        real_act = service.act
        waiting, go_on = asyncio.Event(), asyncio.Event()

        async def held_act(*args: Any, **kwargs: Any) -> Any:
            waiting.set()  # past require_seat, before the lock
            await go_on.wait()
            return await real_act(*args, **kwargs)

        monkeypatch.setattr(service, "act", held_act)
        move = await fake_discord.slash(table.ann, table.channel, " ".join(path), **options)
        await asyncio.wait_for(waiting.wait(), GUARD)
        replaced = await fake_discord.slash(
            table.mod, table.channel, "mod replace", seat=str(red + 1), user=table.cara
        )
        assert "is now played by cara" in (await replaced.final_message()).content
        go_on.set()
        await bot.wait_idle()

        refusal = (await move.final_message()).content
        assert "You no longer hold" in refusal and "was not applied" in refusal, refusal
        after = await service.repo.get_game(game.id)
        assert after.version == game.version
        assert await commands_of(service, game, red, game.version) == 0
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_two_undos_at_once_undo_one_move(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "undo.db") as runner:
        bot = heroes_bot(runner)
        service = bot.service
        await _open(table, fake_discord, "homm4", 2)
        await bot.wait_idle()
        game = await service.repo.game_in_channel(table.channel.id)
        assert game is not None
        people = {s.seat: s for s in await service.repo.seats(game.id)}
        users = {table.ann.id: table.ann, table.bob.id: table.bob}
        rng = random.Random(5)
        rules = get_ruleset("homm4")
        for _ in range(3):  # three moves to undo from
            row = await service.repo.get_game(game.id)
            state = rules.load_state(row.state_json or "")
            seat = rules.pending(state)[0].seat
            user = users[people[seat].user_id or 0]
            await service.act(
                game.id, seat, rules.ai_command(state, seat, rng), actor_user_id=user.id
            )
        before = await service.repo.get_game(game.id)

        results: list[InteractionResult] = []
        real_lock = service.lock(game.id)
        with arrivals(monkeypatch, service, "lock", 2) as both:
            async with real_lock:
                for _ in range(2):
                    results.append(await fake_discord.slash(table.mod, table.channel, "mod undo"))
                await asyncio.wait_for(both.wait(), GUARD)
            await bot.wait_idle()

        replies = [(await r.final_message()).content for r in results]
        assert sum(r.startswith("Undone: log entries #") for r in replies) == 1, replies
        assert sum("so nothing was undone" in r for r in replies) == 1, replies
        after = await service.repo.get_game(game.id)
        assert after.version == before.version + 1
        page = await service.repo.read_log(game.id, limit=1000)
        assert sum(1 for e in page.entries if e.undoes is not None) == 1
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_standing_orders_of_a_replaced_player_in_flight_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann's /homm4 orders have passed the seat check when her seat goes to someone else;
    under the lock the seat is no longer hers, so her orders are not stored."""
    from bot.errors import NotSeated
    from bot.homm4.commands import ORDER_KINDS
    from tests.bot.service_helpers import make_service, person, started_game

    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=2, ai=0)
        real_lock = service.lock
        waiting, go_on = asyncio.Event(), asyncio.Event()
        gated = True

        class Gate:
            """The first lock taken (the orders') waits for the test before locking."""

            async def __aenter__(self) -> None:
                waiting.set()
                await go_on.wait()
                await real_lock(game.id).acquire()

            async def __aexit__(self, *exc: object) -> None:
                real_lock(game.id).release()

        def lock(game_id: int) -> Any:
            nonlocal gated
            if gated:
                gated = False
                return Gate()
            return real_lock(game_id)

        monkeypatch.setattr(service, "lock", lock)
        kind, (_, choices) = next(iter(ORDER_KINDS.items()))
        orders = asyncio.create_task(
            service.set_orders(person(1), game.channel_id, **{kind: choices[-1][1]})
        )
        await asyncio.wait_for(waiting.wait(), GUARD)
        await service.mod_replace(person(9, moderator=True), game.channel_id, seat="1", user=3)
        go_on.set()
        with pytest.raises(NotSeated, match="You no longer hold Red"):
            await orders
        assert await repo.standing_orders(game.id) == {}
    finally:
        await repo.close()
