-- Schema 4: Heroes that survived the last finished game of a channel, kept for the next game
-- there (homm4 Campaigns: a Hero carries its learned Spells, developed Skills and found
-- Artifacts into the next game). A finished game replaces its channel's rows. Times are
-- INTEGER milliseconds since 1970-01-01 UTC.
CREATE TABLE campaign_heroes (
    channel_id  INTEGER NOT NULL,               -- the game channel (or thread)
    position    INTEGER NOT NULL,               -- 0, 1, 2 ... in the order saved
    user_id     INTEGER NOT NULL,               -- the person whose seat ended with the Hero
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    hero        TEXT    NOT NULL,               -- JSON: the Hero card and its inventory (card ids)
    saved_at    INTEGER NOT NULL,
    PRIMARY KEY (channel_id, position)
) WITHOUT ROWID;

CREATE INDEX campaign_heroes_by_game ON campaign_heroes (game_id);
