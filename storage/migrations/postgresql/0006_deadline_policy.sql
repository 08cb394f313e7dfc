-- Schema 6 (PostgreSQL twin of ../0006_deadline_policy.sql): deadlines that act (issue 15).
ALTER TABLE guild_settings ADD COLUMN deadline_policy TEXT NOT NULL DEFAULT 'remind'
    CHECK (deadline_policy IN ('remind', 'default', 'computer'));
ALTER TABLE guild_settings ADD COLUMN away_after INTEGER NOT NULL DEFAULT 2
    CHECK (away_after >= 1);
ALTER TABLE guild_settings ADD COLUMN away_max_s BIGINT NOT NULL DEFAULT 259200
    CHECK (away_max_s >= 0);
ALTER TABLE guild_settings ADD COLUMN extensions INTEGER NOT NULL DEFAULT 2
    CHECK (extensions >= 0);
ALTER TABLE guild_settings ADD COLUMN extension_s BIGINT NOT NULL DEFAULT 86400
    CHECK (extension_s >= 0);

ALTER TABLE game_settings ADD COLUMN deadline_policy TEXT
    CHECK (deadline_policy IS NULL OR deadline_policy IN ('remind', 'default', 'computer'));

CREATE TABLE seat_presence (
    game_id          BIGINT  NOT NULL REFERENCES games (id),
    seat             INTEGER NOT NULL CHECK (seat >= 0),
    missed           INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0),
    away_until       BIGINT,
    extensions_used  INTEGER NOT NULL DEFAULT 0 CHECK (extensions_used >= 0),
    extended_turn    BIGINT,
    updated_at       BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE skip_votes (
    game_id        BIGINT  NOT NULL REFERENCES games (id),
    seat           INTEGER NOT NULL CHECK (seat >= 0),
    version        BIGINT  NOT NULL,
    voter_user_id  BIGINT  NOT NULL,
    created_at     BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seat, version, voter_user_id)
);

-- Kept with the commit that logs the command, in the same statement (as in SQLite).
CREATE FUNCTION seat_presence_on_command() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.actor_user_id IS NOT NULL AND NEW.reason IS NULL THEN
        UPDATE seat_presence SET missed = 0, away_until = NULL, updated_at = NEW.created_at
            WHERE game_id = NEW.game_id AND seat = NEW.seat;
    END IF;
    IF NEW.reason LIKE 'deadline missed%' THEN
        INSERT INTO seat_presence (game_id, seat, missed, updated_at)
            VALUES (NEW.game_id, NEW.seat, 1, NEW.created_at)
            ON CONFLICT (game_id, seat) DO UPDATE SET missed = seat_presence.missed + 1,
                                                      updated_at = excluded.updated_at;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER seat_presence_on_command AFTER INSERT ON game_log
    FOR EACH ROW WHEN (NEW.kind = 'command' AND NEW.seat IS NOT NULL)
    EXECUTE FUNCTION seat_presence_on_command();
