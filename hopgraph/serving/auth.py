"""The served graph's access control, as LangGraph custom auth (``auth.path`` in langgraph.json).

With ``HOPGRAPH_AUTH_FILE`` set, every request must carry a key from that file (``x-api-key``, as the LangGraph
SDK sends it, or ``Authorization: Bearer``); with JWT settings (``hopgraph.serving.bearer_tokens``), a signed
token may name the identity instead (``hopgraph.serving.credentials`` reads both). Each identity owns the threads
it creates: others get 404 for them and never see them in a search, and the checkpointer keeps the owner beside
the conversation (``hopgraph.serving.owners``), so a thread id stays its owner's after the server's own record of
it is lost. Admin identities see and manage everything, and alone may create, change or delete assistants and
crons. Store items live under a namespace that starts with the identity. Each identity has a fair share: a cap
on its runs waiting or running and on the size of what it stores (``hopgraph.serving.limits``).

The routes LangGraph's auth does not cover are behind ``hopgraph.serving.gate``.

Without either the server serves anyone, as a local development server, and says so once at startup. Run
settings are checked either way: a run that sets an operator field, or more than a ceiling allows, is refused
(403); a malformed setting is refused naming the field (422).
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph_sdk import Auth

from hopgraph.access import run_containers
from hopgraph.errors import AccessError
from hopgraph.serving import owners
from hopgraph.serving.credentials import CredentialError, access_control_on, identify, presented_credential
from hopgraph.serving.identities import AUTH_FILE_ENV
from hopgraph.serving.limits import ACTIVE_RUNS, LimitError, active_run_ids, check_size
from hopgraph.serving.settings import SettingError, check_client_settings, permitted_containers

log = logging.getLogger("hopgraph.serving")

OWNER = "owner"
LOCAL_IDENTITY = "local"

if not access_control_on():
    log.warning("%s is not set: anyone who can reach this server can read every conversation and search "
                "every container (see docs/deploy.md, Access control)", AUTH_FILE_ENV)

auth = Auth()


def _refuse(status: int, message: str) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=status, detail=message)


@auth.authenticate
async def authenticate(headers: dict[bytes, bytes]) -> dict[str, Any]:
    if not access_control_on():
        return {"identity": LOCAL_IDENTITY, "containers": None, "admin": True, "permissions": ["admin"]}
    try:
        identity = await identify(presented_credential(headers.items()))
    except CredentialError as exc:
        raise _refuse(401, str(exc)) from None
    return {"identity": identity.id, "containers": list(identity.containers), "admin": identity.admin,
            "permissions": ["admin"] if identity.admin else []}


def _is_admin(ctx: Auth.types.AuthContext) -> bool:
    return "admin" in (ctx.permissions or [])


def _owned(ctx: Auth.types.AuthContext) -> dict[str, str] | None:
    """The filter that limits a request to the caller's own threads (none for admins)."""
    return None if _is_admin(ctx) else {OWNER: ctx.user.identity}


def _stamp_owner(ctx: Auth.types.AuthContext, value: dict[str, Any], recorded: owners.ThreadOwner | None = None
                 ) -> dict[str, Any]:
    """Set the owner in what the request creates: the caller, or the owner the checkpointer keeps for the id (an
    admin re-creating another identity's lost thread does not become its owner)."""
    metadata = value.get("metadata")
    if not isinstance(metadata, dict):
        metadata = value["metadata"] = {}
    metadata[OWNER] = recorded.owner if recorded is not None else ctx.user.identity
    if recorded is not None and recorded.graph_id and "graph_id" not in metadata:
        # A thread created again (after the server lost it) is read with its graph.
        metadata["graph_id"] = recorded.graph_id
    return metadata


def _within(what: str, content: Any) -> None:
    if not access_control_on():
        return  # a fair share is per identity; an open server has none
    try:
        check_size(what, content)
    except LimitError as exc:
        raise _refuse(exc.status, str(exc)) from None


