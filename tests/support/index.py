"""A tiny embedded index for serving tests (prepared, then closed: one process may hold it at a time)."""

from __future__ import annotations

from hopgraph.index.backend import Chunk, make_chunk_id

DOCS = {
    "alpha": ("Project Alpha", "Project Alpha was delivered late by the supplier Norvik because of a shipping delay."),
    "norvik": ("Norvik profile", "Norvik is a steel supplier based in Bergen, founded in 1972."),
    "gamma": ("Canteen menu", "The canteen serves soup on Mondays and fish on Fridays."),
}


def make_index(path: str, container: str = "default") -> str:
    from hopgraph.index.factory import close_backend, open_backend

    backend = open_backend(path)
    try:
        backend.upsert(
            [
                Chunk(chunk_id=make_chunk_id(container, doc_id, 0), doc_id=doc_id, index=0, title=title, text=text,
                      container=container)
                for doc_id, (title, text) in DOCS.items()
            ]
        )
    finally:
        close_backend(path)
    return path


def make_container_index(path: str, containers: dict[str, dict[str, tuple[str, str]]]) -> str:
    """An index holding, per container, documents given as ``{doc_id: (title, text)}``."""
    from hopgraph.index.factory import close_backend, open_backend

    backend = open_backend(path)
    try:
        backend.upsert(
            [
                Chunk(chunk_id=make_chunk_id(container, doc_id, 0), doc_id=doc_id, index=0, title=title, text=text,
                      container=container)
                for container, docs in containers.items()
                for doc_id, (title, text) in docs.items()
            ]
        )
    finally:
        close_backend(path)
    return path
