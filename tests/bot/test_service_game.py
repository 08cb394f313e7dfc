"""Whole homm4 games through the GameService: people played by the test (clicks and slash
commands choosing legal moves), computer seats played by the service, up to the victory;
and the check that no private card ever reaches the channel."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.homm4 import adapter
from storage.records import GameStatus
from tests.bot.service_helpers import (
    RecordingRenderer,
    channel_texts,
    click_choice,
    current,
    make_service,
    named_cards,
    person,
    slash_choice,
    started_game,
)

MAX_ACTIONS = 4000


@pytest.mark.rule("homm4:victory")
async def test_two_people_play_a_whole_game_by_clicks_and_slash_commands(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=2, ai=0, seed=5)
        seats = {s.seat: s for s in await repo.seats(game.id)}
        actions = 0
        while actions < MAX_ACTIONS:
            row, state = await current(service, game.id)
            if row.status is not GameStatus.ACTIVE:
                break
            owed = HOMM4_pending_seat(state)
            actor = person(seats[owed].user_id or 0)
            if owed == 0:
                out = await click_choice(service, game.id, actor, owed)
            else:
                out = await slash_choice(service, game.id, actor, owed)
            assert out.reply is not None and out.reply.text.startswith("✅")
            actions += 1
        row, state = await current(service, game.id)
        assert row.status is GameStatus.FINISHED
        assert row.result is not None and row.result["finished"] is True
        assert len(row.result["winners"]) == 1
        assert state.phase == "over"
        alive = [p.seat for p in state.players_state if not p.eliminated]
        assert alive == list(row.result["winners"])
        verdict = await service.mod_verify(person(9, moderator=True), row.channel_id)
        assert "exactly the stored position" in verdict.posts[0].text
    finally:
        await repo.close()


def HOMM4_pending_seat(state: object) -> int:
    from engine.homm4 import RULESET

    pending = RULESET.pending(state)  # type: ignore[arg-type]
    assert pending, "the game waits for nobody"
    return pending[0].seat


def _hidden(state: object) -> set[int]:
    """Cards in any Hand, Risk Stack or draw deck."""
    return adapter.private_cards(state)  # type: ignore[arg-type]


def _prompt_texts(out: object) -> list[str]:
    """What the service itself wrote in the channel (prompts, labels), not event lines."""
    texts = [t for t in channel_texts(out) if "\n" not in t]  # type: ignore[arg-type]
    lines = [line for post in out.posts for line in post.text.splitlines()]  # type: ignore[attr-defined]
    return texts + [line for line in lines if line.startswith(("➡️", "🏆"))]


async def _event_lines_never_name_hidden_cards(repo: object, game_id: int) -> int:
    """Replay the log command by command: no public event line names a card that was in a
    Hand, Risk Stack or deck both before and after its command. Returns the lines checked."""
    from engine.homm4 import RULESET
    from storage.records import LogKind
    from storage.replay import read_full_log

    game = await repo.get_game(game_id)  # type: ignore[attr-defined]
    entries = await read_full_log(repo, game_id)  # type: ignore[arg-type]
    state, _ = RULESET.new_game(RULESET.parse_options(game.options), game.players, game.seed)
    checked = 0
    for entry in entries:
        if entry.kind is not LogKind.COMMAND:
            continue
        before = _hidden(state)
        state.version = entry.version_after - 1
        state, _ = RULESET.apply(state, entry.seat, entry.command_json)
        still = before & _hidden(state)
        texts = [e.text for e in entry.events]
        assert not named_cards(texts) & still, texts
        checked += len(texts)
    return checked


@pytest.mark.rule("homm4:card-types")
@pytest.mark.parametrize(("seed", "humans", "ai"), [(23, 1, 1), (101, 2, 1), (108, 1, 1)])
@pytest.mark.slow
async def test_no_private_card_reaches_the_channel(
    tmp_path: Path, seed: int, humans: int, ai: int
) -> None:
    renderer = RecordingRenderer()
    repo, service = await make_service(tmp_path, renderer=renderer)
    try:
        game = await started_game(service, humans=humans, ai=ai, seed=seed)
        seats = {s.seat: s for s in await repo.seats(game.id)}
        actions = pictures = battles = 0
        while actions < MAX_ACTIONS:
            row, state = await current(service, game.id)
            if row.status is not GameStatus.ACTIVE:
                break
            owed = HOMM4_pending_seat(state)
            renderer.shown.clear()
            out = await click_choice(service, game.id, person(seats[owed].user_id or 0), owed)
            _, after = await current(service, game.id)
            hidden = _hidden(after)
            leaked = named_cards(_prompt_texts(out)) & hidden
            assert not leaked, f"the service named hidden cards {leaked}: {_prompt_texts(out)}"
            for kind, instances in renderer.shown:
                assert not instances & hidden, f"the {kind} picture showed hidden cards"
                pictures += 1
                battles += kind == "battle"
            humans_ids = {s.user_id for s in seats.values() if not s.is_ai}
            assert {dm.user_id for dm in out.dms} <= humans_ids
            actions += 1
        row, _ = await current(service, game.id)
        assert row.status is GameStatus.FINISHED
        assert pictures > 5 and battles >= 1
        assert await _event_lines_never_name_hidden_cards(repo, game.id) > 50
        log = await repo.read_log(game.id, limit=1000)
        for entry in log.entries:
            assert entry.command_json is None
            assert all(not e.private for e in entry.events)
    finally:
        await repo.close()
