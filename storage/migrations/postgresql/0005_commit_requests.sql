-- Schema 5 (PostgreSQL twin of ../0005_commit_requests.sql): a commit (the log entry, the
-- new snapshot and version, the deadlines) is ONE statement, `SELECT commit_move(...)`: a
-- statement is its own transaction, so it is atomic and one round trip.
--
-- Unlike SQLite (where the statement holds the database's write lock from its start), READ
-- COMMITTED lets other transactions run beside this one, so the ORDER matters: first the
-- guarded UPDATE of the game's row (WHERE version = expected AND status = 'active'), which
-- takes the row lock and, if another commit got there first, re-checks the WHERE against
-- the committed row and matches nothing; only then, holding the lock (every writer of the
-- log locks the game's row first), the next seq is read and the entry appended. A refused
-- request raises 'commit refused: ...' and writes nothing.
CREATE FUNCTION commit_move(
    p_game_id          BIGINT,
    p_expected_version BIGINT,
    p_version          BIGINT,
    p_state            TEXT,
    p_status           TEXT,
    p_result           TEXT,
    p_ended_at         BIGINT,
    p_seat             INTEGER,
    p_actor_user_id    BIGINT,
    p_command          TEXT,
    p_reason           TEXT,
    p_events           TEXT,
    p_replace          BOOLEAN,     -- delete the game's deadlines, then insert the given ones
    p_deadline_seats   INTEGER[],   -- the new deadlines, as three arrays of one length
    p_deadline_kinds   TEXT[],
    p_deadline_due     BIGINT[],
    p_now              BIGINT
) RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    v_seq    BIGINT;
    v_status TEXT;
BEGIN
    IF p_version IS DISTINCT FROM p_expected_version + 1 THEN
        RAISE EXCEPTION 'commit refused: the new version does not follow';
    END IF;
    UPDATE games SET version = p_version, state = p_state, updated_at = p_now,
                     status = p_status, result = p_result, ended_at = p_ended_at
        WHERE id = p_game_id AND version = p_expected_version AND status = 'active';
    IF NOT FOUND THEN
        SELECT status INTO v_status FROM games WHERE id = p_game_id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'commit refused: no such game';
        ELSIF v_status <> 'active' THEN
            RAISE EXCEPTION 'commit refused: the game is not active';
        END IF;
        RAISE EXCEPTION 'commit refused: stale version';
    END IF;

    SELECT coalesce(max(seq), 0) + 1 INTO v_seq FROM game_log WHERE game_id = p_game_id;
    INSERT INTO game_log (game_id, seq, kind, actor_user_id, seat, command, reason, details,
                          events, version_after, created_at)
        VALUES (p_game_id, v_seq, 'command', p_actor_user_id, p_seat, p_command, p_reason,
                '{}', p_events, p_version, p_now);

    IF p_replace THEN
        DELETE FROM deadlines WHERE game_id = p_game_id;
    END IF;
    IF coalesce(cardinality(p_deadline_seats), 0) > 0 THEN
        INSERT INTO deadlines (game_id, seat, kind, due_at, created_at)
            SELECT p_game_id, d.seat, d.kind, d.due_at, p_now
            FROM unnest(p_deadline_seats, p_deadline_kinds, p_deadline_due) AS d (seat, kind, due_at)
            ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at = excluded.due_at,
                                                            created_at = excluded.created_at;
    END IF;
    RETURN v_seq;
END;
$$;
