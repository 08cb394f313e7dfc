"""A whole two-player homm3 game through the real discord.py bot and the fake Discord.

ann and bob open a Skirmish with ``/game new ruleset:homm3``, join and start it, then play
every decision the way people do: clicking the button or select option that offers the
move when one is on screen (in the channel, a reply or their DMs: the private choices go
by DM), typing ``/homm3 <group> <command>`` otherwise and for every fourth move (the
engine's AI chooses each move). After every move no public message names a card that was
hidden before and after it. At the end: the victory post; the Battlefield (and in an
Adventure the Adventure panel) pictures, each after its focus, shown in the channel at
some point (the game's panel is edited in place, a new picture replacing the one before)
and the panel showing the final position's; no error in the bot, no broken Discord
limit, every acknowledgement within 3 s.
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path

import pytest

from bot.homm3.adapter import private_cards
from bot.homm3.commands import slash_for
from engine.homm3 import RULESET as HOMM3
from engine.homm3.state import Homm3State
from storage.records import GameStatus
from tests.bot.discord_helpers import (
    RecordingRenderer,
    Table,
    game_panel,
    heroes_bot,
    running_bot,
    shown_pictures,
)
from tests.bot.ruleset_driver import RulesetDriver
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

MAX_STEPS = 1500
MAP_SEED = 1
"""The map game's seed: with the driver's computer choices (seed 5) a game that ends in a
victory (most Border Clash games between computer players end in a draw)."""
_CARD = re.compile(r"#(\d+)")
_NOT_CARDS = re.compile(
    r"(?i)game #\d+|entr(?:y|ies)(?:[ ,]+(?:and )?#\d+)+|<[@#&!]+\d+>|<t:\d+(:\w)?>"
)


SHOWN_EVENTS = frozenset({"play", "discard", "vortex"})
"""Event kinds whose ``data["card"]`` / ``data["cards"]`` were face up during the move (a
Spell cast, then taken back into the hand in the same action; a card discarded to the
Mana Vortex and shuffled into the deck), as in tests/bot/test_privacy_review.py."""


class Homm3Driver(RulesetDriver):
    """Plays the game in the table's channel for ann (Red) and bob (Blue).

    Attributes:
        shown: the cards that were face up at some moment (in a discard pile or on the
            table before or after a move, or played during one): public from then on, so
            a log line naming one (the panel keeps earlier log lines) is no leak once the
            card is back in a hand.
    """

    def __init__(self, table: Table, bot: object) -> None:
        super().__init__(table, bot, HOMM3, slash_for, (table.ann, table.bob), seed=5)
        self.shown: set[int] = set()

    def check(self, before: Homm3State, after: Homm3State) -> None:
        """No public text names a card hidden before and after the move that was never
        shown face up (`shown`)."""
        for state in (before, after):
            self.shown |= set(state.cards) - private_cards(state)
        if self.last_move is not None:
            seat, command = self.last_move
            _, events = HOMM3.apply(before, seat, command)
            for event in events:
                if event.kind in SHOWN_EVENTS:
                    if "card" in event.data:
                        self.shown.add(int(event.data["card"]))
                    self.shown.update(int(c) for c in event.data.get("cards", ()))
        hidden = private_cards(before) & private_cards(after) - self.shown
        for text in self.new_public_texts():
            named = {int(n) for n in _CARD.findall(_NOT_CARDS.sub("", text))}
            assert not named & hidden, (
                f"a public message names hidden cards {named & hidden}: {text!r}"
            )


@pytest.mark.slow
@pytest.mark.rule("homm3bf:skirmish-mode.victory-condition")
async def test_a_two_player_homm3_skirmish_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    await _whole_game(
        fake_discord,
        tmp_path,
        "",
        {"choose_setup_remove", "place_obstacle", "deploy", "activation", "attack_window"},
    )


@pytest.mark.slow
@pytest.mark.rule("homm3bf:adventure-mode.victory-condition")
async def test_a_two_player_homm3_adventure_siege_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A short Adventure (9 rounds of Adventure cards and Town actions) ending in a Siege."""
    await _whole_game(
        fake_discord,
        tmp_path,
        "mode:adventure size:short siege",
        {"adventure_turn", "choose_adventure_keep", "deploy", "activation"},
        pictures={
            "adventure-focus.png",
            "adventure.png",
            "battlefield-focus.png",
            "battlefield.png",
        },
    )


@pytest.mark.slow
@pytest.mark.rule("homm3core:victory-conditions")
@pytest.mark.rule("homm3bf:battlefield-in-regular-games")
async def test_a_two_player_homm3_map_game_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Border Clash (``mode:map``) from /game new to a victory: refreshing hands, moves,
    discovering tiles, Town actions, Combats with Neutral Units on the Battlefield."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: MAP_SEED)
    state = await _whole_game(
        fake_discord,
        tmp_path,
        "mode:map",
        {"refresh_hand", "map_turn", "place_obstacle", "deploy", "activation"},
        pictures={"map-focus.png", "map.png", "battlefield-focus.png", "battlefield.png"},
        max_steps=4000,
    )
    assert state.mode == "map" and state.winners, state.reason
    assert "fulfil the victory condition" in (state.reason or "")


async def _whole_game(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    options: str,
    kinds: set[str],
    pictures: frozenset[str] | set[str] = frozenset({"battlefield-focus.png", "battlefield.png"}),
    max_steps: int = MAX_STEPS,
) -> Homm3State:
    """Play a whole game with the ``options`` text (after ``heroes:``, as typed in
    /game new's ``options:``) through the fake Discord; the decisions of
    ``kinds`` must come up, the ``pictures`` be shown in the channel at some point (the
    panel is edited in place) and the panel show the final position's."""
    table = Table.create(fake_discord)
    renderer = RecordingRenderer()
    async with running_bot(fake_discord, tmp_path / "h3.db", renderer=renderer) as runner:
        bot = heroes_bot(runner)
        driver = Homm3Driver(table, bot)
        channel = table.channel
        await driver.slash(
            table.ann,
            "game new",
            where="here",
            ruleset="homm3",
            players=2,
            options=f'heroes:"Catherine, Deemer" {options}'.strip(),
        )
        await driver.slash(table.bob, "game join")
        await driver.slash(table.ann, "game start")
        game, state = await driver.play_out(max_steps)
        assert game.status is GameStatus.FINISHED and HOMM3.result(state).finished
        texts = [m.text for m in channel.public_messages()]
        assert any("defeated every unit" in t for t in texts)
        assert pictures <= shown_pictures(channel)
        renderer.assert_panel_shows(game_panel(channel), "homm3", HOMM3.public_view(state))
        assert driver.clicks > 10 and driver.slashes > 5
        assert kinds <= driver.kinds
        dms = [m.text for m in fake_discord.dms(table.ann)]
        assert any("Hand" in t for t in dms)
        status = await driver.slash(table.bob, "game status")
        assert status.response is not None
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
    return state  # type: ignore[no-any-return]
