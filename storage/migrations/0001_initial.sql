-- Schema 1: games, seats, the append-only game log, saved decks, guild settings, deadlines.
-- Times are INTEGER milliseconds since 1970-01-01 UTC; JSON is stored as TEXT.

CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    channel_id    INTEGER NOT NULL,              -- Discord channel or thread
    guild_id      INTEGER,                       -- NULL outside a guild (console, tests)
    ruleset       TEXT    NOT NULL,
    options       TEXT    NOT NULL DEFAULT '{}', -- JSON object; final once started
    seed          INTEGER NOT NULL,
    host_user_id  INTEGER,
    status        TEXT    NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'active', 'paused', 'finished', 'abandoned')),
    players       INTEGER CHECK (players IS NULL OR players >= 1),
    version       INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    state         TEXT,                          -- JSON snapshot; NULL in the lobby
    result        TEXT,                          -- JSON result once finished
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    ended_at      INTEGER,
    CHECK (status NOT IN ('active', 'paused') OR (state IS NOT NULL AND players IS NOT NULL))
);

-- One open game per channel; ended games stay as an archive.
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active', 'paused');
CREATE INDEX games_by_channel ON games (channel_id, id);
CREATE INDEX games_by_guild ON games (guild_id, id);

CREATE TABLE decks (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL,
    ruleset     TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    cards       TEXT    NOT NULL,                -- JSON array of card ids
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    UNIQUE (user_id, ruleset, name)
);

CREATE TABLE seats (
    game_id        INTEGER NOT NULL REFERENCES games (id),
    seat           INTEGER NOT NULL CHECK (seat >= 0),
    user_id        INTEGER,                      -- NULL exactly for a computer seat
    display_name   TEXT    NOT NULL,
    is_ai          INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
    dm_reachable   INTEGER CHECK (dm_reachable IN (0, 1)),  -- NULL: not yet known
    ready_deck     TEXT,
    saved_deck_id  INTEGER REFERENCES decks (id) ON DELETE SET NULL,
    joined_at      INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK (is_ai = (user_id IS NULL)),
    CHECK (ready_deck IS NULL OR saved_deck_id IS NULL)
) WITHOUT ROWID;

CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE game_log (
    game_id        INTEGER NOT NULL REFERENCES games (id),
    seq            INTEGER NOT NULL CHECK (seq >= 1),
    kind           TEXT    NOT NULL CHECK (kind IN ('setup', 'command', 'moderator')),
    action         TEXT    CHECK (action IN ('pause', 'resume', 'undo', 'replace', 'kick',
                                             'end', 'deadline', 'verify')),
    actor_user_id  INTEGER,
    seat           INTEGER,
    command        TEXT,                         -- JSON of the engine command
    reason         TEXT,
    details        TEXT    NOT NULL DEFAULT '{}',-- JSON object (public)
    events         TEXT    NOT NULL DEFAULT '[]',-- JSON array of events (public + private)
    undoes         INTEGER,                      -- the command seq an undo cancelled
    version_after  INTEGER NOT NULL CHECK (version_after >= 0),
    created_at     INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, undoes) REFERENCES game_log (game_id, seq),
    CHECK ((kind = 'command') = (command IS NOT NULL)),
    CHECK (kind <> 'command' OR seat IS NOT NULL),
    CHECK ((kind = 'moderator') = (action IS NOT NULL)),
    CHECK ((action IS 'undo') = (undoes IS NOT NULL))
) WITHOUT ROWID;

-- A command is undone at most once; replay finds undone commands through this index.
CREATE UNIQUE INDEX game_log_undone_once ON game_log (game_id, undoes) WHERE undoes IS NOT NULL;

CREATE TRIGGER game_log_no_update BEFORE UPDATE ON game_log
BEGIN
    SELECT RAISE(ABORT, 'the game log is append-only');
END;

CREATE TRIGGER game_log_no_delete BEFORE DELETE ON game_log
BEGIN
    SELECT RAISE(ABORT, 'the game log is append-only');
END;

CREATE TABLE guild_settings (
    guild_id            INTEGER PRIMARY KEY,
    moderator_role_id   INTEGER,
    turn_deadline_s     INTEGER CHECK (turn_deadline_s IS NULL OR turn_deadline_s > 0),
    reminder_every_s    INTEGER CHECK (reminder_every_s IS NULL OR reminder_every_s > 0),
    updated_at          INTEGER NOT NULL
);

CREATE TABLE deadlines (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    kind        TEXT    NOT NULL,
    due_at      INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, kind)
) WITHOUT ROWID;

CREATE INDEX deadlines_by_due ON deadlines (due_at);
