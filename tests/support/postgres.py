"""PostgreSQL for tests: the local server (POSTGRES_URI overrides), a throwaway schema per test."""

from __future__ import annotations

import os
import uuid

import pytest

DEFAULT_URI = "postgresql://postgres@127.0.0.1:5432/test"


def pg_uri() -> str:
    return os.environ.get("POSTGRES_URI") or DEFAULT_URI


def require_postgres() -> str:
    """The URI, or fail the test (not skip) with a message that says what is missing."""
    import psycopg

    uri = pg_uri()
    try:
        with psycopg.connect(uri, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        pytest.fail(f"PostgreSQL not reachable at {uri} (set POSTGRES_URI): {exc}", pytrace=False)
    return uri


def new_schema() -> str:
    return f"hgtest_{uuid.uuid4().hex[:12]}"


def drop_schema(uri: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def count_rows(uri: str, schema: str, table: str, thread_id: str) -> int:
    import psycopg

    with psycopg.connect(uri) as conn:
        row = conn.execute(f'SELECT count(*) FROM "{schema}".{table} WHERE thread_id = %s', (thread_id,)).fetchone()
    assert row is not None
    return int(row[0])
