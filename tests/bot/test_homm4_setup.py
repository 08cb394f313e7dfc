"""The advanced rules' set-up decisions on the bot: Pre-developed Heroes chosen from one's
own deck in a DM multi-select, underground entrance coins placed in turn order from the
channel (homm4:game-variants.pre-developed-heroes, homm4:terrain-map-sections-with-underground).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import customids
from bot.homm4 import adapter
from bot.homm4.commands import develop_candidates, slash_for
from bot.outbox import Button, DirectMessage, Select
from engine.core.errors import IllegalMove
from engine.homm4 import RULESET as HOMM4
from engine.homm4 import board, zones
from engine.homm4.cards import ArtifactCard, SkillCard, SpellCard
from engine.homm4.commands import DevelopHero, PlaceEntrance
from engine.homm4.state import Homm4State
from tests.bot.service_helpers import (
    CHANNEL,
    GUILD,
    channel_texts,
    current,
    make_service,
    named_cards,
    person,
)


def _deck(state: Homm4State, seat: int) -> set[int]:
    return set(state.players_state[seat].deck)


def _select(dm: DirectMessage) -> Select:
    return next(c for c in dm.components if isinstance(c, Select))


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
async def test_each_player_picks_their_heroes_cards_from_their_own_deck_by_dm(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(
            person(1), CHANNEL, guild_id=GUILD, seed=3, options="predeveloped=1,1 artifacts=1,1"
        )
        await service.join(person(2), CHANNEL)
        out = await service.start(person(1), CHANNEL)
        game, state = await current(service, (await repo.game_in_channel(CHANNEL)).id)  # type: ignore[union-attr]
        assert state.phase == "develop"
        decks = {seat: _deck(state, seat) for seat in (0, 1)}
        assert not named_cards(channel_texts(out)) & (decks[0] | decks[1]), "no deck card"
        assert "\n".join(channel_texts(out)).count("chooses from their deck") == 2
        dms = {dm.user_id: dm for dm in out.dms if dm.slot == "decision"}
        assert set(dms) == {1, 2}, "both players choose at once, each in a DM"
        for user, seat in ((1, 0), (2, 1)):
            select = _select(dms[user])
            hero = next(h for s, h in state.to_develop if s == seat)
            assert select.custom_id.endswith(f":develop.{hero}")
            offered = [int(o.value) for o in select.options]
            assert offered == develop_candidates(state, seat)[:25]
            assert set(offered) <= decks[seat] and not set(offered) & decks[1 - seat]
            kinds = {type(zones.card(state, c)) for c in offered}
            assert kinds == {SkillCard, SpellCard, ArtifactCard}
            assert select.min_values == 2, "1 Primary + 1 Secondary Skill card at least"
            assert not named_cards([dms[user].text]) & decks[1 - seat]
            suggested = next(
                b for b in dms[user].components if isinstance(b, Button) and "Suggested" in b.label
            )
            assert suggested.style == "primary"
        default = HOMM4.default_command(state, 0)
        assert isinstance(default, DevelopHero)
        clicked = await service.click(
            person(1), _select(dms[1]).custom_id, [str(c) for c in reversed(default.cards)]
        )
        assert clicked.reply is not None and clicked.reply.ephemeral
        _, state = await current(service, game.id)
        hero = state.players_state[0].starting_stack[0]
        inv = state.inventories[hero]
        assert sorted([*inv.skills, *inv.spells, *inv.artifacts]) == sorted(default.cards)
        assert [d.seat for d in HOMM4.pending(state)] == [1]
        with pytest.raises(IllegalMove, match="Card #1 is not in your deck"):
            await service.run(
                person(2), ("setup", "develop"), {"cards": "#1"}, channel_id=CHANNEL, guild_id=GUILD
            )
        pairs = await service.autocomplete(
            person(2), ("setup", "develop"), "cards", "", {}, channel_id=CHANNEL
        )
        assert pairs and all(int(v.split("#")[-1]) in decks[1] for _, v in pairs[:5])
        theirs = HOMM4.default_command(state, 1)
        path, options = slash_for(theirs)
        assert path == ("setup", "develop")
        await service.run(person(2), path, options, channel_id=CHANNEL, guild_id=GUILD)
        _, state = await current(service, game.id)
        assert state.phase == "setup", "decks shuffled, board built: the usual set-up"
    finally:
        await repo.close()


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_the_develop_multi_select_builds_the_whole_command() -> None:
    assert adapter.command_from_cards("develop.25", ["31", "11"]) == {
        "type": "develop_hero",
        "cards": (31, 11),
        "hero": 25,
    }
    assert HOMM4.pending(_develop_state())[0].private


def _develop_state() -> Homm4State:
    options = HOMM4.parse_options({"pre_developed": {"primary": 1, "secondary": 1}})
    return HOMM4.new_game(options, 2, 3)[0]


@pytest.mark.rule("homm4:terrain-map-sections-with-underground")
async def test_entrance_coins_are_placed_in_turn_order_from_the_channel(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(
            person(1), CHANNEL, guild_id=GUILD, seed=4, assembly="manual", options="underground=2"
        )
        await service.join(person(2), CHANNEL)
        await service.start(person(1), CHANNEL)
        game = await repo.game_in_channel(CHANNEL)
        assert game is not None
        for _ in range(6):  # the six sections, by the moderators' skip (the default)
            await service.mod_skip(person(9, moderator=True), CHANNEL, reason="test")
        game, state = await current(service, game.id)
        assert state.phase == "entrances"
        decision = HOMM4.pending(state)[0]
        seat = decision.seat
        user = seat + 1
        legal = HOMM4.legal_commands(state, seat)
        default = HOMM4.default_command(state, seat)
        ui = adapter.decision_ui(state, seat, decision, game.id, legal, default)
        assert not ui.private, "the coins are public"
        select = next(c for c in ui.components if isinstance(c, Select))
        assert len(select.options) == 25 and "/setup entrance" in select.placeholder
        _, below = board.entrance_sites(state)
        shown_below = {o.label.split("<->")[1].split()[0] for o in select.options}
        assert len(shown_below) >= 2
        default_button = next(
            b for b in ui.components if isinstance(b, Button) and b.label.startswith("Default")
        )
        assert customids.decode(default_button.custom_id).action == "opt"
        assert select.options[0].description == "the default"
        pairs = await service.autocomplete(
            person(user), ("setup", "entrance"), "underground", "", {}, channel_id=CHANNEL
        )
        assert {v for _, v in pairs} == {board.label(state, s.hex) for s in below}
        first = legal[-1]
        assert isinstance(first, PlaceEntrance)
        out = await service.run(
            person(user),
            ("setup", "entrance"),
            {"surface": first.surface.lower(), "underground": first.underground},
            channel_id=CHANNEL,
            guild_id=GUILD,
        )
        assert any("places entrance coin 1" in t for t in channel_texts(out))
        _, state = await current(service, game.id)
        assert board.coins_placed(state) == 1
        assert HOMM4.pending(state)[0].seat == (seat + 1) % 2, "then the next seat"
        assert adapter.picture_after(None, state, [first]) == "board"
    finally:
        await repo.close()


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_a_big_deck_shows_25_cards_and_names_the_slash_command() -> None:
    from tests.homm4.adventure_helpers import add_card

    state = _develop_state()
    for _ in range(30):
        state.players_state[0].deck.append(add_card(state, 0, "bless"))
    decision = HOMM4.pending(state)[0]
    ui = adapter.decision_ui(
        state, 0, decision, 1, HOMM4.legal_commands(state, 0), HOMM4.default_command(state, 0)
    )
    select = next(c for c in ui.components if isinstance(c, Select))
    total = len(develop_candidates(state, 0))
    assert len(select.options) == 25 and total > 25
    assert f"25 of {total} shown; /setup develop for the others" in select.placeholder
    assert ui.private
