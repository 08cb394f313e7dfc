"""Every autocomplete answer is one Discord accepts (issue 16): at most 25 choices, each
with a name and a value of 1–100 characters (Discord refuses the whole answer otherwise,
and the player sees "Loading options failed").

For each ruleset a game is played with the computer's choices through the service, and at
many positions every option marked ``autocomplete`` of every command of `all_specs` is
asked for, with nothing typed and with the start of a value it suggested, as the seat that
owes a decision and as one that does not. The fast test visits the first positions of one
game per ruleset; the ``slow`` one plays longer games with more seeds.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine.rulesets  # noqa: F401  (registers every shipped ruleset)
from bot import customids
from bot.command_table import CommandSpec
from bot.commands import all_specs
from bot.service import GameService
from engine.core.ruleset import get_ruleset
from storage.records import GameStatus
from tests.bot.service_helpers import CHANNEL, GUILD, FakeClock, current, make_service, person

GAMES = [
    pytest.param("homm4", {}, id="homm4"),
    pytest.param("homm3", {}, id="homm3-skirmish"),
    pytest.param("homm3", {"mode": "adventure"}, id="homm3-adventure"),
    pytest.param("homm3", {"size": "large", "siege": True}, id="homm3-siege"),
    pytest.param("mmh", {"length": "quick"}, id="mmh"),
    pytest.param("heroforge", {}, id="heroforge"),
]


def asked(ruleset: str) -> list[tuple[CommandSpec, str]]:
    """Every ``(command, option)`` marked autocomplete that a game of ``ruleset`` answers:
    the shared commands' and the ruleset's own play commands' (another ruleset's play
    commands are not this game's and answer nothing)."""
    return [
        (spec, option.name)
        for spec in all_specs()
        if spec.ruleset in (None, ruleset)
        for option in spec.options
        if option.autocomplete
    ]


def problems_of(answer: list[tuple[str, str]], where: str) -> list[str]:
    """What Discord would refuse in ``answer``: more than 25 choices, a name or a value
    empty or over 100 characters."""
    found = [f"{where}: {len(answer)} choices"] if len(answer) > 25 else []
    for name, value in answer:
        if not 1 <= len(name) <= 100:
            found.append(f"{where}: name of {len(name)} characters {name[:120]!r}")
        if not 1 <= len(str(value)) <= 100:
            found.append(f"{where}: value of {len(str(value))} characters for {name[:60]!r}")
    return found


async def ask_everything(
    service: GameService, ruleset: str, users: dict[int, int], owing: set[int]
) -> tuple[list[str], int]:
    """Ask every autocomplete option of ``ruleset``'s game, "" and a prefix of a
    suggested value, as one owing seat and one idle seat; the problems and how many
    non-empty answers came back."""
    problems: list[str] = []
    answered = 0
    seats = sorted(users, key=lambda u: (users[u] not in owing, users[u]))
    askers = {seats[0], seats[-1]}
    for user in sorted(askers):
        actor = person(user)
        given: dict[tuple[str, ...], dict[str, str]] = {}
        for spec, option in asked(ruleset):
            where = f"/{' '.join(spec.path)} {option}: as seat {users[user]}"
            empty = await service.autocomplete(
                actor, spec.path, option, "", {}, channel_id=CHANNEL, guild_id=GUILD
            )
            problems += problems_of(empty, f"{where} with ''")
            # with the options before it filled in from their own first suggestion, as a
            # player picks them in order (the suggestions then fit those)
            earlier = given.setdefault(spec.path, {})
            if earlier:
                fitted = await service.autocomplete(
                    actor, spec.path, option, "", earlier, channel_id=CHANNEL, guild_id=GUILD
                )
                problems += problems_of(fitted, f"{where} after {earlier}")
                empty = fitted or empty
            if not empty:
                continue
            answered += 1
            value = str(empty[0][1])
            earlier[option] = value
            prefix = value[: max(1, len(value) // 2)]
            partial = await service.autocomplete(
                actor, spec.path, option, prefix, {}, channel_id=CHANNEL, guild_id=GUILD
            )
            problems += problems_of(partial, f"{where} with {prefix!r}")
    return problems, answered


async def play_and_ask(
    tmp_path: Path, ruleset: str, options: dict[str, object], *, seed: int, steps: int, every: int
) -> tuple[list[str], int, set[str]]:
    """Play up to ``steps`` moves (the computer's choice for whoever owes one, clicked as
    a button) and ask everything at every ``every``-th position; the problems found, the
    number of non-empty answers and the Phases visited."""
    repo, service = await make_service(tmp_path, clock=FakeClock())
    problems: list[str] = []
    answered = 0
    phases: set[str] = set()
    try:
        await service.new_game(
            person(1), CHANNEL, guild_id=GUILD, ruleset=ruleset, seed=seed, **options
        )
        await service.join(person(2), CHANNEL)
        await service.start(person(1), CHANNEL)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None
        users = {s.user_id: s.seat for s in await repo.seats(game.id) if s.user_id}
        rng = random.Random(seed)
        for step in range(steps):
            row, state = await current(service, game.id)
            if row.status is not GameStatus.ACTIVE:
                break
            rules = get_ruleset(ruleset)
            pending = rules.pending(state)
            owing = {d.seat for d in pending}
            if step % every == 0:
                phases.add(str(getattr(state, "phase", "")))
                found, count = await ask_everything(service, ruleset, users, owing)
                problems += [f"{ruleset} seed {seed} step {step}: {p}" for p in found]
                answered += count
            seat = min(owing)
            legal = rules.legal_commands(state, seat)
            pick = rules.ai_command(state, seat, rng)
            index = legal.index(pick) if pick in legal else 0
            token = customids.option_token(index, legal[index].model_dump_json())
            user = next(u for u, s in users.items() if s == seat)
            await service.click(
                person(user),
                customids.encode(game.id, state.version, "opt", token),
                channel_id=CHANNEL,
                guild_id=GUILD,
            )
        # the shared commands outside any game's channel, too
        for spec, option in asked(ruleset):
            if spec.ruleset is None:
                answer = await service.autocomplete(
                    person(1), spec.path, option, "", {}, channel_id=CHANNEL + 1, guild_id=GUILD
                )
                problems += problems_of(answer, f"/{' '.join(spec.path)} {option} elsewhere")
        return problems, answered, phases
    finally:
        await repo.close()


@pytest.mark.parametrize(("ruleset", "options"), GAMES)
async def test_every_autocomplete_answer_is_one_discord_accepts(
    tmp_path: Path, ruleset: str, options: dict[str, object]
) -> None:
    problems, answered, _ = await play_and_ask(
        tmp_path, ruleset, options, seed=3, steps=40, every=8
    )
    assert not problems, "\n".join(problems[:15])
    assert answered >= 10  # the game's own commands did answer


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 5])
@pytest.mark.parametrize(("ruleset", "options"), GAMES)
async def test_autocomplete_answers_hold_through_long_games(
    tmp_path: Path, ruleset: str, options: dict[str, object], seed: int
) -> None:
    problems, _, phases = await play_and_ask(
        tmp_path, ruleset, options, seed=seed, steps=600, every=5
    )
    assert not problems, "\n".join(problems[:15])
    assert len(phases) >= 2, phases
