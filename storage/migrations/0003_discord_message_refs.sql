-- Schema 3: the ids of the Discord messages the bot edits in place (keyed channel posts,
-- DM slots), so an edit after a restart finds its message. Losing a row is harmless (the
-- next message is sent anew). Times are INTEGER milliseconds since 1970-01-01 UTC.
--
-- Before schema 3, bot/discord_refs.py created a table of this name itself. Make sure one
-- exists, move it aside, create the real one and copy the rows over, so a database upgraded
-- from either starting point ends with exactly the same schema and keeps its ids.
CREATE TABLE IF NOT EXISTS discord_message_refs (
    scope       TEXT    NOT NULL,
    key         TEXT    NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
);

ALTER TABLE discord_message_refs RENAME TO discord_message_refs_before_schema_3;

CREATE TABLE discord_message_refs (
    scope       TEXT    NOT NULL,               -- post:{channel_id} or dm:{user_id}:{game_id}
    key         TEXT    NOT NULL,               -- the post's key or the DM slot
    channel_id  INTEGER NOT NULL,               -- a guild channel, thread or DM channel
    message_id  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
) WITHOUT ROWID;

INSERT INTO discord_message_refs (scope, key, channel_id, message_id, updated_at)
    SELECT scope, key, channel_id, message_id, updated_at
    FROM discord_message_refs_before_schema_3;

DROP TABLE discord_message_refs_before_schema_3;
