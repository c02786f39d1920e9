"""Tenant isolation: the scope comes from the Context, never from the model.

Thousands of adversarial tool calls (forged filter arguments, foreign and guessed ids,
unicode look-alikes) go through the real graph with a scripted model, on all three
backends. Not one foreign document may appear in any tool message or in the report.
"""

from __future__ import annotations

import json
import os
import random
import unicodedata
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from hopgraph.config import Context
from hopgraph.graph import build_graph
from hopgraph.index.backend import Chunk, SearchBackend, make_chunk_id, point_id
from hopgraph.index.memory import MemoryBackend
from tests.scripted import ScriptedChatModel

MINE, THEIRS = "tenant-a", "tenant-b"
# Foreign documents are about this word (the probes search for it) ...
MARK = "zorblax"
# ... and carry this token, which no probe ever sends, so any message holding it leaked.
LEAK = "qwvx9leak"
TOPICS = ["steel bolts supplier", "copper wire contract", "salary review", "merger plan", "incident report",
          "board minutes", "pricing sheet", "security audit", "customer list", "roadmap"]


def _docs() -> list[tuple[str, str, str, str, tuple[str, ...]]]:
    """(container, doc_id, title, text, tags)."""
    docs: list[tuple[str, str, str, str, tuple[str, ...]]] = []
    for i, topic in enumerate(TOPICS):
        docs.append((MINE, f"a-{i}", f"Alpha {topic}", f"Alpha Corp {topic}: ordinary details number {i}.",
                     ("public",) if i % 2 == 0 else ()))
        docs.append((THEIRS, f"b-{i}", f"Beta {MARK} {topic} {LEAK}",
                     f"{MARK} secret {topic} of Beta Corp, confidential {MARK}-{i}. {LEAK}", ("public",)))
    # The same doc ids in both containers: reading one must never give the other's text.
    for doc_id in ("shared", "d1", "d2", "d3", "report"):
        docs.append((MINE, doc_id, f"Alpha {doc_id}", f"Alpha Corp {doc_id} steel bolts plain text.", ("public",)))
        docs.append((THEIRS, doc_id, f"Beta {MARK} {doc_id}", f"{MARK} Beta {doc_id} steel bolts secret. {LEAK}",
                     ("public",)))
    # Foreign-only ids that look like short ids.
    for doc_id in ("d4", "d5", "d10", "d999"):
        docs.append((THEIRS, doc_id, f"Beta {MARK} {doc_id}", f"{MARK} Beta steel bolts {doc_id}. {LEAK}", ("public",)))
    return docs


DOCS = _docs()
MY_IDS = {d for c, d, *_ in DOCS if c == MINE}
FOREIGN_ONLY = {d for c, d, *_ in DOCS if c == THEIRS} - MY_IDS
FOREIGN_CHUNKS = [make_chunk_id(c, d, 0) for c, d, *_ in DOCS if c == THEIRS]


def _chunks() -> list[Chunk]:
    return [
        Chunk(chunk_id=make_chunk_id(c, d, 0), doc_id=d, index=0, title=t, text=x, container=c, tags=tags,
              source=f"test://{c}/{d}", content_hash="h", chunk_count=1)
        for c, d, t, x, tags in DOCS
    ]


# --- adversarial calls -----------------------------------------------------------------------

ZW = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
HOMOGLYPH_D = ["\u0501", "\u217e", "\U0001d41d", "\u146f"]  # Cyrillic komi de, small roman d, bold d, Canadian


def unicode_variants(text: str, rng: random.Random) -> list[str]:
    fullwidth = "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)
    out = [
        fullwidth,
        unicodedata.normalize("NFKC", fullwidth),  # folds back: must behave like the plain id
        text[:1] + rng.choice(ZW) + text[1:],
        rng.choice(ZW) + text,
        text + rng.choice(ZW),
        (rng.choice(HOMOGLYPH_D) + text[1:]) if text.startswith("d") else text.replace("a", "\u0430"),
        text.upper(),
        " " + text + "\t",
        text + "\u0301",  # combining accent
        unicodedata.normalize("NFD", "é" + text),
        text.replace("1", "\u0661").replace("2", "\u0662"),  # Arabic-Indic digits
        text.replace("-", "\u2010"),
        text + "\x00",
        "../" + THEIRS + "/" + text,
    ]
    return out


