"""The hopgraph command end to end: demo corpus in a real embedded index, ask in both modes, threads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hopgraph.demo import ingest_demo
from hopgraph.index.factory import close_backend, open_backend


@pytest.fixture(scope="module")
def demo_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("cli")
    index = str(root / "index")
    backend = open_backend(index_dir=index)
    try:
        ingest_demo(backend)
    finally:
        close_backend(index_dir=index)
    env = dict(os.environ)
    for name in ("HOPGRAPH_MODEL", "QDRANT_URL", "POSTGRES_URI", "DATABASE_URI"):
        env.pop(name, None)
    env.update(HOPGRAPH_INDEX=index, HOPGRAPH_CHECKPOINT_DB=str(root / "threads.sqlite"))
    return env


def hopgraph(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hopgraph.cli", *args], env=env, capture_output=True, text=True,
                          timeout=300)


QUESTION = "Which supplier missed the delivery deadline in September, and what penalty did we agree with them?"


def test_ask_json_prints_the_result_object_only(demo_env: dict[str, str]) -> None:
    proc = hopgraph(demo_env, "ask", QUESTION, "--container", "default", "--container", "legal", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)  # nothing but JSON on stdout
    assert set(result) == {"reported_ids", "exit_reason", "turns", "trace"}
    assert result["exit_reason"] in ("reported", "thrash")
    top = result["reported_ids"][:5]
    assert "INC-2026-031-late-housing-delivery.pdf" in top
    assert "nordlicht-supply-agreement.pdf" in top
    assert result["trace"][0]["tool_calls"][0]["name"] == "search"


def test_ask_human_output_lists_titles_and_trace(demo_env: dict[str, str]) -> None:
    proc = hopgraph(demo_env, "ask", "How long is the warranty on the TS-40 sensor?")
    assert proc.returncode == 0, proc.stderr
    assert "ts-40-datasheet.pdf" in proc.stdout and "TS-40 data sheet" in proc.stdout
    assert "exit:" in proc.stdout and "turn 1:" in proc.stdout


def test_container_scope_on_the_cli(demo_env: dict[str, str]) -> None:
    proc = hopgraph(demo_env, "ask", QUESTION, "--container", "finance", "--json")
    result = json.loads(proc.stdout)
    assert "nordlicht-supply-agreement.pdf" not in result["reported_ids"]
    assert "INC-2026-031-late-housing-delivery.pdf" not in result["reported_ids"]


def test_answer_mode_json_and_thread_follow_up(demo_env: dict[str, str]) -> None:
    proc = hopgraph(demo_env, "ask", QUESTION, "--mode", "answer", "--container", "default", "--container", "legal",
                    "--thread", "cli-t1", "--profile", "fast", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert {"answer", "citations", "markers", "exit_reason"} <= set(result)
    assert "Nordlicht" in result["answer"]
    assert result["citations"] and all({"title", "page", "container", "source", "kind"} <= set(c)
                                       for c in result["citations"])
    assert result["markers"]
    follow = hopgraph(demo_env, "ask", "And when was the penalty claim sent?", "--mode", "answer",
                      "--container", "default", "--container", "legal", "--thread", "cli-t1", "--json")
    assert follow.returncode == 0, follow.stderr
    shown = hopgraph(demo_env, "threads", "show", "cli-t1")
    state = json.loads(shown.stdout)
    humans = [m["content"] for m in state["messages"] if m["role"] == "human"]
    assert humans == [QUESTION, "And when was the penalty claim sent?"]
    assert state["profile"] == "fast"  # chosen on turn one, remembered for the thread
    deleted = hopgraph(demo_env, "threads", "delete", "cli-t1")
    assert deleted.returncode == 0
    gone = hopgraph(demo_env, "threads", "show", "cli-t1")
    assert gone.returncode == 2 and "no conversation with thread id 'cli-t1'" in gone.stderr
    assert "Traceback" not in gone.stderr


def test_user_errors_are_one_line(demo_env: dict[str, str]) -> None:
    unknown = hopgraph(demo_env, "ask", "q", "--model", "gpt-nonsense")
    assert unknown.returncode == 2 and "unknown model 'gpt-nonsense'" in unknown.stderr
    empty = hopgraph(demo_env, "ask", "   ")
    assert empty.returncode == 2 and "the question is empty" in empty.stderr
    delete_unknown = hopgraph(demo_env, "threads", "delete", "nope")
    assert delete_unknown.returncode == 2 and "no conversation" in delete_unknown.stderr
    for proc in (unknown, empty, delete_unknown):
        assert "Traceback" not in proc.stderr


def test_demo_command_runs_offline(tmp_path: Path) -> None:
    env = dict(os.environ)
    env.pop("HOPGRAPH_MODEL", None)
    env["HOPGRAPH_CHECKPOINT_DB"] = str(tmp_path / "t.sqlite")
    env["HOPGRAPH_INDEX"] = str(tmp_path / "index")  # the demo keeps its index: not in the user's
    proc = subprocess.run([sys.executable, "-m", "hopgraph.cli", "demo", "--json"], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    ids_runs = [r for r in lines if r["mode"] == "ids"]
    answer_runs = [r for r in lines if r["mode"] == "answer"]
    assert ids_runs and answer_runs
    assert all(r["exit_reason"] in ("reported", "thrash") and r["reported_ids"] for r in ids_runs)
    assert all(r["answer"] and r["citations"] for r in answer_runs)


@pytest.mark.parametrize("command", ["ask", "search"])
def test_a_bad_index_is_one_error_line(demo_env: dict[str, str], tmp_path: Path, command: str) -> None:
    not_an_index = tmp_path / "a-file"
    not_an_index.write_text("not an index")
    proc = hopgraph(demo_env, command, "late delivery penalty", "--index", str(not_an_index))
    assert proc.returncode == 2
    output = proc.stdout + proc.stderr
    assert output.count(f"no index at {not_an_index}") == 1, output  # no log line, no note: the error, once
    assert proc.stderr.splitlines()[-1].startswith(f"error: no index at {not_an_index}")
    assert "note:" not in output and "ERROR" not in output and "Traceback" not in output


def test_search_fuses_hybrid_lists_as_asked(demo_env: dict[str, str]) -> None:
    rows = {}
    for fusion in ("dbsf", "rrf"):
        proc = hopgraph(demo_env, "search", "late delivery penalty", "--container", "legal", "--fusion", fusion,
                        "--json")
        assert proc.returncode == 0, proc.stderr
        rows[fusion] = json.loads(proc.stdout)
        assert rows[fusion], fusion
    # RRF scores are sums of 1 / (60 + rank), at most 2 / 61; a DBSF score is a share of each list, up to 2.
    assert all(r["score"] <= 2 / 61 + 1e-6 for r in rows["rrf"])
    assert rows["dbsf"][0]["score"] > 0.5
    default = hopgraph(demo_env, "search", "late delivery penalty", "--container", "legal", "--json")
    assert json.loads(default.stdout) == rows["dbsf"]
    refused = hopgraph(demo_env, "search", "late delivery penalty", "--fusion", "borda")
    assert refused.returncode == 2 and "invalid choice: 'borda'" in refused.stderr
    # HOPGRAPH_FUSION sets the default; a bad value is one error line.
    by_env = hopgraph({**demo_env, "HOPGRAPH_FUSION": "rrf"}, "search", "late delivery penalty", "--container", "legal",
                      "--json")
    assert json.loads(by_env.stdout) == rows["rrf"]
    bad = hopgraph({**demo_env, "HOPGRAPH_FUSION": "borda"}, "search", "late delivery penalty")
    assert bad.returncode == 2, bad
    assert bad.stderr.splitlines()[-1] == "error: HOPGRAPH_FUSION must be dbsf or rrf, got 'borda'"
    assert "Traceback" not in bad.stderr


@pytest.mark.parametrize("text", ["", "   "])
def test_search_and_ask_refuse_empty_input_by_its_name(demo_env: dict[str, str], text: str) -> None:
    for command, name in (("ask", "question"), ("search", "query")):
        proc = hopgraph(demo_env, command, text)
        assert proc.returncode == 2, (command, proc.stdout)
        assert proc.stderr == f"error: the {name} is empty\n" and proc.stdout == "", (command, proc)


def test_list_shows_the_containers_then_a_containers_documents(demo_env: dict[str, str]) -> None:
    index = demo_env["HOPGRAPH_INDEX"]
    backend = open_backend(index_dir=index)
    try:
        held, legal = backend.container_documents(), backend.document_sources("legal")
    finally:
        close_backend(index_dir=index)  # one process holds an embedded index at a time
    assert "nordlicht-supply-agreement.pdf" in legal and len(held) >= 2

    proc = hopgraph(demo_env, "list")
    assert proc.returncode == 0, proc.stderr
    header, *rows = proc.stdout.splitlines()
    assert header.split() == ["container", "documents"]
    assert [tuple(r.split()) for r in rows] == [(c, str(held[c])) for c in sorted(held)]
    assert json.loads(hopgraph(demo_env, "list", "--json").stdout) == {"containers": held}

    docs = json.loads(hopgraph(demo_env, "list", "--container", "legal", "--json").stdout)["documents"]
    expected = [("legal", doc_id, source) for doc_id, source in sorted(legal.items())]
    assert [(d["container"], d["doc_id"], d["source"]) for d in docs] == expected
    lines = hopgraph(demo_env, "list", "--container", "legal").stdout.splitlines()
    assert [tuple(line.split()[:3]) for line in lines] == expected


def test_list_says_what_is_missing_and_creates_nothing(demo_env: dict[str, str], tmp_path: Path) -> None:
    typo = hopgraph(demo_env, "list", "--container", "legl")
    assert typo.returncode == 2 and typo.stdout == ""
    assert typo.stderr.count("\n") == 1 and "container 'legl' holds no documents" in typo.stderr
    assert "legal (" in typo.stderr  # the containers that do hold documents

    nowhere = tmp_path / "none"
    missing = hopgraph(demo_env, "list", "--index", str(nowhere))
    assert missing.returncode == 2 and "no index at" in missing.stderr and "hopgraph ingest" in missing.stderr
    assert not nowhere.exists()  # listing never creates an index

    empty = str(tmp_path / "empty")
    open_backend(index_dir=empty)
    close_backend(index_dir=empty)
    proc = hopgraph(demo_env, "list", "--index", empty)
    assert proc.returncode == 0 and "holds no documents; fill it with: hopgraph ingest" in proc.stdout
    assert json.loads(hopgraph(demo_env, "list", "--index", empty, "--json").stdout) == {"containers": {}}
