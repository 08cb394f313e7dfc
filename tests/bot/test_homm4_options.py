"""The homm4 ``options`` text of /game new and /game options: read, written back,
suggested, validated, shown in the lobby and /game status; Campaign Heroes carried from a
finished game to the channel's next one (homm4:advanced-rules, homm4:game-variants)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.errors import BadOption
from bot.homm4.options_text import options_text, parse_options_text, suggest_options
from engine.core.errors import InvalidInput
from engine.homm4 import variants
from engine.homm4.options import Homm4Options
from engine.homm4.ruleset import Homm4Ruleset
from storage.records import GameStatus
from tests.bot.service_helpers import CHANNEL, GUILD, make_service, person

HOMM4 = Homm4Ruleset()


@pytest.mark.rule("homm4:advanced-rules")
def test_every_word_sets_its_option_and_reads_back() -> None:
    text = (
        "morale luck flying native distance other-factions resurrection potions trading "
        "diplomacy teams=1+3/2+4 forces=6,4,2,1 heroes=2 predeveloped=1,1 artifacts=1,1 "
        "underground=2 campaign tournament=sections"
    )
    fields = parse_options_text(text)
    options = Homm4Options.model_validate(fields)
    assert options.morale and options.luck and options.flying and options.native_lands
    assert options.distance_penalties and options.other_faction_heroes and options.resurrection
    assert options.potions and options.resource_trading and options.diplomacy
    assert options.teams == ((0, 2), (1, 3))
    assert options.starting_forces is not None and options.starting_forces.units == (6, 4, 2, 1)
    assert options.starting_forces.heroes == 2
    assert options.pre_developed is not None
    assert (options.pre_developed.primary, options.pre_developed.treasure) == (1, 1)
    assert options.underground == 2 and options.campaign is not None
    assert options.deck_size == "tournament-sections"
    assert options_text(options.model_dump(mode="json")) == text
    assert options_text(Homm4Options().model_dump(mode="json")) == "none"
    assert Homm4Options.model_validate(parse_options_text("advanced")).summary()[:2] == [
        "Morale",
        "Luck",
    ]
    assert parse_options_text("teams=red+green/blue+orange")["teams"] == [[0, 2], [1, 3]]
    assert Homm4Options.model_validate(parse_options_text("none")) == Homm4Options()


@pytest.mark.rule("homm4:advanced-rules")
def test_bad_words_are_refused_with_what_is_allowed() -> None:
    with pytest.raises(BadOption, match=r"'moral' is not a game option\. Did you mean 'morale'"):
        parse_options_text("moral")
    with pytest.raises(BadOption, match="4 whole numbers"):
        parse_options_text("forces=6,4")
    with pytest.raises(BadOption, match="not a seat"):
        parse_options_text("teams=1+9/2+3")
    with pytest.raises(BadOption, match="tournament= is 60 or sections"):
        parse_options_text("tournament=40")


@pytest.mark.rule("homm4:advanced-rules")
def test_suggestions_add_one_unused_word_to_what_was_typed() -> None:
    first = suggest_options("")
    assert len(first) <= 25 and first[0][1] == "morale"
    after = suggest_options("morale lu")
    assert [v for _, v in after] == ["morale luck"]
    values = [v for _, v in suggest_options("morale ")]
    assert "morale morale" not in values and "morale luck" in values
    assert all(len(n) <= 100 and len(v) <= 100 for n, v in first)


async def test_the_host_chooses_options_and_status_lists_them(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        out = await service.new_game(
            person(1), CHANNEL, guild_id=GUILD, options="morale luck distance"
        )
        assert "options: morale luck distance" in out.posts[0].text
        with pytest.raises(BadOption, match="not a game option"):
            await service.set_options(person(1), CHANNEL, options="moral")
        await service.set_options(person(1), CHANNEL, options="teams=1+3/2+4 potions")
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None and game.options["teams"] == [[0, 2], [1, 3]]
        assert game.options["morale"] is False, "the text replaces the whole list"
        pairs = await service.autocomplete(
            person(1), ("game", "options"), "options", "teams=1+3/2+4 pot", channel_id=CHANNEL
        )
        assert pairs and pairs[0][1] == "teams=1+3/2+4 potions"
        await service.add_ai(person(1), CHANNEL, count=3)
        await service.start(person(1), CHANNEL)
        status = await service.status(person(1), CHANNEL)
        assert status.reply is not None
        assert "Options in effect: Potions of Immortality; Team Play (seats 1+3 vs 2+4)" in (
            status.reply.text
        )
    finally:
        await repo.close()


async def test_team_play_with_the_wrong_seat_count_is_refused_at_the_start(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, options="teams=1+3/2+4")
        await service.add_ai(person(1), CHANNEL, count=1)
        with pytest.raises(InvalidInput, match="every one of the 2 seats"):
            await service.start(person(1), CHANNEL)
    finally:
        await repo.close()


@pytest.mark.rule("homm4:game-variants.campaigns")
async def test_survivors_of_a_finished_game_join_the_next_campaign_game(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, seed=5)
        await service.add_ai(person(1), CHANNEL, count=1)
        await service.start(person(1), CHANNEL)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None
        # play the game out: person 1 answers with the computer player's choices
        rng = random.Random(5)
        for _ in range(4000):
            game = await repo.get_game(game.id)
            if game.status is not GameStatus.ACTIVE:
                break
            state = HOMM4.load_state(game.state_json)  # type: ignore[arg-type]
            pending = [d for d in HOMM4.pending(state) if d.seat == 0]
            if not pending:
                await service.status(person(1), CHANNEL)
                continue
            command = HOMM4.ai_command(state, 0, rng)
            batch = await service.new_batch(game.id)
            await service.commit_step(batch, 0, command, actor_user_id=1, by=None)
            await service.play_automatic(batch)
        game = await repo.get_game(game.id)
        assert game.status is GameStatus.FINISHED
        state = HOMM4.load_state(game.state_json)  # type: ignore[arg-type]
        saved = await repo.campaign_heroes(CHANNEL)
        expected = [h for h in variants.survivors(state) if h.seat == 0]
        assert [s.hero["hero"] for s in saved] == [h.hero for h in expected]
        assert all(s.user_id == 1 for s in saved), "the computer seat's Heroes are not kept"
        # the next game in the channel, with options:campaign
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, options="campaign", seed=6)
        await service.add_ai(person(1), CHANNEL, count=1)
        await service.start(person(1), CHANNEL)
        nxt = await repo.game_in_channel(CHANNEL)
        assert nxt is not None and nxt.id != game.id
        new_state = HOMM4.load_state(nxt.state_json)  # type: ignore[arg-type]
        carried = new_state.options.campaign
        assert carried is not None
        assert [h.hero for h in carried.heroes] == [h.hero for h in expected]
        assert all(h.seat == 0 for h in carried.heroes)
    finally:
        await repo.close()


@pytest.mark.rule("homm4:advanced-rules.diplomacy")
def test_deal_commands_are_offered_only_when_their_rule_is_on() -> None:
    from bot.adapters import adapter_for
    from bot.errors import WrongStage
    from bot.homm4 import commands as table
    from tests.homm4.adventure_helpers import started

    for rule in (False, True):
        state = started(seed=11, diplomacy=rule)
        decision = HOMM4.pending(state)[0]
        ctx = table.PlayContext(state, 0, HOMM4.legal_commands(state, 0), decision)
        listed = {s.path for s in adapter_for("homm4").specs_for(decision)}
        assert (("deal", "pay") in listed) == rule
        assert ("deal", "sell") not in listed, "Resource Trading is off"
        if rule:
            table.require_phase(("deal", "pay"), ctx)
        else:
            with pytest.raises(WrongStage, match="options:diplomacy"):
                table.require_phase(("deal", "pay"), ctx)
