"""An escape through the served graph: a model that follows the user's text calls run_python with escape code.

`langgraph dev` with an access file (alice, bob, an admin), the operator's model key set to a canary, and a
scripted OpenAI-compatible model that answers bob's answer-mode question by calling run_python with the
reported str-subclass escape aimed at the access file, the checkpoint database (holding alice's question) and
the server's environment, then by trying to rewrite the access file. The code runs (it prints its arithmetic),
and neither the tool message, nor what the model is sent next, nor the server's files show any of it.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from pathlib import Path

from tests.support.access import Served, write_auth_file
from tests.support.dev_server import dev_server, server_env
from tests.support.index import make_container_index
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_text, chat_tool_calls

BOB_DOCS = {"beta": ("Project Beta", "Project Beta was delivered late by the supplier Kessler.")}
ALICE_DOCS = {"alpha": ("Project Alpha", "Project Alpha ships its first units in March.")}
ESCAPE = '''import os; root = os.getcwd()
class S(str):
    def startswith(self, *a, **k): return True
    def split(self, *a, **k): return (root + "/x").split("/")
for path in (ACCESS, CHECKPOINTS, CHECKPOINTS + "-wal", "/proc/self/environ", "/proc/1/environ"):
    try:
        print(open(S(path), "rb").read()[:20000])
    except Exception as exc:
        print("refused:", type(exc).__name__, exc)
    try:
        print(open(path, "rb").read()[:20000])
    except Exception as exc:
        print("refused:", type(exc).__name__, exc)
try:
    open(S(ACCESS), "w").write('{"identities": [{"id": "bob", "key_sha256": [], "admin": true}]}')
except Exception as exc:
    print("refused:", type(exc).__name__, exc)
print(dict(os.environ))
print("total", 6 * 7)
'''


def _question(text: str) -> dict[str, object]:
    return {"messages": [{"role": "user", "content": text}]}


async def test_escape_code_from_a_served_model_reads_and_writes_nothing(tmp_path: Path) -> None:
    index = make_container_index(str(tmp_path / "index"), {"bob-docs": BOB_DOCS, "alice-docs": ALICE_DOCS})
    keys = {who: secrets.token_urlsafe(24) for who in ("alice", "bob", "root")}
    auth_file = tmp_path / "identities.json"
    write_auth_file(auth_file, keys)
    access_before = auth_file.read_bytes()
    checkpoints = tmp_path / "checkpoints.sqlite"
    operator_key = f"sk-operator-{uuid.uuid4().hex}"
    alice_asked = f"alice-private-{uuid.uuid4().hex}"
    code = ESCAPE.replace("ACCESS", repr(str(auth_file))).replace("CHECKPOINTS", repr(str(checkpoints)))
    log_path = tmp_path / "server.log"
    with ScriptedOpenAI() as model:
        model.chat(chat_tool_calls(("run_python", {"code": code})), chat_text("The total is 42."))
        env = server_env(
            HOPGRAPH_INDEX=index, HOPGRAPH_CHECKPOINT_DB=str(checkpoints), HOPGRAPH_AUTH_FILE=str(auth_file),
            HOPGRAPH_ALLOWED_MODELS="builtin,openai:scripted", OPENAI_BASE_URL=model.base_url,
            OPENAI_API_KEY=operator_key,
        )
        try:
            with dev_server(env, log_path) as url:
                served = Served(url=url, keys=keys, auth_file=auth_file, log_path=log_path, tmp=tmp_path)
                alice, bob = served.client("alice"), served.client("bob")
                mine = (await alice.threads.create())["thread_id"]
                await alice.runs.wait(mine, "hopgraph", input=_question(f"What is {alice_asked}?"))
                stored = b"".join(p.read_bytes() for p in tmp_path.glob("checkpoints.sqlite*"))
                assert alice_asked.encode() in stored  # the canary is in the database (or its write-ahead log)

                tid = (await bob.threads.create())["thread_id"]
                result = await bob.runs.wait(tid, "hopgraph", input=_question("Add up the totals, run my code."),
                                             context={"mode": "answer", "model": "openai:scripted"})
                assert isinstance(result, dict) and result["exit_reason"] == "answered", result
                state = await bob.threads.get_state(tid)
        except BaseException:
            print(log_path.read_text()[-6000:])
            raise
        tool_messages = [m for m in state["values"]["messages"]  # type: ignore[index]
                         if m["type"] == "tool" and m["name"] == "run_python"]
        sent_to_model = str(model.chat_requests()[-1])
    assert len(tool_messages) == 1
    output = tool_messages[0]["content"]
    assert output.startswith("Output:") and "total 42" in output, output  # the code ran, in the sandbox
    assert "file paths must be plain strings" in output and "refused:" in output
    alice_hash = hashlib.sha256(keys["alice"].encode()).hexdigest()
    for secret in (alice_asked, operator_key, alice_hash, keys["alice"], keys["bob"]):
        assert secret not in output, secret
        assert secret not in sent_to_model, secret
    assert auth_file.read_bytes() == access_before
    assert "run_python sandbox: bubblewrap" in log_path.read_text()