def forged_args(rng: random.Random) -> dict[str, Any]:
    options: list[dict[str, Any]] = [
        {"container": THEIRS},
        {"containers": [THEIRS]},
        {"containers": [MINE, THEIRS]},
        {"tags": ["public"]},
        {"tag": "public"},
        {"filter": {"must": [{"key": "container", "match": {"value": THEIRS}}]}},
        {"filter": f'container == "{THEIRS}"'},
        {"scope": {"containers": [THEIRS]}},
        {"collection": "hopgraph", "index": "../other"},
        {"context": {"containers": [THEIRS]}},
        {"backend": None, "qdrant_url": "http://127.0.0.1:1"},
        {"must_not": [{"key": "container", "match": {"value": MINE}}]},
        {"status": "partial"},
        {"doc_id": rng.choice(sorted(FOREIGN_ONLY))},
    ]
    extra: dict[str, Any] = {}
    for _ in range(rng.randint(1, 3)):
        extra.update(rng.choice(options))
    return extra


def queries(rng: random.Random) -> str:
    topic = rng.choice(TOPICS)
    return rng.choice([
        f"{MARK} {topic}",
        f'"{MARK}" secret',
        f"Beta Corp {topic} confidential",
        f"container:{THEIRS} {topic}",
        f'{topic} container="{THEIRS}" OR 1=1',
        f'{{"must": [{{"key": "container", "match": {{"value": "{THEIRS}"}}}}]}}',
        f"{topic} -Alpha",
        f'"Beta {MARK}" -ordinary',
        f"{MARK}-{rng.randrange(10)}",
        "steel bolts secret",
        f"{topic} {MARK}",
    ])


def guessed_ids(rng: random.Random) -> list[str]:
    base = [
        f"d{rng.randint(1, 999)}",
        rng.choice(sorted(FOREIGN_ONLY)),
        f"b-{rng.randrange(10)}",
        point_id(rng.choice(FOREIGN_CHUNKS)),
        rng.choice(FOREIGN_CHUNKS),
        f"{THEIRS}/b-{rng.randrange(10)}",
        str(rng.randint(0, 2**63)),
    ]
    ident = rng.choice(base)
    if rng.random() < 0.5:
        ident = rng.choice(unicode_variants(ident, rng))
    return [ident]


def adversarial_call(rng: random.Random, n: int, reads_ok: bool) -> dict[str, Any]:
    kind = rng.choice(["search", "text_search", "read", "read", "report_helpful_ids"] if reads_ok
                      else ["search", "text_search", "read"])
    if kind in ("search", "text_search"):
        args: dict[str, Any] = {"query": queries(rng), "limit": rng.choice([5, 15, 100])}
        args.update(forged_args(rng))
    elif kind == "read":
        args = {"id": guessed_ids(rng)[0]}
        if rng.random() < 0.5:
            args.update(forged_args(rng))
    else:
        args = {"ids": [guessed_ids(rng)[0] for _ in range(rng.randint(1, 6))]}
        if rng.random() < 0.3:
            args.update(forged_args(rng))
    return {"name": kind, "args": args, "id": f"adv_{n}", "type": "tool_call"}


# --- leak detection ---------------------------------------------------------------------------


def leaks_in(message: ToolMessage, short_to_doc: dict[str, str]) -> list[str]:
    found = []
    blob = message.content if isinstance(message.content, str) else json.dumps(message.content)
    blob += json.dumps(message.artifact, ensure_ascii=False, default=str)
    if LEAK in blob:
        found.append(f"foreign text in {message.name} {message.tool_call_id}")
    artifact = message.artifact if isinstance(message.artifact, dict) else {}
    for doc in artifact.get("docs") or []:
        real = short_to_doc.get(doc["id"])
        if real not in MY_IDS:
            found.append(f"foreign doc {real!r} via {doc['id']}")
    return found


class Tally:
    def __init__(self) -> None:
        self.messages = 0  # one per tool call
        self.leaks: list[str] = []
        self.reported: list[str] = []
        self.successful_reads = 0


