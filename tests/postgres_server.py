"""The PostgreSQL server tests run against (issue 18): ``HEROES_TEST_DATABASE_URL``, which
``.ci/postgres.sh`` (and so ``.ci/run``) sets for a throwaway cluster.

Without it PostgreSQL tests skip locally with a reason starting `SKIP_REASON`; when
``CI=true`` the root conftest turns such a skip into a failure, so CI cannot pass without
a server. Each test gets a fresh schema (`fresh_schema`), dropped afterwards.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import quote, urlsplit, urlunsplit

import pytest

SKIP_REASON = "PostgreSQL: no server"
"""The start of every PostgreSQL skip's reason (what the CI hook looks for)."""


def server_url() -> str:
    """The test server's URL; skips the test when none is configured."""
    url = os.environ.get("HEROES_TEST_DATABASE_URL", "").strip()
    if not url:
        pytest.skip(f"{SKIP_REASON} (set HEROES_TEST_DATABASE_URL, or run under .ci/postgres.sh)")
    return url


def with_schema(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` (``options=-csearch_path=...``)."""
    parts = urlsplit(url)
    option = "options=" + quote(f"-csearch_path={schema}", safe="")
    query = f"{parts.query}&{option}" if parts.query else option
    return urlunsplit(parts._replace(query=query))


@asynccontextmanager
async def fresh_schema(url: str | None = None) -> AsyncIterator[str]:
    """Create an empty schema on the test server and yield a URL that uses it; drop it after."""
    import asyncpg

    base = url or server_url()
    schema = f"t_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(base)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
    finally:
        await admin.close()
    try:
        yield with_schema(base, schema)
    finally:
        admin = await asyncpg.connect(base)
        try:
            await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        finally:
            await admin.close()
