-- Schema 3 (PostgreSQL twin of ../0003_discord_message_refs.sql): the ids of the Discord
-- messages the bot edits in place. (No older table to carry over: PostgreSQL came later.)
CREATE TABLE discord_message_refs (
    scope       TEXT    NOT NULL,               -- post:{channel_id} or dm:{user_id}:{game_id}
    key         TEXT    NOT NULL,               -- the post's key or the DM slot
    channel_id  BIGINT  NOT NULL,
    message_id  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL,
    PRIMARY KEY (scope, key)
);