def run_adversarial(backend: SearchBackend, seed: int, runs: int, per_turn: int, tally: Tally,
                    tags: tuple[str, ...] = ()) -> None:
    rng = random.Random(seed)
    graph = build_graph()
    for r in range(runs):
        # Turn 1: searches and reads (foreign probes). Turn 2: reads of real short ids, guesses, a report.
        turn1 = [adversarial_call(rng, r * 1000 + i, reads_ok=False) for i in range(per_turn)]
        turn1.append({"name": "search", "args": {"query": "Alpha Corp steel bolts", "container": THEIRS},
                      "id": f"legit_{r}", "type": "tool_call"})

        def turn2(messages: list[Any], r: int = r) -> AIMessage:
            shown = sorted({d["id"] for m in messages if isinstance(m, ToolMessage) and isinstance(m.artifact, dict)
                            for d in m.artifact.get("docs") or []})
            calls = [adversarial_call(rng, r * 1000 + 500 + i, reads_ok=True) for i in range(per_turn)]
            calls = [c for c in calls if c["name"] != "report_helpful_ids"]
            calls += [{"name": "read", "args": {"id": s, "container": THEIRS}, "id": f"rd_{r}_{s}",
                       "type": "tool_call"} for s in shown[:5]]
            report = [guessed_ids(rng)[0] for _ in range(8)] + shown[:3]
            rng.shuffle(report)
            calls.append({"name": "report_helpful_ids", "args": {"ids": report, "containers": [THEIRS]},
                          "id": f"rep_{r}", "type": "tool_call"})
            return AIMessage(content="", tool_calls=calls)

        model = ScriptedChatModel(replies=[AIMessage(content="", tool_calls=turn1), turn2])
        context = Context(chat_model=model, backend=backend, containers=[MINE], tags=list(tags),
                          token_budget=10**9, max_turns=5)
        short_to_doc: dict[str, str] = {}
        for update in graph.stream({"question": "Tell me about steel bolts"}, context=context,
                                   stream_mode="updates"):
            tools = update.get("tools")
            if tools:
                short_to_doc = {s: d for d, s in tools["doc_to_short"].items()}
                for message in tools["messages"]:
                    tally.messages += 1
                    tally.leaks += leaks_in(message, short_to_doc)
                    if message.name == "read" and message.status == "success":
                        tally.successful_reads += 1
            final = update.get("finalize")
            if final:
                assert final["exit_reason"] == "reported"
                tally.reported += final["reported_ids"]
                for doc in final["reported_ids"]:
                    if doc not in MY_IDS:
                        tally.leaks.append(f"reported foreign {doc}")
    assert not tally.leaks, tally.leaks[:10]


# --- backends ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def memory_backend() -> MemoryBackend:
    backend = MemoryBackend()
    backend.upsert(_chunks())
    return backend


@pytest.fixture(scope="module")
def edge_backend(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchBackend]:
    from hopgraph.index.edge import EdgeBackend
    from hopgraph.index.embed import get_embedder

    backend = EdgeBackend(Path(tmp_path_factory.mktemp("edge")) / "index", embedder=get_embedder("minilm"))
    backend.upsert(_chunks())
    yield backend
    backend.close()


@pytest.fixture(scope="module")
def server_backend() -> Iterator[SearchBackend]:
    from qdrant_client import QdrantClient

    from hopgraph.index.embed import get_embedder
    from hopgraph.index.server import ServerBackend

    backend = ServerBackend(client=QdrantClient(":memory:"), embedder=get_embedder("minilm"))
    backend.upsert(_chunks())
    yield backend
    backend.close()


BACKENDS = ["memory_backend", "edge_backend", "server_backend"]
# 6 runs x (101 + ~105) calls: over 1,000 adversarial calls per backend; HOPGRAPH_STRESS_SCALE multiplies the runs.
RUNS, PER_TURN = 6 * max(1, int(os.environ.get("HOPGRAPH_STRESS_SCALE", "1"))), 100


@pytest.mark.parametrize("name", BACKENDS)
def test_canary_the_probes_would_see_foreign_documents(name: str, request: pytest.FixtureRequest) -> None:
    """The detector works: with the foreign container in scope the same probes do find its documents."""
    backend = request.getfixturevalue(name)
    from hopgraph.index.backend import Scope

    hits = backend.text_search(f"{MARK} steel bolts", Scope((THEIRS,)), 10)
    assert hits and all(LEAK in h.chunk.text for h in hits)
    assert all(LEAK not in h.chunk.text for h in backend.search(f"{MARK} steel bolts", Scope((MINE,)), 30))
    doc = backend.read("shared", Scope((MINE,)))
    assert doc is not None and LEAK not in doc.text
    assert LEAK in backend.read("shared", Scope((THEIRS,))).text  # type: ignore[union-attr]


@pytest.mark.parametrize("name", BACKENDS)
def test_no_foreign_document_ever_leaks(name: str, request: pytest.FixtureRequest) -> None:
    backend = request.getfixturevalue(name)
    tally = Tally()
    run_adversarial(backend, seed=zlib.crc32(name.encode()), runs=RUNS, per_turn=PER_TURN, tally=tally)
    assert tally.messages >= 1000, tally.messages
    assert tally.successful_reads > 0  # real reads happened, so the read path was exercised
    assert tally.reported and set(tally.reported) <= MY_IDS


