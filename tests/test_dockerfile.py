"""`langgraph dockerfile` turns langgraph.json into a server image recipe (no Docker engine needed)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _env_json(dockerfile: str, name: str) -> dict:
    m = re.search(rf"^ENV {name}='(.*)'$", dockerfile, re.M)
    assert m, f"no ENV {name} in:\n{dockerfile}"
    return json.loads(m.group(1))


def test_dockerfile_from_langgraph_json(tmp_path):
    config = json.loads((ROOT / "langgraph.json").read_text())
    assert config["python_version"] == "3.11"
    assert config["dependencies"] == ["."]

    out = tmp_path / "Dockerfile"
    cli = Path(sys.executable).parent / "langgraph"
    proc = subprocess.run(
        [str(cli), "dockerfile", str(out), "-c", "langgraph.json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "LANGGRAPH_CLI_NO_ANALYTICS": "1", "HOME": str(tmp_path)},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = out.read_text()

    assert text.splitlines()[0] == "FROM langchain/langgraph-api:3.11"
    # run_python's sandbox: bubblewrap and libseccomp from Debian's packages (the base image is Debian), installed
    # before hopgraph so the image has them whatever the package install does.
    assert config["image_distro"] == "debian"
    install = re.search(r"^RUN apt-get update && apt-get install -y (?:--no-install-recommends )?(.*?) &&", text, re.M)
    assert install, text
    assert {"bubblewrap", "libseccomp2"} <= set(install.group(1).split())
    assert text.index(install.group(0)) < text.index("ADD . ")
    deps = f"/deps/{ROOT.name}"
    assert f"ADD . {deps}" in text
    # Every local dependency is pip-installed (editable) inside the image.
    assert re.search(r"uv pip install --system .*-e \.", text)

    graphs = _env_json(text, "LANGSERVE_GRAPHS")
    assert graphs == {"hopgraph": f"{deps}/hopgraph/graph/__init__.py:graph"}
    checkpointer = _env_json(text, "LANGGRAPH_CHECKPOINTER")
    assert checkpointer == {"path": f"{deps}/hopgraph/checkpoint.py:checkpointer"}
    # The paths the image will load exist in the repo.
    for target in (graphs["hopgraph"], checkpointer["path"]):
        rel, attr = target.removeprefix(deps + "/").split(":")
        source = (ROOT / rel).read_text()
        assert re.search(rf"^(async def |def ){attr}\b|^{attr} = ", source, re.M), target
