-- Schema 9: how each person is told about their games (/me notify: a ping in the game's
-- channel, a DM or both; quiet hours in their time zone), and where each seat's digest DM
-- began (the digest of what happened since the seat last acted is edited in place while
-- the seat has not acted since). Times are INTEGER milliseconds since 1970-01-01 UTC;
-- quiet hours are minutes after local midnight (0..1439).
CREATE TABLE notify_settings (
    user_id      INTEGER PRIMARY KEY,
    ping         TEXT    NOT NULL DEFAULT 'channel' CHECK (ping IN ('channel', 'dm', 'both')),
    time_zone    TEXT,                           -- an IANA name (Europe/Berlin); NULL: UTC
    quiet_start  INTEGER CHECK (quiet_start BETWEEN 0 AND 1439),
    quiet_end    INTEGER CHECK (quiet_end BETWEEN 0 AND 1439),
    updated_at   INTEGER NOT NULL,
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL)),
    CHECK (quiet_start IS NULL OR quiet_start <> quiet_end)
) WITHOUT ROWID;

CREATE TABLE seat_digests (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    user_id     INTEGER NOT NULL,                -- who held the seat when it was sent
    since_seq   INTEGER NOT NULL CHECK (since_seq >= 0),  -- the seat's last own command then
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