@pytest.mark.parametrize("name", BACKENDS)
def test_tag_scope_holds_inside_the_own_container(name: str, request: pytest.FixtureRequest) -> None:
    """With tags=["public"], untagged documents of the own container are out of scope too."""
    backend = request.getfixturevalue(name)
    public = {d for c, d, _, _, tags in DOCS if c == MINE and "public" in tags}
    untagged = MY_IDS - public
    graph = build_graph()
    probes = [{"name": "text_search", "args": {"query": f"Alpha Corp {t}", "limit": 15, "tags": []},
               "id": f"t{i}", "type": "tool_call"} for i, t in enumerate(TOPICS)]
    probes += [{"name": "read", "args": {"id": f"d{i}"}, "id": f"r{i}", "type": "tool_call"} for i in range(1, 30)]

    def report(messages: list[Any]) -> AIMessage:
        shown = sorted({d["id"] for m in messages if isinstance(m, ToolMessage) and isinstance(m.artifact, dict)
                        for d in m.artifact.get("docs") or []})
        reads = [{"name": "read", "args": {"id": s}, "id": f"rr{s}", "type": "tool_call"} for s in shown]
        return AIMessage(content="", tool_calls=[*reads, {"name": "report_helpful_ids", "args": {"ids": shown},
                                                           "id": "rep", "type": "tool_call"}])

    model = ScriptedChatModel(replies=[AIMessage(content="", tool_calls=probes), report])
    context = Context(chat_model=model, backend=backend, containers=[MINE], tags=["public"], token_budget=10**9)
    seen: set[str] = set()
    reported: list[str] = []
    for update in graph.stream({"question": "Alpha"}, context=context, stream_mode="updates"):
        if update.get("tools"):
            short_to_doc = {s: d for d, s in update["tools"]["doc_to_short"].items()}
            for m in update["tools"]["messages"]:
                assert LEAK not in str(m.content)
                seen |= {short_to_doc[d["id"]] for d in (m.artifact or {}).get("docs") or []}
        if update.get("finalize"):
            reported = update["finalize"]["reported_ids"]
    assert seen and seen <= public and not seen & untagged
    assert set(reported) == seen


def test_unicode_variants_never_resolve_to_another_document() -> None:
    """Look-alike ids either fail or name exactly the document the plain id names (after NFKC)."""
    backend = MemoryBackend()
    backend.upsert(_chunks())
    graph = build_graph()
    rng = random.Random(7)
    variants = [v for base in ("d1", "d2", "d3", "d10") for v in unicode_variants(base, rng)]
    first = [{"name": "search", "args": {"query": "Alpha Corp steel bolts", "limit": 15}, "id": "s",
              "type": "tool_call"}]
    reads = [{"name": "read", "args": {"id": v}, "id": f"v{i}", "type": "tool_call"} for i, v in enumerate(variants)]
    model = ScriptedChatModel(replies=[
        AIMessage(content="", tool_calls=first),
        AIMessage(content="", tool_calls=[*reads, {"name": "report_helpful_ids", "args": {"ids": variants},
                                                   "id": "rep", "type": "tool_call"}]),
    ])
    results: dict[str, ToolMessage] = {}
    reported: list[str] = []
    for update in graph.stream({"question": "q"}, context=Context(chat_model=model, backend=backend,
                                                                   containers=[MINE]), stream_mode="updates"):
        if update.get("tools"):
            results.update({m.tool_call_id: m for m in update["tools"]["messages"]})
        if update.get("finalize"):
            reported = update["finalize"]["reported_ids"]
    for i, v in enumerate(variants):
        m = results[f"v{i}"]
        if m.status == "success":
            # Only an id that is a shown short id after trimming whitespace may succeed.
            assert v.strip() in {"d1", "d2", "d3", "d10"}, repr(v)
    assert set(reported) <= MY_IDS


@pytest.mark.parametrize("name", BACKENDS)
def test_answer_mode_search_documents_stays_in_scope(name: str, request: pytest.FixtureRequest) -> None:
    """search_documents (answer mode) with forged filter arguments: every passage is the caller's."""
    from types import SimpleNamespace

    from langchain_core.messages import HumanMessage

    from hopgraph.nodes.tools import tools_node

    backend = request.getfixturevalue(name)
    rng = random.Random(5)
    context = Context(backend=backend, containers=[MINE], mode="answer", chunk_budget=10**6, tool_timeout_s=60)
    sent = 0
    for batch in range(4):
        probes = []
        for i in range(50):
            args: dict[str, Any] = {"query": queries(rng), "limit": 15}
            args.update(forged_args(rng))
            probes.append({"name": "search_documents", "args": args, "id": f"sd{batch}_{i}", "type": "tool_call"})
        state = {"messages": [HumanMessage(content="steel bolts"), AIMessage(content="", tool_calls=probes)]}
        out = tools_node(state, SimpleNamespace(context=context))  # type: ignore[arg-type]
        for message in out["messages"]:
            sent += 1
            blob = str(message.content) + json.dumps(message.artifact, default=str)
            assert LEAK not in blob, message.tool_call_id
            assert all(ref["container"] == MINE for ref in message.artifact.get("refs") or [])
        assert all(r["container"] == MINE for r in out["turn_memory"].get("refs", {}).values())
    assert sent == 200
