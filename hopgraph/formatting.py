"""How documents are shown to the model.

Attributes and bodies are html-escaped so that document text can never close the
``<doc>`` element early or forge a second one.
"""

from __future__ import annotations

import html

NO_RESULTS = "No documents matched the query. Try different search terms."


def doc_block(short_id: str, title: str, body: str) -> str:
    return (
        f'<doc id="{html.escape(short_id, quote=True)}" title="{html.escape(title, quote=True)}">\n'
        f"{html.escape(body, quote=False)}\n</doc>"
    )


def budget_notice(turns_left: int, max_turns: int) -> str:
    text = f"You have {turns_left} out of {max_turns} turns left."
    if turns_left == 1:
        text += " You must call `report_helpful_ids` in the next turn."
    return text
