"""What the backend conformance tests share: a small corpus, chunk builders and a harness that opens
(and re-opens) the embedded shard or a Qdrant server collection (qdrant-client's in-process ``:memory:``
mode stands in for the server)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hopgraph.index.backend import Chunk, Scope, SearchBackend, make_chunk_id
from hopgraph.index.embed import get_embedder

CORPUS = {
    "cats": ("Domestic cats", "Cats are small domesticated carnivorous mammals. A cat purrs and hunts mice."),
    "python": ("Python language", "Python is a programming language created by Guido van Rossum in 1991."),
    "paris": ("Paris", "Paris is the capital city of France, famous for the Eiffel Tower and the Louvre museum."),
    "volcano": ("Volcanoes", "A volcano is a rupture in the crust of a planet where lava, ash and gases escape."),
    "insulin": ("Insulin", "Insulin is a peptide hormone made by beta cells of the pancreas; it lowers blood sugar."),
    "chess": ("Chess", "Chess is a board game for two players; checkmate the opposing king to win the game."),
}

S = Scope(("default",))


def chunk(doc_id: str, text: str, *, title: str = "", container: str = "default", index: int = 0,
          count: int = 1, tags: tuple[str, ...] = (), h: str = "h1", page: int | None = None) -> Chunk:
    return Chunk(
        chunk_id=make_chunk_id(container, doc_id, index), doc_id=doc_id, index=index, title=title or doc_id,
        text=text, container=container, page=page, tags=tags, context=f"{title or doc_id}: summary",
        source=f"test://{doc_id}", kind="txt", content_hash=h, chunk_count=count,
    )


def corpus_chunks(container: str = "default", tags: tuple[str, ...] = ()) -> list[Chunk]:
    return [chunk(d, text, title=t, container=container, tags=tags) for d, (t, text) in CORPUS.items()]


class Harness:
    """Opens (and re-opens) one backend of a given kind."""

    def __init__(self, kind: str, tmp: Path) -> None:
        self.kind = kind
        self.tmp = tmp
        self.client: Any = None
        self.backend: SearchBackend = self.open()

    def open(self, **kw: Any) -> SearchBackend:
        emb = get_embedder("minilm")
        if self.kind == "edge":
            from hopgraph.index.edge import EdgeBackend

            return EdgeBackend(self.tmp / "index", embedder=emb, **kw)
        from qdrant_client import QdrantClient

        from hopgraph.index.server import ServerBackend

        if self.client is None:
            self.client = QdrantClient(":memory:")
        return ServerBackend(client=self.client, collection="hopgraph", embedder=emb, **kw)

    def reopen(self, **kw: Any) -> SearchBackend:
        self.backend.close()
        self.backend = self.open(**kw)
        if self.kind == "server":
            self.backend.close = lambda: None  # type: ignore[method-assign]
        return self.backend

    def raw_ids(self) -> set[str]:
        return {str(r.id) for r in self.backend._scroll(None)}  # type: ignore[attr-defined]


def ids(hits: list[Any]) -> list[str]:
    return [h.doc_id for h in hits]
