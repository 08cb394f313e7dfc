#!/usr/bin/env bash
# Run a command beside a throwaway PostgreSQL server (issue 18):
#
#     .ci/postgres.sh .venv/bin/pytest -q tests/storage      # CI and developers alike
#     .ci/postgres.sh bash                                    # a shell with the server
#
# It starts a fresh cluster in a temporary folder, listening on 127.0.0.1 only at a free
# port (and a socket in that folder), exports HEROES_TEST_DATABASE_URL for the command,
# and stops and removes the cluster when the command ends (or the script is interrupted).
# The command's exit code is the script's. The server is Debian's `postgresql` package
# (installed with apt-get when missing, which needs root). PostgreSQL refuses to run as
# root, so as root the cluster belongs to a dedicated user (`postgres` when it exists,
# else `heroes-pg`, created here).
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGS...]  (runs COMMAND with HEROES_TEST_DATABASE_URL set)" >&2
    exit 2
fi

find_bin() {
    local dir
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(readlink -f "$(command -v pg_ctl)")"
        return 0
    fi
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

if ! PG_BIN=$(find_bin); then
    if [ "$(id -u)" -ne 0 ]; then
        echo "postgres.sh: PostgreSQL is not installed; install Debian's 'postgresql' package" >&2
        exit 1
    fi
    echo "postgres.sh: installing Debian's postgresql package" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends postgresql >/dev/null
    PG_BIN=$(find_bin)
fi

RUN_AS=()
OWNER=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
    if id postgres >/dev/null 2>&1; then
        OWNER=postgres
    else
        id heroes-pg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin heroes-pg
        OWNER=heroes-pg
    fi
    RUN_AS=(runuser -u "$OWNER" --)
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/heroes-pg.XXXXXX")
chmod 755 "$WORK"
[ "${#RUN_AS[@]}" -eq 0 ] || chown "$OWNER" "$WORK"

stop_server() {
    "${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$WORK/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap stop_server EXIT
trap 'exit 130' INT TERM

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

"${RUN_AS[@]}" "$PG_BIN/initdb" -D "$WORK/data" -U heroes --auth=trust -E UTF8 --locale=C.UTF-8 \
    >"$WORK/initdb.log" 2>&1 || { cat "$WORK/initdb.log" >&2; exit 1; }
# Tests open many small pools at once (one per test, two with -n 2): room for them.
"${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $WORK -c max_connections=200" start >/dev/null \
    || { cat "$WORK/server.log" >&2; exit 1; }
"${RUN_AS[@]}" "$PG_BIN/psql" -q -h 127.0.0.1 -p "$PORT" -U heroes -d postgres \
    -c "CREATE DATABASE heroes_test" >/dev/null

export HEROES_TEST_DATABASE_URL="postgresql://heroes@127.0.0.1:$PORT/heroes_test"
echo "postgres.sh: PostgreSQL $("$PG_BIN/postgres" -V | awk '{print $3}') at $HEROES_TEST_DATABASE_URL" >&2
set +e
"$@"
status=$?
set -e
exit "$status"
