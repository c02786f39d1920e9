"""The import contracts in pyproject.toml ([tool.importlinter]) hold for the package, and they catch what they are
there to catch: a lower layer importing an upper one, a cycle, a node importing a node."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECK = ("import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))")


def _lint(package_parent: Path) -> subprocess.CompletedProcess[str]:
    """import-linter with the project's contracts, on the package found first under ``package_parent``."""
    return subprocess.run([sys.executable, "-c", CHECK, str(ROOT / "pyproject.toml")], cwd=package_parent,
                          env={"PATH": "", "PYTHONPATH": str(package_parent)}, capture_output=True, text=True,
                          timeout=240)


def test_the_package_keeps_its_import_contracts() -> None:
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 kept, 0 broken" in done.stdout


@pytest.mark.parametrize(("module", "added", "broken"), [
    ("state.py", "from hopgraph.policies.answer.thread import follow_up_subject",
     "hopgraph.state is not allowed to import hopgraph.policies"),
    ("index/embed_base.py", "from hopgraph.index.embed import get_embedder", "No cycles are allowed in hopgraph.index"),
    ("policies/ids/support.py", "from hopgraph.policies.ids.hops import HopPlanner",
     "No cycles are allowed in hopgraph.policies.ids"),
    ("nodes/decide.py", "from hopgraph.nodes.finalize import finalize",
     "hopgraph.nodes.decide is not allowed to import"),
])
def test_an_import_against_the_house_rules_breaks_a_contract(tmp_path: Path, module: str, added: str,
                                                            broken: str) -> None:
    shutil.copytree(ROOT / "hopgraph", tmp_path / "hopgraph", ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "hopgraph" / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{added}\n", encoding="utf-8")
    done = _lint(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert broken in done.stdout, done.stdout
