"""The README holds: its configuration table names every Context field, and its Use commands run as written."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from hopgraph.config import Context

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end != -1 else None]


def table_fields(text: str) -> list[str]:
    """Field names in the first column of the section's table (a cell may name several: `a` / `b`)."""
    names: list[str] = []
    for line in text.splitlines():
        if not line.startswith("| `"):
            continue
        first_cell = line.split("|")[1]
        names += re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", first_cell)
    return names


def test_configuration_table_names_every_context_field_once() -> None:
    documented = table_fields(section("Configuration"))
    fields = [f.name for f in dataclasses.fields(Context)]
    assert sorted(documented) == sorted(set(documented)), "a field appears twice"
    assert set(documented) == set(fields), {
        "missing from the table": sorted(set(fields) - set(documented)),
        "in the table, not in Context": sorted(set(documented) - set(fields)),
    }


def use_commands() -> list[list[str]]:
    block = re.search(r"```bash\n(.*?)```", section("Use"), re.S)
    assert block is not None
    return [shlex.split(line, comments=True) for line in block.group(1).splitlines() if line.strip()]


def test_use_commands_run_as_written_after_the_demo(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("HOPGRAPH_MODEL", "HOPGRAPH_INDEX", "QDRANT_URL", "POSTGRES_URI", "DATABASE_URI")}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), HOPGRAPH_CHECKPOINT_DB=str(tmp_path / "threads.sqlite"))

    def hopgraph(args: list[str]) -> subprocess.CompletedProcess[str]:
        assert args[0] == "hopgraph", args
        return subprocess.run([sys.executable, "-m", "hopgraph.cli", *args[1:]], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=600)

    demo = hopgraph(["hopgraph", "demo"])  # the Quick start command
    assert demo.returncode == 0, demo.stderr
    outputs = {}
    for command in use_commands():
        proc = hopgraph(command)
        assert proc.returncode == 0, (command, proc.stdout, proc.stderr)
        outputs[shlex.join(command)] = proc.stdout
    by_start = {key.split(" --")[0]: out for key, out in outputs.items()}
    assert "nordlicht-supply-agreement.pdf" in by_start["hopgraph search 'late delivery penalty'"]
    warranty = json.loads(by_start["hopgraph ask 'How long is the warranty on the TS-40 sensor?'"])
    assert warranty["reported_ids"][0] == "ts-40-datasheet.pdf"
    containers = outputs["hopgraph list"].split()
    assert containers[:2] == ["container", "documents"] and {"default", "legal", "finance"} <= set(containers)
    assert "legal  nordlicht-supply-agreement.pdf" in outputs["hopgraph list --container legal"]
    contracts = by_start["hopgraph search 'written notice of termination'"]
    assert "agreement" in contracts and "(no results)" not in contracts
