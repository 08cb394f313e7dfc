-- Schema 2: per-game service settings and battle standing orders (the bot's GameService).
-- Times are INTEGER milliseconds since 1970-01-01 UTC.

-- Chosen when the game is created (and changed by the host in the lobby, or by a moderator).
CREATE TABLE game_settings (
    game_id          INTEGER PRIMARY KEY REFERENCES games (id),
    seats_wanted     INTEGER CHECK (seats_wanted IS NULL OR seats_wanted >= 1),
    turn_deadline_s  INTEGER CHECK (turn_deadline_s IS NULL OR turn_deadline_s >= 0),
                                                -- NULL: the guild's default; 0: no deadline
    deck_rule        TEXT    NOT NULL DEFAULT 'any' CHECK (deck_rule IN ('any', 'ready-made')),
    updated_at       INTEGER NOT NULL
);

-- A seat's standing orders: decisions the service answers for it automatically.
CREATE TABLE standing_orders (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    kind        TEXT    NOT NULL,                -- deploy, attack, counter, fill, retreat, ...
    value       TEXT    NOT NULL,                -- auto, weakest, always, never, reject, ...
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, kind)
) WITHOUT ROWID;
