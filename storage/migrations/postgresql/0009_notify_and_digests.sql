-- Schema 9 (PostgreSQL twin of ../0009_notify_and_digests.sql): /me notify settings and
-- where each seat's digest DM began.
CREATE TABLE notify_settings (
    user_id      BIGINT  PRIMARY KEY,
    ping         TEXT    NOT NULL DEFAULT 'channel' CHECK (ping IN ('channel', 'dm', 'both')),
    time_zone    TEXT,
    quiet_start  INTEGER CHECK (quiet_start BETWEEN 0 AND 1439),
    quiet_end    INTEGER CHECK (quiet_end BETWEEN 0 AND 1439),
    updated_at   BIGINT  NOT NULL,
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL)),
    CHECK (quiet_start IS NULL OR quiet_start <> quiet_end)
);

CREATE TABLE seat_digests (
    game_id     BIGINT  NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    user_id     BIGINT  NOT NULL,
    since_seq   BIGINT  NOT NULL CHECK (since_seq >= 0),
    updated_at  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seat)
);