async def _recorded_owner(ctx: Auth.types.AuthContext, thread_id: Any, status: int, refusal: str
                          ) -> owners.ThreadOwner | None:
    """The owner the checkpointer keeps for a thread id; raises ``status`` when that is not the caller (nor is the
    caller an admin), or when the id has checkpoints without an owner."""
    if thread_id is None:
        return None
    saver = owners.active_saver()
    if saver is None:
        if access_control_on() and owners.configured():
            raise _refuse(503, "the server's conversation store is not open yet; try again")
        return None  # another checkpointer: owners are in the server's own store alone
    if await saver.refuses(str(thread_id), ctx.user.identity, _is_admin(ctx)):
        raise _refuse(status, refusal)
    return await saver.owner_of(str(thread_id))


def check_run_context(context: Any, user: Any) -> None:
    """What the graph checks again when the run starts, checked now so a refused run never starts."""
    settings = check_client_settings(context)
    run_containers(settings.get("containers"), permitted_containers(user))


@auth.on
async def deny_the_rest(ctx: Auth.types.AuthContext, value: Any) -> bool:
    # Anything no handler below covers is refused, so a new kind of resource is closed until it is thought through.
    if _is_admin(ctx):
        return True
    raise _refuse(403, f"{ctx.resource}.{ctx.action} is for admin identities only")


@auth.on.threads.create
async def create_thread(ctx: Auth.types.AuthContext, value: Auth.types.ThreadsCreate) -> Any:
    _within("metadata", value.get("metadata"))
    thread_id = value.get("thread_id")
    # A taken id is answered as the server answers any taken id, whether or not it still has a record of it.
    recorded = await _recorded_owner(ctx, thread_id, 409, f"Thread with ID {thread_id} already exists")
    _stamp_owner(ctx, value, recorded)  # type: ignore[arg-type]
    return _owned(ctx)


@auth.on.threads.create_run
async def create_run(ctx: Auth.types.AuthContext, value: Auth.types.RunsCreate) -> Any:
    kwargs = value.get("kwargs") or {}
    try:
        check_run_context(kwargs.get("context"), ctx.user)
    except SettingError as exc:
        raise _refuse(422, f"run refused: {exc}") from None
    except AccessError as exc:
        raise _refuse(403, f"run refused: {exc}") from None
    _within("metadata", value.get("metadata"))
    _within("input", kwargs.get("input"))
    _within("input", kwargs.get("command"))
    # Answered as the server answers a run on a thread it does not have.
    recorded = await _recorded_owner(ctx, value.get("thread_id"), 404, "Thread or assistant not found.")
    if access_control_on():
        try:
            await ACTIVE_RUNS.admit(ctx.user.identity, value.get("run_id"), active_run_ids)
        except LimitError as exc:
            raise _refuse(exc.status, str(exc)) from None
    # A run without a thread, or one that creates its thread, makes the caller that thread's owner.
    _stamp_owner(ctx, value, recorded)  # type: ignore[arg-type]
    return _owned(ctx)


@auth.on(resources=["threads"], actions=["read", "search", "delete"])
async def own_threads_only(ctx: Auth.types.AuthContext, value: Any) -> Any:
    return _owned(ctx)


@auth.on.threads.update
async def update_thread(ctx: Auth.types.AuthContext, value: Any) -> Any:
    metadata = value.get("metadata") if isinstance(value, dict) else None
    _within("metadata", metadata)
    if isinstance(metadata, dict) and OWNER in metadata and metadata[OWNER] != ctx.user.identity and not _is_admin(ctx):
        raise _refuse(403, "a thread's owner is set by the server")
    return _owned(ctx)


@auth.on(resources=["assistants"], actions=["read", "search"])
async def anyone_reads_assistants(ctx: Auth.types.AuthContext, value: Any) -> None:
    return None


@auth.on.store()
async def own_store_namespace(ctx: Auth.types.AuthContext, value: Any) -> None:
    _within("store value", value.get("value"))
    if _is_admin(ctx):
        return None
    namespace = tuple(value.get("namespace") or ())
    if not namespace or namespace[0] != ctx.user.identity:
        raise _refuse(403, f"store namespaces of this identity start with '{ctx.user.identity}'")
    return None
