"""report_helpful_ids(ids): the terminal call; the most helpful document first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hopgraph.config import Context
from hopgraph.tools.base import Ledger, Rendered, Tool, ToolArgError, ToolEnv, ToolOutcome

MAX_REPORTED = 100
MAX_ID_CHARS = 64


class ReportHelpfulIdsTool(Tool):
    name = "report_helpful_ids"
    description = (
        "Finish: report the ids of the documents that help answer the question, the most helpful first. "
        "Call it once, when every needed document has been found."
    )
    parameters = {
        "type": "object",
        "properties": {
            "ids": {"type": "array", "items": {"type": "string"}, "description": "Document ids, most helpful first."}
        },
        "required": ["ids"],
    }
    terminal = True

    def check_args(self, args: Mapping[str, Any], context: Context) -> dict[str, Any]:
        ids = args.get("ids")
        if ids is None:
            raise ToolArgError("Missing required argument 'ids' (a list of document id strings).")
        if isinstance(ids, str):
            # Models sometimes send "d1, d2"; accept it rather than lose the report.
            ids = [part.strip() for part in ids.split(",") if part.strip()]
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ToolArgError("Argument 'ids' must be a list of document id strings.")
        # Real ids are short; anything longer cannot be one and would only bloat the trace.
        return {"ids": [i.strip() for i in ids[:MAX_REPORTED] if i.strip() and len(i) <= MAX_ID_CHARS]}

    def run(self, args: dict[str, Any], env: ToolEnv) -> ToolOutcome:
        return ToolOutcome(report=list(args["ids"]))

    def render(self, outcome: ToolOutcome, ledger: Ledger, env: ToolEnv) -> Rendered:
        ids = outcome.report or []
        return Rendered(f"Reported {len(ids)} document ids.", {"tool": self.name, "ids": ids, "error": None})
