"""/deck import through the real bot and the fake Discord: a slash option cannot hold line
breaks, so without ``text`` the bot opens a form whose paragraph field keeps them; the
form still works when the bot restarted while it was open."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.homm4.cards import load_card_pool
from engine.homm4.decks import deck_text
from tests.bot.discord_helpers import Table, deleted_placeholders, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


def asylum_list() -> str:
    """The ready-made Asylum deck as a pasted list, one card per line, without counts for
    single cards (``Asylum``), as people copy it from elsewhere."""
    text = deck_text(dict(load_card_pool().decks["deck_asylum"].cards))
    return "\n".join(line.removeprefix("1x ") for line in text.splitlines())


@pytest.mark.rule("homm4:setup")
async def test_deck_import_without_text_opens_a_form_that_keeps_line_breaks(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    db = tmp_path / "heroes.db"
    pasted = asylum_list()
    assert "\nAshkara\nKestrel\n" in pasted, "single cards are named without a count"
    async with running_bot(fake_discord, db) as runner:
        opened = await fake_discord.slash(table.bob, table.channel, "deck import", name="Mad")
        assert opened.response is not None and opened.response.name == "modal"
        assert opened.response.elapsed < 3
        form = opened.modal
        assert form["custom_id"] == "htdeck:Mad" and form["title"] == "Import deck Mad"
        submitted = await fake_discord.submit_modal(table.bob, opened, {"text": pasted})
        await heroes_bot(runner).wait_idle()
        saved = await submitted.final_message()
        assert saved.ephemeral and saved.content.startswith("Saved deck **Mad**")
        assert "40 cards" in saved.content
        # A form opened now and sent after a restart still saves its deck.
        again = await fake_discord.slash(table.bob, table.channel, "deck import", name="Later")
        runner.assert_no_errors()
    async with running_bot(fake_discord, db) as runner:
        late = await fake_discord.submit_modal(table.bob, again, {"text": pasted})
        await heroes_bot(runner).wait_idle()
        assert (await late.final_message()).content.startswith("Saved deck **Later**")
        listed = await fake_discord.slash(table.bob, table.channel, "deck list")
        content = (await listed.final_message()).content
        assert "Mad" in content and "Later" in content
        runner.assert_no_errors()
    assert table.channel.public_messages() == [], "deck lists are private"
    assert deleted_placeholders(fake_discord) == []
    fake_discord.assert_no_violations()
