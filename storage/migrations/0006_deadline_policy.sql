-- Schema 6: deadlines that act (issue 15). What a passed deadline does (the deadline
-- policy), away seats, extensions asked by players and votes to skip. Times are INTEGER
-- milliseconds since 1970-01-01 UTC, lengths INTEGER seconds.

-- The server's defaults and caps.
ALTER TABLE guild_settings ADD COLUMN deadline_policy TEXT NOT NULL DEFAULT 'remind'
    CHECK (deadline_policy IN ('remind', 'default', 'computer'));
ALTER TABLE guild_settings ADD COLUMN away_after INTEGER NOT NULL DEFAULT 2
    CHECK (away_after >= 1);                    -- missed deadlines in a row that make a seat away
ALTER TABLE guild_settings ADD COLUMN away_max_s INTEGER NOT NULL DEFAULT 259200
    CHECK (away_max_s >= 0);                    -- how far ahead /game away may reach
ALTER TABLE guild_settings ADD COLUMN extensions INTEGER NOT NULL DEFAULT 2
    CHECK (extensions >= 0);                    -- /game extend per seat and game
ALTER TABLE guild_settings ADD COLUMN extension_s INTEGER NOT NULL DEFAULT 86400
    CHECK (extension_s >= 0);                   -- the longest one extension

-- A game's own policy (NULL: the server's).
ALTER TABLE game_settings ADD COLUMN deadline_policy TEXT
    CHECK (deadline_policy IS NULL OR deadline_policy IN ('remind', 'default', 'computer'));

-- Per seat of a started game: missed deadlines in a row, an away period chosen by the
-- player, and the extensions used. No row: nothing missed, not away, none used.
CREATE TABLE seat_presence (
    game_id          INTEGER NOT NULL REFERENCES games (id),
    seat             INTEGER NOT NULL CHECK (seat >= 0),
    missed           INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0),
    away_until       INTEGER,                   -- /game away until this time; NULL: not
    extensions_used  INTEGER NOT NULL DEFAULT 0 CHECK (extensions_used >= 0),
    extended_turn    INTEGER,                   -- the turn of the last /game extend
    updated_at       INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- Votes to play the default for a seat whose deadline passed, at one version of the game
-- (a vote at an older version counts for nothing).
CREATE TABLE skip_votes (
    game_id        INTEGER NOT NULL REFERENCES games (id),
    seat           INTEGER NOT NULL CHECK (seat >= 0),   -- the seat that owes the decision
    version        INTEGER NOT NULL,
    voter_user_id  INTEGER NOT NULL,
    created_at     INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, version, voter_user_id)
) WITHOUT ROWID;

-- Kept with the commit that logs the command, in the same statement: a command the seat's
-- own player gave (a person, nobody acting for them) ends a run of missed deadlines and an
-- away period; a command a passed deadline gave (its reason starts 'deadline missed')
-- adds one missed deadline.
CREATE TRIGGER seat_presence_on_command AFTER INSERT ON game_log
    WHEN NEW.kind = 'command' AND NEW.seat IS NOT NULL
BEGIN
    UPDATE seat_presence SET missed = 0, away_until = NULL, updated_at = NEW.created_at
        WHERE NEW.actor_user_id IS NOT NULL AND NEW.reason IS NULL
          AND game_id = NEW.game_id AND seat = NEW.seat;
    INSERT INTO seat_presence (game_id, seat, missed, updated_at)
        SELECT NEW.game_id, NEW.seat, 1, NEW.created_at
        WHERE NEW.reason LIKE 'deadline missed%'
        ON CONFLICT (game_id, seat) DO UPDATE SET missed = missed + 1,
                                                  updated_at = excluded.updated_at;
END;
