"""hopgraph threads show|delete ID: inspect or delete a stored conversation."""

from __future__ import annotations

import argparse
import json
from typing import Any


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("threads", help="show or delete a conversation thread")
    parser.add_argument("action", choices=("show", "delete"))
    parser.add_argument("thread_id")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hopgraph.api import delete_thread, thread_state

    if args.action == "delete":
        delete_thread(args.thread_id)
        print(f"deleted conversation {args.thread_id}")
        return 0
    state = thread_state(args.thread_id)
    turns = [
        {"role": m.type, "content": m.content if isinstance(m.content, str) else str(m.content)}
        for m in state.get("messages", []) if m.type in ("human", "ai") and m.content
    ]
    print(json.dumps({"thread_id": args.thread_id, "messages": turns, "profile": state.get("profile"),
                      "last_exit_reason": state.get("exit_reason")}, ensure_ascii=False, indent=2))
    return 0
