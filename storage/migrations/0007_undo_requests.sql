-- Schema 7: a player's request to take back their last move (/undo) while it waits for the
-- consent of the other players concerned. At most one per game; it lapses when the game's
-- version moves on (any move or undo), and the service then treats it as gone. Times are
-- INTEGER milliseconds since 1970-01-01 UTC.
CREATE TABLE undo_requests (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    version     INTEGER NOT NULL CHECK (version >= 0),  -- the game's version when asked
    seat        INTEGER NOT NULL CHECK (seat >= 0),     -- the seat asking
    user_id     INTEGER NOT NULL,                       -- the player asking
    from_seq    INTEGER NOT NULL,                       -- the asker's command: it and every
                                                        -- command in effect after it go
    needed      TEXT    NOT NULL DEFAULT '[]',          -- JSON array of seats who must agree
    agreed      TEXT    NOT NULL DEFAULT '[]',          -- JSON array of seats who agreed
    created_at  INTEGER NOT NULL,
    FOREIGN KEY (game_id, from_seq) REFERENCES game_log (game_id, seq)
);
