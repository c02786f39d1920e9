"""run_python(code): arithmetic and small calculations in the sandbox (see hopgraph.sandbox)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hopgraph.config import Context
from hopgraph.sandbox import SandboxLimits, run_code
from hopgraph.tools.base import Ledger, Rendered, Tool, ToolEnv, ToolOutcome, require_str

DEFAULT_LIMITS = SandboxLimits()


def limits_for(context: Context) -> SandboxLimits:
    # The wall limit must end before the tools node gives up on the call.
    wall = max(1.0, min(DEFAULT_LIMITS.wall_s, context.tool_timeout_s - 1.0))
    cpu = max(1, min(DEFAULT_LIMITS.cpu_s, int(wall)))
    return SandboxLimits(wall_s=wall, cpu_s=cpu)


class RunPythonTool(Tool):
    name = "run_python"
    description = (
        "Run a short Python program for arithmetic or a small calculation (standard library only, no files, "
        "no network). print() what you need; a final bare expression is printed too."
    )
    parameters = {
        "type": "object",
        "properties": {"code": {"type": "string", "description": "Python source, e.g. print(1250 * 0.04)."}},
        "required": ["code"],
    }

    def check_args(self, args: Mapping[str, Any], context: Context) -> dict[str, Any]:
        return {"code": require_str(args, "code", max_chars=DEFAULT_LIMITS.max_code_chars)}

    def run(self, args: dict[str, Any], env: ToolEnv) -> ToolOutcome:
        result = run_code(args["code"], limits_for(env.context))
        return ToolOutcome(text=result.text(), data={
            "ok": result.ok, "output": result.stdout, "failure": result.error or None, "limit": result.limit,
            "truncated": result.truncated,
        })

    def render(self, outcome: ToolOutcome, ledger: Ledger, env: ToolEnv) -> Rendered:
        data = outcome.data
        head = "Output:" if data.get("ok") else "The code failed:"
        return Rendered(f"{head}\n{outcome.text}", {"tool": self.name, **data, "error": None})
