"""The core install works without the ``eval`` extra; ``hopgraph eval`` without it says what to install."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from hopgraph.evals import EVAL_MODULES, INSTALL_EVAL

ROOT = Path(__file__).resolve().parent.parent
# The eval extra's packages, and scipy, which pytrec-eval-terrier brings.
BLOCKED = (*EVAL_MODULES, "scipy")


def requirement_name(req: str) -> str:
    return re.split(r"[\s\[<>=!~;]", req, maxsplit=1)[0].lower().replace("_", "-")


def test_eval_packages_are_in_the_eval_extra_only_and_test_includes_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = {requirement_name(r) for r in project["dependencies"]}
    extras = project["optional-dependencies"]
    eval_extra = {requirement_name(r) for r in extras["eval"]}
    # Each module the guard checks comes from a distribution the eval extra installs, and not from the core.
    dists = packages_distributions()
    for module in EVAL_MODULES:
        names = {d.lower().replace("_", "-") for d in dists[module]}
        assert names & eval_extra, (module, names)
        assert not names & core, (module, names)
    assert "scipy" not in core
    # The README's test command installs everything the evaluation tests need.
    assert f"{project['name']}[eval]" in extras["test"]


# Runs in a fresh interpreter where the eval packages cannot be imported, as in a core-only install.
CORE_WITHOUT_EVAL = textwrap.dedent("""
    import contextlib, importlib, importlib.abc, io, json, sys

    BLOCKED = set(sys.argv[1].split(","))

    class NotInstalled(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, NotInstalled())
    docs, index, data, langgraph_json = sys.argv[2:6]

    import hopgraph, hopgraph.api, hopgraph.graph
    from hopgraph.cli import SUBCOMMANDS, main

    for name in SUBCOMMANDS:
        importlib.import_module(f"hopgraph.commands.{name}")
    # Everything the LangGraph server loads for the served graph.
    config = json.load(open(langgraph_json))
    entries = [*config["graphs"].values(), config.get("checkpointer", {}).get("path"),
               config.get("auth", {}).get("path")]
    for entry in filter(None, entries):
        module, attr = entry.split(":")
        if module.endswith(".py"):
            module = module.removeprefix("./").removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        getattr(importlib.import_module(module), attr)

    results = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            main(["--help"])
        except SystemExit as exc:
            results["help"] = exc.code
    results["help_lists_eval"] = "eval" in out.getvalue()
    with contextlib.redirect_stdout(io.StringIO()):
        results["ingest"] = main(["ingest", docs, "--index", index, "--no-progress"])
        results["search"] = main(["search", "pump seals", "--index", index, "--json"])
        results["ask"] = main(["ask", "Which pump needs new seals?", "--index", index, "--json"])
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        results["eval"] = main(["eval", "--data", data, "--quiet"])
    results["eval_stderr"] = err.getvalue()
    results["loaded"] = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
    print("RESULTS " + json.dumps(results))
""")


def test_core_runs_without_the_eval_extra(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "pumps.txt").write_text("Pump P-7 needs new seals before the winter shutdown.")
    (docs / "valves.txt").write_text("Valve V-2 leaks at high pressure.")
    data = tmp_path / "beir"
    data.mkdir()
    (data / "corpus.jsonl").write_text('{"_id": "d1", "title": "Pumps", "text": "Pump P-7 needs seals."}\n')
    (data / "queries.jsonl").write_text('{"_id": "q1", "text": "Which pump needs seals?"}\n')
    (data / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    env = {k: v for k, v in os.environ.items() if k not in ("QDRANT_URL", "POSTGRES_URI", "HOPGRAPH_MODEL")}
    env.update(PYTHONPATH=str(ROOT), HOPGRAPH_INDEX=str(tmp_path / "default-index"), HOPGRAPH_EMBED_THREADS="1")

    proc = subprocess.run(
        [sys.executable, "-c", CORE_WITHOUT_EVAL, ",".join(BLOCKED), str(docs), str(tmp_path / "index"), str(data),
         str(ROOT / "langgraph.json")],
        capture_output=True, text=True, env=env, timeout=240,
    )

    assert proc.returncode == 0, proc.stderr[-3000:]
    line = next(line for line in proc.stdout.splitlines() if line.startswith("RESULTS "))
    results = json.loads(line.removeprefix("RESULTS "))
    assert results["help"] == 0 and results["help_lists_eval"]
    assert (results["ingest"], results["search"], results["ask"]) == (0, 0, 0), results
    assert results["loaded"] == []
    # eval says exactly what to install, on one line, and exits non-zero.
    assert results["eval"] == 2
    assert results["eval_stderr"].count("\n") == 1 and "Traceback" not in results["eval_stderr"]
    assert results["eval_stderr"].startswith("error: ") and INSTALL_EVAL in results["eval_stderr"]


@pytest.mark.parametrize("module", EVAL_MODULES)
def test_eval_without_one_extra_package_names_the_install(
    module: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from hopgraph.cli import main

    monkeypatch.setitem(sys.modules, module, None)  # None in sys.modules: the import fails as if not installed
    assert main(["eval", "--data", str(tmp_path), "--quiet"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"error: hopgraph eval needs the eval extra ({module} not installed): "
                            f"pip install 'hopgraph[eval]'\n")
