"""Who is acting: the `Actor` every `GameService` call receives from its caller.

The service never sees discord.py objects. The Discord layer (or the local console) builds
an `Actor` from the interaction: the user's id and name, whether they may moderate in this
guild (Manage Server, or the guild's configured moderator role), whether they manage the
server, whether the action comes from a direct message, and which channel permissions
the bot lacks there (by name). The service checks moderator rights again itself.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Actor:
    """The person behind one action.

    Attributes:
        user_id: the Discord user id (a snowflake; the console uses small numbers).
        display_name: the name to show in the game (server nickname or user name).
        is_moderator: True when the caller found Manage Server or the guild's moderator
            role on the member. False in DMs (no guild there).
        in_dm: True when the action comes from a direct message with the bot.
        manages_server: True when the member has Manage Server in this guild (then also
            a moderator); only they may change who the moderators are (`/settings role:`).
        bot_missing: the channel permissions a game needs that the bot lacks where the
            action comes from, by the names Discord shows in a channel's settings
            (``("Attach Files", "Embed Links")``; `bot.discord_bot.missing_permissions`
            fills it). Empty when nothing is missing, at the console and in DMs.
    """

    user_id: int
    display_name: str
    is_moderator: bool = False
    in_dm: bool = False
    manages_server: bool = False
    bot_missing: tuple[str, ...] = ()

    @property
    def mention(self) -> str:
        """The Discord mention of the user (``<@123>``)."""
        return f"<@{self.user_id}>"
