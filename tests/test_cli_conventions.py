"""The hopgraph command behaves as command-line tools do: --version, -v anywhere, help for every option, numbers
checked, quiet in a closed pipe, threads listed, a silent model told apart from an unreachable one."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from hopgraph import __version__
from hopgraph.cli import EXIT_BROKEN_PIPE, build_parser
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import silent
from tests.test_cli import demo_env, hopgraph  # noqa: F401 (demo_env: the demo index fixture, per module)

QUESTION = "How long is the warranty on the TS-40 sensor?"


def test_version() -> None:
    proc = subprocess.run([sys.executable, "-m", "hopgraph.cli", "--version"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and proc.stdout == f"hopgraph {__version__}\n" and proc.stderr == ""


def test_verbose_before_or_after_the_subcommand(demo_env: dict[str, str]) -> None:  # noqa: F811
    quiet = hopgraph(demo_env, "ask", QUESTION, "--json")
    assert quiet.returncode == 0 and "INFO" not in quiet.stderr, quiet.stderr
    for args in (("-v", "ask", QUESTION, "--json"), ("ask", QUESTION, "--json", "-v"), ("ask", "--verbose", QUESTION)):
        proc = hopgraph(demo_env, *args)
        assert proc.returncode == 0, (args, proc.stderr)
        assert "INFO hopgraph: run finished" in proc.stderr, args
    # Also below a subcommand's own subcommand.
    assert hopgraph(demo_env, "threads", "list", "-v").returncode == 0


Option = tuple[tuple[str, ...], argparse.Action]


def _options(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[Option]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _options(sub, (*path, name))
        else:
            found.append((path, action))
    return found


def test_every_option_of_every_command_has_help() -> None:
    options = _options(build_parser())
    assert len({path for path, _ in options}) >= 11  # every command, and threads list/show/delete
    missing = [(path, a.option_strings or a.dest) for path, a in options
               if a.option_strings and a.help != argparse.SUPPRESS and not (a.help or "").strip()]
    assert missing == []
    for command in (("ask",), ("search",), ("threads", "show"), ("threads", "delete")):
        positionals = [a for path, a in options if path == command and not a.option_strings]
        assert positionals and all(a.help for a in positionals), command


@pytest.mark.parametrize(("command", "option", "words"), [
    ("ask", "--mode", "an answer that cites its sources"),
    ("demo", "--mode", "each question both ways"),
    ("search", "--limit", "how many documents"),
    ("ask", "--max-turns", "the most rounds of searching"),
    ("ask", "--embedder", "the embedder the index was built with"),
    ("mcp", "--model-timeout", "the longest one model call may take"),
    ("eval", "--cache", "where the evaluation indexes are cached"),
])
def test_help_shows_what_an_option_does(command: str, option: str, words: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "hopgraph.cli", command, "--help"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert option in text and words in text, text


@pytest.mark.parametrize(("args", "option"), [
    (("ask", QUESTION, "--max-turns", "0"), "--max-turns"),
    (("ask", QUESTION, "--max-turns", "-2"), "--max-turns"),
    (("ask", QUESTION, "--max-turns", "two"), "--max-turns"),
    (("search", "warranty", "--limit", "0"), "--limit"),
])
def test_counts_below_one_are_refused(demo_env: dict[str, str], args: tuple[str, ...], option: str) -> None:  # noqa: F811
    proc = hopgraph(demo_env, *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"argument {option}: must be a whole number of at least 1, not '{args[-1]}'" in proc.stderr


def test_max_turns_caps_the_run(demo_env: dict[str, str]) -> None:  # noqa: F811
    question = "Which supplier missed the delivery deadline in September, and what penalty did we agree with them?"
    proc = hopgraph(demo_env, "ask", question, "--container", "default", "--container", "legal", "--max-turns", "1",
                    "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["turns"] == 1


def test_ask_takes_the_embedder_as_search_and_list_do(demo_env: dict[str, str]) -> None:  # noqa: F811
    for command in ("ask", "search", "list"):
        args = [command, QUESTION] if command != "list" else [command]
        bad = hopgraph(demo_env, *args, "--embedder", "nonsense")
        assert bad.returncode == 2, (command, bad.stderr)
        assert bad.stderr.strip().splitlines()[-1].startswith("error: unknown embedder 'nonsense'"), command
    # The index records minilm: asking with it is asking as before; another embedder is refused by name.
    proc = hopgraph(demo_env, "ask", QUESTION, "--embedder", "minilm", "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["reported_ids"][0] == "ts-40-datasheet.pdf"
    other = hopgraph({**demo_env, "HOPGRAPH_EMBEDDER": "nonsense"}, "ask", QUESTION, "--embedder", "minilm", "--json")
    assert other.returncode == 0, other.stderr


def test_demo_into_a_closed_pipe_exits_quietly(demo_env: dict[str, str]) -> None:  # noqa: F811
    # As `hopgraph demo --json | head -c 100`: the reader takes 100 bytes and goes away.
    proc = subprocess.Popen([sys.executable, "-m", "hopgraph.cli", "demo", "--json"], env=demo_env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.read(100)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    code = proc.wait(timeout=600)
    assert first.startswith(b'{"question": ')
    assert err == "" and code == EXIT_BROKEN_PIPE == 141


def test_threads_list_shows_each_thread_with_its_first_question(demo_env: dict[str, str]) -> None:  # noqa: F811
    empty = hopgraph(demo_env, "threads", "list")
    assert empty.returncode == 0 and "no stored threads" in empty.stdout
    assert json.loads(hopgraph(demo_env, "threads", "list", "--json").stdout) == []
    first, follow_up = "Which supplier missed the delivery deadline in September?", "What penalty did we agree?"
    where = ("--container", "default", "--container", "legal")
    for thread, question in (("alpha", first), ("alpha", follow_up), ("beta", QUESTION)):
        proc = hopgraph(demo_env, "ask", question, *where, "--thread", thread, "--json")
        assert proc.returncode == 0, proc.stderr
    listed = json.loads(hopgraph(demo_env, "threads", "list", "--json").stdout)
    assert [t["thread_id"] for t in listed] == ["beta", "alpha"]  # the latest activity first
    beta, alpha = listed
    assert alpha["first_question"] == first and alpha["questions"] == 2
    assert beta["first_question"] == QUESTION and beta["questions"] == 1
    assert beta["last_exit_reason"] == "reported"
    assert datetime.fromisoformat(beta["last_activity"]) > datetime.fromisoformat(alpha["last_activity"])

    table = hopgraph(demo_env, "threads", "list").stdout.splitlines()
    assert table[0].split() == ["thread", "last", "activity", "questions", "first", "question"]
    assert table[1].startswith("beta ") and table[1].rstrip().endswith(QUESTION)
    assert table[2].startswith("alpha ") and first in table[2] and " 2  " in table[2]

    assert hopgraph(demo_env, "threads", "delete", "beta").returncode == 0
    assert [t["thread_id"] for t in json.loads(hopgraph(demo_env, "threads", "list", "--json").stdout)] == ["alpha"]
    missing = hopgraph(demo_env, "threads", "show")
    assert missing.returncode == 2 and "the following arguments are required: ID" in missing.stderr


def test_threads_a_server_wrote_are_not_listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hopgraph import Context, api
    from hopgraph.checkpoint import open_checkpointer
    from hopgraph.index.memory import MemoryBackend

    monkeypatch.setenv("HOPGRAPH_CHECKPOINT_DB", str(tmp_path / "threads.sqlite"))
    monkeypatch.delenv("POSTGRES_URI", raising=False)
    monkeypatch.delenv("DATABASE_URI", raising=False)
    backend = MemoryBackend()
    backend.add_text("acme", "Acme contract", "Acme Corp supplies steel bolts.")
    api.run("Who supplies bolts?", backend=backend, model="builtin", thread_id="mine")
    with open_checkpointer() as saver:
        # What a LangGraph server's run leaves in checkpoint metadata.
        served = {"configurable": {"thread_id": "served"}, "metadata": {"assistant_id": "a1", "graph_id": "hopgraph"}}
        api.compiled_graph(saver).invoke({"question": "Who supplies bolts?"}, config=served,
                                         context=Context(backend=backend, model="builtin"))
        assert {t["thread_id"] for t in api.list_threads(saver)} == {"mine"}
    assert [t["thread_id"] for t in api.list_threads()] == ["mine"]


def test_a_model_that_never_answers_is_a_timeout_not_unreachable(demo_env: dict[str, str]) -> None:  # noqa: F811
    with ScriptedOpenAI() as srv:
        srv.chat(silent())
        proc = hopgraph(demo_env, "ask", QUESTION, "--model", "openai:m", "--base-url", srv.base_url,
                        "--model-timeout", "1")
    assert proc.returncode == 2
    [error] = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert f"the model at {srv.base_url} did not answer within 1 s" in error
    assert "could not be reached" not in error and "--model-timeout" in error


def test_an_index_another_process_holds_is_refused_with_what_to_do(demo_env: dict[str, str]) -> None:  # noqa: F811
    import time

    index = Path(demo_env["HOPGRAPH_INDEX"])
    holder = subprocess.Popen([sys.executable, "-m", "hopgraph.cli", "mcp"], env=demo_env, stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while (index / "lock").read_text().strip() != str(holder.pid):  # the server has opened the index
            assert holder.poll() is None and time.monotonic() < deadline
            time.sleep(0.2)
        for args in (("search", "warranty"), ("list",), ("ask", QUESTION)):
            proc = hopgraph(demo_env, *args)
            assert proc.returncode == 2, args
            assert proc.stderr.strip().splitlines()[-1] == (
                f"error: index {index} is open in another process (pid {holder.pid}); an embedded index is open in "
                "one process at a time: stop that one, use another --index, or a Qdrant server all can share "
                "(--url, QDRANT_URL)"
            ), args
        # What a second server process on the index meets: every run ends with a backend error.
        code = "from hopgraph import run; r = run('TS-40 warranty'); print(r['exit_reason'], r['reported_ids'])"
        proc = subprocess.run([sys.executable, "-c", code], env=demo_env, capture_output=True, text=True, timeout=300)
        assert proc.stdout.strip() == "backend_error []", proc.stderr
    finally:
        holder.kill()
        holder.wait()
