"""read(id): the whole document behind an id this run has shown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hopgraph.config import Context
from hopgraph.formatting import doc_block
from hopgraph.tools.base import Ledger, Rendered, Tool, ToolArgError, ToolEnv, ToolOutcome, require_str

# A read returns at most this many characters, so one long document cannot eat the token budget.
MAX_READ_CHARS = 12_000


class ReadTool(Tool):
    name = "read"
    description = "Read the full text of a document by the id shown in earlier search results."
    parameters = {
        "type": "object",
        "properties": {"id": {"type": "string", "description": "A document id from the search results, e.g. d3."}},
        "required": ["id"],
    }

    def check_args(self, args: Mapping[str, Any], context: Context) -> dict[str, Any]:
        return {"id": require_str(args, "id", max_chars=64)}

    def run(self, args: dict[str, Any], env: ToolEnv) -> ToolOutcome:
        short = args["id"]
        if short not in env.shown_this_run or short not in env.short_to_doc:
            raise ToolArgError(
                f"Unknown document id '{short}'. Only ids shown in this conversation's search results can be read."
            )
        document = env.backend.read(env.short_to_doc[short], env.scope)
        if document is None:
            raise ToolArgError(f"Document '{short}' is no longer available.")
        return ToolOutcome(document=document, data={"id": short})

    def render(self, outcome: ToolOutcome, ledger: Ledger, env: ToolEnv) -> Rendered:
        document = outcome.document
        assert document is not None
        short = outcome.data["id"]
        text = document.text
        if len(text) > MAX_READ_CHARS:
            text = text[:MAX_READ_CHARS] + " [...]"
        return Rendered(
            doc_block(short, document.title, text),
            {"tool": self.name, "docs": [{"id": short, "title": document.title, "text": text, "new": False}],
             "error": None},
        )
