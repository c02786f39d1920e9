"""A small load run on `langgraph dev` (loopback, builtin model): 5 threads x 2 questions at once,
zero errors, and every thread's state holds only its own turns. stress/load_dev.py is the big one."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hopgraph_stress_load_dev", ROOT / "stress" / "load_dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file executes
    spec.loader.exec_module(module)
    return module


def test_concurrent_threads_on_the_dev_server(tmp_path: Path) -> None:
    load = load_module()
    with load.load_server(tmp_path) as url:
        result = asyncio.run(load.run_load(url, threads=5, questions=2, timeout_s=120))
    assert result.errors == [], result.errors
    assert result.mixed_threads == [], result.mixed_threads
    assert result.runs == 10
