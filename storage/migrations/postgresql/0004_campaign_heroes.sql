-- Schema 4 (PostgreSQL twin of ../0004_campaign_heroes.sql): Heroes that survived the last
-- finished game of a channel (homm4 Campaigns).
CREATE TABLE campaign_heroes (
    channel_id  BIGINT  NOT NULL,
    position    INTEGER NOT NULL,
    user_id     BIGINT  NOT NULL,
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    hero        TEXT    NOT NULL,               -- JSON: the Hero card and its inventory
    saved_at    BIGINT  NOT NULL,
    PRIMARY KEY (channel_id, position)
);

CREATE INDEX campaign_heroes_by_game ON campaign_heroes (game_id);
