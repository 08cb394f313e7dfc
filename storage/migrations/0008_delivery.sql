-- Schema 8: nothing a commit owes the players is lost (issue 15, a transactional outbox).
-- Times are INTEGER milliseconds since 1970-01-01 UTC.
--
-- Every logged command (and a game's setup) leaves a row here IN THE SAME STATEMENT that
-- logs it (the commit is one INSERT into commit_requests, schema 5; its trigger inserts the
-- log entry, and this table's trigger below fires inside that statement). So a move is
-- never stored without the note that its news (the channel post naming whose turn it is,
-- the ping, the DMs) is still owed. The bot deletes the rows of a batch of commits once
-- its messages were handed to Discord; at start-up it delivers the news of every row left
-- (a bot killed between a commit and its messages), rebuilt from the log and the states
-- replayed from it, so no message text is stored twice and nothing private is stored
-- outside the log. The table holds only what is still owed: a handful of rows at most.
CREATE TABLE undelivered_commits (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    version     INTEGER NOT NULL,               -- the version the command (or setup: 0) left
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID;

CREATE TRIGGER undelivered_commits_on_log AFTER INSERT ON game_log
    WHEN NEW.kind IN ('command', 'setup')
BEGIN
    INSERT OR IGNORE INTO undelivered_commits (game_id, version, created_at)
        VALUES (NEW.game_id, NEW.version_after, NEW.created_at);
END;

-- The channel messages of a batch's news are posted under keys in the scope
-- 'news:{game_id}:{version}' of discord_message_refs (schema 3), so a second delivery
-- edits them instead of posting again. They are only needed until the news is delivered:
-- deleting a version's row drops them in the same statement.
CREATE TRIGGER undelivered_commits_refs AFTER DELETE ON undelivered_commits
BEGIN
    DELETE FROM discord_message_refs
        WHERE scope = 'news:' || OLD.game_id || ':' || OLD.version;
END;

-- The closed-DM fallback: DMs that could not reach their user (DMs closed), shown to them
-- as ephemeral messages at their next interaction. Per (user, game) the latest 'hand' and
-- 'decision' DM are kept (a newer one replaces the older), and the latest five 'notice'
-- DMs per user. ``message`` is the DM as JSON (text, buttons, pictures in base64): it may
-- hold the user's own private cards, exactly as the DM would have, and is shown to
-- nobody else (only while the user still holds a seat in the game).
CREATE TABLE held_direct_messages (
    id          INTEGER PRIMARY KEY,            -- arrival order
    user_id     INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,
    slot        TEXT    NOT NULL CHECK (slot IN ('hand', 'decision', 'digest', 'notice')),
    message     TEXT    NOT NULL,
    created_at  INTEGER NOT NULL
);

CREATE INDEX held_direct_messages_by_user ON held_direct_messages (user_id, game_id, slot);
