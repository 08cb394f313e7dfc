-- Schema 5: a commit (the log entry, the new snapshot and version, the deadlines) is ONE
-- SQL statement, an INSERT into the view commit_requests. In autocommit mode a statement
-- is its own transaction, so the commit is atomic without BEGIN ... COMMIT, and it costs
-- one round trip to the writer connection's thread instead of four.
--
-- The view holds no rows; its INSTEAD OF INSERT trigger checks the request against the
-- game (it exists, is active, is still at expected_version) and the log (seq is the next
-- one), then writes everything. RAISE(ABORT) undoes the whole statement: a refused or
-- failing commit writes nothing. The caller computes seq in the same statement
-- (max(seq) + 1) and reads it back with RETURNING seq. Times are INTEGER milliseconds
-- since 1970-01-01 UTC.
CREATE VIEW commit_requests (
    game_id,            -- the game
    expected_version,   -- the version the command was applied to
    version,            -- the new version: expected_version + 1
    seq,                -- the log entry's seq: the game's max(seq) + 1
    state,              -- the new snapshot (JSON)
    status,             -- 'active', or 'finished' when the command ended the game
    result,             -- JSON result when finished, else NULL
    ended_at,           -- when finished, else NULL
    seat,               -- the seat that acted
    actor_user_id,      -- who acted (NULL: the computer)
    command,            -- the command (JSON)
    reason,             -- why someone acted for the seat, or NULL
    events,             -- JSON array of the events (public and private parts)
    replace_deadlines,  -- 1: delete the game's deadlines, then insert `deadlines`
    deadlines,          -- JSON array of [seat, kind, due_at] (NULL: none)
    now                 -- the commit's time
) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
            NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL WHERE 0;

CREATE TRIGGER commit_requests_apply INSTEAD OF INSERT ON commit_requests
BEGIN
    SELECT RAISE(ABORT, 'commit refused: no such game')
        WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id);
    SELECT RAISE(ABORT, 'commit refused: the game is not active')
        FROM games WHERE id = NEW.game_id AND status <> 'active';
    SELECT RAISE(ABORT, 'commit refused: stale version')
        FROM games WHERE id = NEW.game_id AND version IS NOT NEW.expected_version;
    SELECT RAISE(ABORT, 'commit refused: the new version does not follow')
        WHERE NEW.version IS NOT NEW.expected_version + 1;
    SELECT RAISE(ABORT, 'commit refused: seq is not the next in the log')
        WHERE NEW.seq IS NOT (SELECT coalesce(max(seq), 0) + 1 FROM game_log
                              WHERE game_id = NEW.game_id);

    INSERT INTO game_log (game_id, seq, kind, actor_user_id, seat, command, reason, details,
                          events, version_after, created_at)
        VALUES (NEW.game_id, NEW.seq, 'command', NEW.actor_user_id, NEW.seat, NEW.command,
                NEW.reason, '{}', NEW.events, NEW.version, NEW.now);

    UPDATE games SET version = NEW.version, state = NEW.state, updated_at = NEW.now,
                     status = NEW.status, result = NEW.result, ended_at = NEW.ended_at
        WHERE id = NEW.game_id AND version = NEW.expected_version AND status = 'active';

    DELETE FROM deadlines WHERE NEW.replace_deadlines AND game_id = NEW.game_id;

    INSERT INTO deadlines (game_id, seat, kind, due_at, created_at)
        SELECT NEW.game_id, json_extract(value, '$[0]'), json_extract(value, '$[1]'),
               json_extract(value, '$[2]'), NEW.now
        FROM json_each(coalesce(NEW.deadlines, '[]'))
        WHERE true  -- (the parser needs a WHERE before ON CONFLICT after a SELECT)
        ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at = excluded.due_at,
                                                        created_at = excluded.created_at;
END;
