"""hopgraph threads list | show ID | delete ID: find, inspect or delete stored conversations."""

from __future__ import annotations

import argparse
import json
from typing import Any

# The first question is cut to this many characters in the table (--json keeps it whole).
QUESTION_CHARS = 70


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "threads", help="list, show or delete conversation threads",
        description="Conversations are stored per user (SQLite, or PostgreSQL when POSTGRES_URI is set), whatever "
                    "the index they searched.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="{list,show,delete}")
    listing = actions.add_parser("list", help="the stored threads, the latest activity first")
    listing.add_argument("--json", action="store_true", help="print a JSON list, nothing else")
    listing.set_defaults(func=run_list)
    show = actions.add_parser("show", help="a thread's questions and replies, as JSON")
    show.add_argument("thread_id", metavar="ID", help="the thread id given to --thread")
    show.set_defaults(func=run_show)
    delete = actions.add_parser("delete", help="delete a thread and everything stored for it")
    delete.add_argument("thread_id", metavar="ID", help="the thread id given to --thread")
    delete.set_defaults(func=run_delete)


def run_list(args: argparse.Namespace) -> int:
    from hopgraph.api import list_threads

    threads = list_threads()
    if args.json:
        print(json.dumps(threads, ensure_ascii=False))
        return 0
    if not threads:
        print("no stored threads; `hopgraph ask QUESTION --thread ID` starts one")
        return 0
    width = max(len("thread"), *(len(t["thread_id"]) for t in threads))
    print(f"{'thread':<{width}}  {'last activity':<20}  questions  first question")
    for t in threads:
        when = t["last_activity"][:19].replace("T", " ")
        first = " ".join(t["first_question"].split())
        if len(first) > QUESTION_CHARS:
            first = first[: QUESTION_CHARS - 3].rstrip() + "..."
        print(f"{t['thread_id']:<{width}}  {when:<20}  {t['questions']:>9}  {first}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    from hopgraph.api import thread_state

    state = thread_state(args.thread_id)
    turns = [
        {"role": m.type, "content": m.content if isinstance(m.content, str) else str(m.content)}
        for m in state.get("messages", []) if m.type in ("human", "ai") and m.content
    ]
    print(json.dumps({"thread_id": args.thread_id, "messages": turns, "profile": state.get("profile"),
                      "last_exit_reason": state.get("exit_reason")}, ensure_ascii=False, indent=2))
    return 0


def run_delete(args: argparse.Namespace) -> int:
    from hopgraph.api import delete_thread

    delete_thread(args.thread_id)
    print(f"deleted conversation {args.thread_id}")
    return 0
