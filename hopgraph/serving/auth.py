"""The served graph's access control, as LangGraph custom auth (``auth.path`` in langgraph.json).

With ``HOPGRAPH_AUTH_FILE`` set, every request must carry a key from that file (``x-api-key``, as the LangGraph
SDK sends it, or ``Authorization: Bearer``); with JWT settings (``hopgraph.serving.bearer_tokens``), a signed
token may name the identity instead. Each identity owns the threads it creates: others get 404 for them
and never see them in a search. Admin identities see and manage everything, and alone may create, change or
delete assistants and crons. Store items live under a namespace that starts with the identity.

Without either the server serves anyone, as a local development server, and says so once at startup. Run
settings are checked either way: a run that sets an operator field, or more than a ceiling allows, is refused.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from langgraph_sdk import Auth

from hopgraph.access import run_containers
from hopgraph.errors import AccessError
from hopgraph.serving.bearer_tokens import TokenError, TokenVerifier, looks_like_jwt, verifier_from_env
from hopgraph.serving.identities import AUTH_FILE_ENV, AuthFileError, Identity, IdentityFile, auth_file_path
from hopgraph.serving.settings import check_client_settings, permitted_containers

log = logging.getLogger("hopgraph.serving")

OWNER = "owner"
LOCAL_IDENTITY = "local"


def _open_identity_file() -> IdentityFile | None:
    path = auth_file_path()
    if path is None:
        return None
    identities = IdentityFile(path)
    # A broken file stops the server here, at startup, instead of opening it.
    identities.check()
    log.info("access control on: identities and keys from %s", path)
    return identities


def _open_token_verifier() -> TokenVerifier | None:
    verifier = verifier_from_env()  # unusable settings stop the server at startup too
    if verifier is not None:
        log.info("access control on: %s bearer tokens accepted", verifier.algorithm)
    return verifier


IDENTITIES = _open_identity_file()
TOKENS = _open_token_verifier()
if IDENTITIES is None and TOKENS is None:
    log.warning("%s is not set: anyone who can reach this server can read every conversation and search "
                "every container (see docs/deploy.md, Access control)", AUTH_FILE_ENV)

auth = Auth()


def _refuse(status: int, message: str) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=status, detail=message)


def _presented_key(headers: dict[bytes, bytes]) -> str | None:
    key = headers.get(b"x-api-key")
    if key:
        return key.decode("latin-1").strip()
    authorization = headers.get(b"authorization", b"").decode("latin-1").strip()
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


@auth.authenticate
async def authenticate(headers: dict[bytes, bytes]) -> dict[str, Any]:
    if IDENTITIES is None and TOKENS is None:
        return {"identity": LOCAL_IDENTITY, "containers": None, "admin": True, "permissions": ["admin"]}
    credential = _presented_key(headers)
    if not credential:
        raise _refuse(401, "this server needs an API key: send it as the x-api-key header "
                           "(get_client(url=..., api_key=KEY)) or as 'Authorization: Bearer KEY'")
    identity: Identity | None = None
    refusal = "unknown API key"
    if TOKENS is not None and looks_like_jwt(credential):
        try:
            identity = TOKENS.identify(credential)
        except TokenError as exc:
            refusal = str(exc)
    if identity is None and IDENTITIES is not None:
        try:
            # In a worker thread: the file may be re-read, and the server's event loop must not wait on disk.
            identity = await asyncio.to_thread(IDENTITIES.identify, credential)
        except AuthFileError as exc:
            log.error("access file unusable, refusing every key: %s", exc)
            raise _refuse(401, "the server's access file cannot be read, so no key is accepted; "
                               "ask the operator to fix it") from None
    if identity is None:
        raise _refuse(401, refusal)
    return {"identity": identity.id, "containers": list(identity.containers), "admin": identity.admin,
            "permissions": ["admin"] if identity.admin else []}


def _is_admin(ctx: Auth.types.AuthContext) -> bool:
    return "admin" in (ctx.permissions or [])


def _owned(ctx: Auth.types.AuthContext) -> dict[str, str] | None:
    """The filter that limits a request to the caller's own threads (none for admins)."""
    return None if _is_admin(ctx) else {OWNER: ctx.user.identity}


def _stamp_owner(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> None:
    metadata = value.get("metadata")
    if not isinstance(metadata, dict):
        metadata = value["metadata"] = {}
    metadata[OWNER] = ctx.user.identity


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
    _stamp_owner(ctx, value)  # type: ignore[arg-type]
    return _owned(ctx)


@auth.on.threads.create_run
async def create_run(ctx: Auth.types.AuthContext, value: Auth.types.RunsCreate) -> Any:
    kwargs = value.get("kwargs") or {}
    try:
        check_run_context(kwargs.get("context"), ctx.user)
    except AccessError as exc:
        raise _refuse(403, f"run refused: {exc}") from None
    # A run without a thread, or one that creates its thread, makes the caller that thread's owner.
    _stamp_owner(ctx, value)  # type: ignore[arg-type]
    return _owned(ctx)


@auth.on(resources=["threads"], actions=["read", "search", "delete"])
async def own_threads_only(ctx: Auth.types.AuthContext, value: Any) -> Any:
    return _owned(ctx)


@auth.on.threads.update
async def update_thread(ctx: Auth.types.AuthContext, value: Any) -> Any:
    metadata = value.get("metadata") if isinstance(value, dict) else None
    if isinstance(metadata, dict) and OWNER in metadata and metadata[OWNER] != ctx.user.identity and not _is_admin(ctx):
        raise _refuse(403, "a thread's owner is set by the server")
    return _owned(ctx)


@auth.on(resources=["assistants"], actions=["read", "search"])
async def anyone_reads_assistants(ctx: Auth.types.AuthContext, value: Any) -> None:
    return None


@auth.on.store()
async def own_store_namespace(ctx: Auth.types.AuthContext, value: Any) -> None:
    if _is_admin(ctx):
        return None
    namespace = tuple(value.get("namespace") or ())
    if not namespace or namespace[0] != ctx.user.identity:
        raise _refuse(403, f"store namespaces of this identity start with '{ctx.user.identity}'")
    return None
