-- Schema 7 (PostgreSQL twin of ../0007_undo_requests.sql): a waiting /undo request.
CREATE TABLE undo_requests (
    game_id     BIGINT  PRIMARY KEY REFERENCES games (id),
    version     BIGINT  NOT NULL CHECK (version >= 0),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    user_id     BIGINT  NOT NULL,
    from_seq    BIGINT  NOT NULL,
    needed      TEXT    NOT NULL DEFAULT '[]',  -- JSON array of seats who must agree
    agreed      TEXT    NOT NULL DEFAULT '[]',  -- JSON array of seats who agreed
    created_at  BIGINT  NOT NULL,
    FOREIGN KEY (game_id, from_seq) REFERENCES game_log (game_id, seq)
);
