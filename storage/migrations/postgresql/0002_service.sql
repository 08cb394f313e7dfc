-- Schema 2 (PostgreSQL twin of ../0002_service.sql): per-game service settings and battle
-- standing orders. Times are BIGINT milliseconds since 1970-01-01 UTC.
CREATE TABLE game_settings (
    game_id          BIGINT  PRIMARY KEY REFERENCES games (id),
    seats_wanted     INTEGER CHECK (seats_wanted IS NULL OR seats_wanted >= 1),
    turn_deadline_s  BIGINT  CHECK (turn_deadline_s IS NULL OR turn_deadline_s >= 0),
                                                -- NULL: the guild's default; 0: no deadline
    deck_rule        TEXT    NOT NULL DEFAULT 'any' CHECK (deck_rule IN ('any', 'ready-made')),
    updated_at       BIGINT  NOT NULL
);

CREATE TABLE standing_orders (
    game_id     BIGINT  NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    kind        TEXT    NOT NULL,
    value       TEXT    NOT NULL,
    updated_at  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seat, kind)
);
