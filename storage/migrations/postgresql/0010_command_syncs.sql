-- Schema 10 (PostgreSQL twin of ../0010_command_syncs.sql): the hash of the slash-command
-- tree last synced to Discord, per scope.
CREATE TABLE command_syncs (
    scope       TEXT    NOT NULL PRIMARY KEY,
    tree_hash   TEXT    NOT NULL,
    synced_at   BIGINT  NOT NULL
);
