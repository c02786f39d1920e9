"""A small embedded index of paged documents in three containers (closed again after it is built).

Two contracts in ``legal`` have one clause per page, so a test can tell the chunks a search found from the whole
file; ``default`` holds an unrelated note; ``hr`` holds a document that mentions delay penalties too and must stay
out of sight of callers limited to other containers.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from hopgraph import Context
from hopgraph.index.backend import Chunk, make_chunk_id

PAGES = {
    ("legal", "nordlicht"): (
        "Supply Agreement - Nordlicht Components",
        "/contracts/nordlicht-supply-agreement.pdf",
        [
            "This agreement is made between Tidewater Instruments and Nordlicht Components GmbH of Hamburg.",
            "If Nordlicht delivers after the agreed date it pays a delay penalty of 1.5 percent of the order value "
            "for each full week of delay, capped at 10 percent.",
            "The agreement renews for one year unless notice is given 60 days before the end of the term.",
            "Aggregate liability is limited to EUR 250,000 per contract year.",
        ],
    ),
    ("legal", "carrow"): (
        "Supply Agreement - Carrow Plastics",
        "/contracts/carrow-plastics-agreement.pdf",
        [
            "This agreement is made between Tidewater Instruments and Carrow Plastics Ltd of Leeds.",
            "Carrow ships injection-moulded enclosures within four weeks of each purchase order.",
            "Either party may terminate the agreement with 90 days written notice.",
        ],
    ),
    ("default", "canteen"): (
        "Canteen menu",
        "/notes/canteen.txt",
        ["The canteen serves soup on Mondays and fish on Fridays."],
    ),
    ("hr", "bonus"): (
        "Bonus pool memo",
        "/hr/bonus-memo.docx",
        ["Managers whose suppliers paid a delay penalty share a confidential bonus pool of EUR 40,000."],
    ),
}


def chunks() -> list[Chunk]:
    out = []
    for (container, doc_id), (title, source, pages) in PAGES.items():
        paged = source.endswith(".pdf")
        for i, text in enumerate(pages):
            out.append(
                Chunk(
                    chunk_id=make_chunk_id(container, doc_id, i),
                    doc_id=doc_id,
                    index=i,
                    title=title,
                    text=text,
                    container=container,
                    page=i + 1 if paged else None,
                    source=source,
                    kind=source.rsplit(".", 1)[-1],
                    chunk_count=len(pages),
                )
            )
    return out


def make_contract_index(path: str) -> str:
    from hopgraph.index.factory import close_backend, open_backend

    backend = open_backend(path)
    try:
        backend.upsert(chunks())
    finally:
        close_backend(path)
    return path


def whole_text(container: str, doc_id: str) -> str:
    return "\n".join(PAGES[(container, doc_id)][2])


# The question the integration tests ask, and the page that answers it.
QUESTION = "What delay penalty does Nordlicht pay when it delivers late?"
PENALTY = PAGES[("legal", "nordlicht")][2][1]


@pytest.fixture(scope="module", name="index")
def contract_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The ``index`` fixture of a test module that imports this: the contract index, built once for the module
    and closed after it."""
    from hopgraph.index.factory import close_backend

    path = make_contract_index(str(tmp_path_factory.mktemp("contracts") / "index"))
    yield path
    close_backend(path)


def contract_context(index: str, containers: tuple[str, ...] = ("legal",), **overrides: Any) -> Context:
    """A run over the contract index with the built-in model (no Qdrant server), ``overrides`` on top."""
    settings: dict[str, Any] = {"index": index, "qdrant_url": None, "model": "builtin", "containers": list(containers)}
    return Context(**{**settings, **overrides})
