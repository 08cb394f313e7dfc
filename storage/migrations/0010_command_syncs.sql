-- Schema 10: the hash of the slash-command tree last synced to Discord, per scope (global
-- commands of an application, or one development guild's), so that a start with the same
-- tree sends no sync (Discord rate-limits command overwrites; a global one also takes a
-- while to reach every client). Losing a row is harmless: the next start syncs again.
-- Times are INTEGER milliseconds since 1970-01-01 UTC.
CREATE TABLE command_syncs (
    scope       TEXT    NOT NULL PRIMARY KEY,   -- global:{application_id} or guild:{application_id}:{guild_id}
    tree_hash   TEXT    NOT NULL,               -- sha256 (hex) of the synced payloads
    synced_at   INTEGER NOT NULL
) WITHOUT ROWID;
