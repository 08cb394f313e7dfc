"""Suggestions and look-ups belong to the channel's game: /card's names and cards, the
/game new and /game options ``options:`` words and the ``deck:`` choices never come from
another ruleset (outside a game's channel, /card is the homm4 card pool)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import BadOption
from bot.service import GameService
from tests.bot.service_helpers import CHANNEL, GUILD, RecordingRenderer, make_service, person

OTHER_CHANNEL = CHANNEL + 1


async def _card_names(service: GameService, text: str, channel: int) -> list[tuple[str, str]]:
    return await service.autocomplete(person(1), ("card",), "name", text, channel_id=channel)


@pytest.mark.parametrize(
    ("ruleset", "own_text", "own_value"),
    [("mmh", "ravenous", "ghoul"), ("homm3", "scholar", "card:scholar")],
)
async def test_card_in_a_lobby_and_a_game_offers_only_that_game(
    tmp_path: Path, ruleset: str, own_text: str, own_value: str
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, ruleset=ruleset, seed=5)
        for stage in ("lobby", "game"):
            # "pikeman" is a homm4 card and nothing of this game: no suggestion at all
            assert await _card_names(service, "pikeman", CHANNEL) == [], stage
            with pytest.raises(BadOption, match="has nothing called 'Pikeman'") as refused:
                await service.card(person(1), CHANNEL, name="Pikeman")
            assert "Start typing a name to see suggestions." in str(refused.value.message)
            pairs = await _card_names(service, own_text, CHANNEL)
            assert own_value in [value for _, value in pairs], stage
            out = await service.card(person(1), CHANNEL, name=own_value)
            assert out.reply is not None and out.reply.text.startswith("**"), stage
            if stage == "lobby":
                await service.add_ai(person(1), CHANNEL, count=1)
                await service.start(person(1), CHANNEL)
        # the channel next door has no game: the homm4 pool, and only it
        assert await _card_names(service, "pikeman", OTHER_CHANNEL) == [
            ("Pikeman (unit)", "pikeman")
        ]
        assert await _card_names(service, own_text, OTHER_CHANNEL) == []
    finally:
        await repo.close()


async def test_a_refusal_in_a_game_channel_names_the_closest_of_its_own(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, ruleset="mmh", seed=5)
        with pytest.raises(BadOption) as refused:
            await service.card(person(1), CHANNEL, name="ghou")
        assert refused.value.message.startswith(
            "Might & Magic Heroes has nothing called 'ghou'; closest: Ghoul"
        )
    finally:
        await repo.close()


async def test_card_outside_a_game_is_the_homm4_pool_as_suggested(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path, renderer=RecordingRenderer())
    try:
        pairs = await _card_names(service, "dragon", CHANNEL)
        assert ("Black Dragon (unit)", "black_dragon") in pairs
        for label, value in pairs:  # every suggestion is what /card then shows
            out = await service.card(person(1), CHANNEL, name=value)
            assert out.reply is not None
            assert out.reply.text.startswith(f"**{label.rsplit(' (', 1)[0]}** (")
            assert [image.filename for image in out.reply.images] == [f"{value}.png"]
        assert await _card_names(service, "ravenous", CHANNEL) == [], "an mmh-only name"
        with pytest.raises(BadOption) as refused:
            await service.card(person(1), None, name="Ravenous Ghoul")
        assert refused.value.message == (
            "No card is called 'Ravenous Ghoul' (outside a game's channel /card looks in the "
            "pool of Heroes of Might & Magic IV: the card & tile game). Start typing a name to "
            "see suggestions."
        )
    finally:
        await repo.close()


async def _options_words(
    service: GameService, path: tuple[str, ...], text: str, **given: str
) -> list[str]:
    pairs = await service.autocomplete(person(1), path, "options", text, given, channel_id=CHANNEL)
    return [value for _, value in pairs]


@pytest.mark.rule("homm4:advanced-rules")
async def test_game_new_options_words_follow_the_chosen_ruleset(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        new = ("game", "new")
        assert await _options_words(service, new, "mor") == ["morale"], "homm4 by default"
        assert await _options_words(service, new, "mor", ruleset="homm4") == ["morale"]
        # every game's own words in the one options text, never another game's
        assert await _options_words(service, new, "", ruleset="mmh") == [
            "length:quick",
            "length:standard",
            "length:epic",
            "factions:",
        ]
        assert await _options_words(service, new, "mode:a", ruleset="homm3") == ["mode:adventure"]
        assert await _options_words(service, new, "mode:adventure s", ruleset="homm3") == [
            "mode:adventure size:short",
            "mode:adventure size:medium",
            "mode:adventure size:large",
            "mode:adventure siege:yes",
            "mode:adventure siege:no",
        ]
        for other in ("mmh", "homm3", "heroforge"):
            assert await _options_words(service, new, "mor", ruleset=other) == [], other
        # /game options follows the lobby's ruleset
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, ruleset="mmh", seed=5)
        assert await _options_words(service, ("game", "options"), "mor") == []
        assert await _options_words(service, ("game", "options"), "len") == [
            "length:quick",
            "length:standard",
            "length:epic",
        ]
        with pytest.raises(BadOption) as refused:
            await service.set_options(person(1), CHANNEL, options="morale")
        assert refused.value.message == (
            "'morale' is not an option of Might & Magic Heroes. Its options: "
            "length:quick|standard|epic, factions:text (written name:value)."
        )
        out = await service.set_options(
            person(1), CHANNEL, options="quick factions:haven,stronghold"
        )
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None and game.options["length"] == "quick"
        assert game.options["factions"] == ["haven", "stronghold"], out
    finally:
        await repo.close()


async def test_deck_choices_only_for_a_ruleset_with_decks(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:

        async def decks(path: tuple[str, ...], **given: str) -> list[str]:
            pairs = await service.autocomplete(
                person(1), path, "deck", "", given, channel_id=CHANNEL
            )
            return [value for _, value in pairs]

        assert "haven" in await decks(("game", "new"))
        assert "haven" in await decks(("game", "new"), ruleset="homm4")
        assert await decks(("game", "new"), ruleset="mmh") == []
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, ruleset="heroforge", seed=5)
        assert await decks(("game", "join")) == []
        assert await decks(("game", "deck")) == []
    finally:
        await repo.close()


async def test_hero_forge_card_refusal_is_the_common_one(tmp_path: Path) -> None:
    """Hero Forge's look-up answers None for an unknown name, so /card refuses in the
    words every game uses, naming the closest Hero Forge names (a misspelt unit)."""
    from bot.adapters import adapter_for

    assert adapter_for("heroforge").card_lookup("swordsmn") is None
    assert adapter_for("heroforge").card_lookup("swordsman") is not None
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, ruleset="heroforge", seed=5)
        with pytest.raises(BadOption) as refused:
            await service.card(person(1), CHANNEL, name="swordsmn")
        assert refused.value.message.startswith(
            "Hero Forge has nothing called 'swordsmn'; closest: Swordsman, "
        )
        assert refused.value.message.endswith(" Start typing a name to see suggestions.")
    finally:
        await repo.close()


def test_card_suggestions_rank_names_starting_with_the_text_first() -> None:
    """`ranked_names`, the one ranking of every ruleset's /card suggestions: names holding
    the text, those starting with it first, then by label, at most 25."""
    from bot.adapters import adapter_for, ranked_names

    pairs = [("Black Dragon (unit)", "b"), ("Dragon Fly (unit)", "d"), ("Imp (unit)", "i")]
    assert ranked_names(pairs, " DRAG ") == [
        ("Dragon Fly (unit)", "d"),
        ("Black Dragon (unit)", "b"),
    ]
    assert ranked_names(pairs, "", limit=2) == [
        ("Black Dragon (unit)", "b"),
        ("Dragon Fly (unit)", "d"),
    ]
    homm4 = adapter_for("homm4").card_names("black_drag")  # a card id matches too
    assert homm4 == [("Black Dragon (unit)", "black_dragon")]
    assert len(adapter_for("homm3").card_names("a")) == 25
