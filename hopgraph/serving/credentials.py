"""Who a request is: the one credential it carries, checked against the access file and the JWT settings.

Shared by the route gate (``hopgraph.serving.gate``, every route) and LangGraph's custom auth
(``hopgraph.serving.auth``, the API routes), so both read a request the same way:

- A credential is the ``x-api-key`` header or ``Authorization: Bearer <credential>``, compared exactly as the
  application receives it: nothing is trimmed or case-folded. (HTTP itself drops spaces and tabs around a header
  value before any application sees it, RFC 9110 section 5.5; a space inside, or any other character, makes
  another key.)
- A request with both headers must carry the same credential in each; two different ones, a header sent twice,
  or an ``Authorization`` header of another scheme next to a key are refused rather than one silently winning.
- A JWT (when the server has JWT settings) is checked first, then the access file.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from hopgraph.serving.bearer_tokens import TokenError, TokenVerifier, looks_like_jwt, verifier_from_env
from hopgraph.serving.identities import AuthFileError, Identity, IdentityFile, auth_file_path

log = logging.getLogger("hopgraph.serving")

MISSING = ("this server needs an API key: send it as the x-api-key header "
           "(get_client(url=..., api_key=KEY)) or as 'Authorization: Bearer KEY'")


class CredentialError(Exception):
    """A request that names nobody: no credential, an unknown one, or an ambiguous one (answered 401)."""


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
        log.info("access control on: %s bearer tokens accepted (at most %d s of lifetime)",
                 verifier.algorithm, verifier.max_lifetime_s)
    return verifier


IDENTITIES = _open_identity_file()
TOKENS = _open_token_verifier()


def access_control_on() -> bool:
    return IDENTITIES is not None or TOKENS is not None


def presented_credential(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The request's one credential, exactly as received; None when it carries none."""
    keys: list[str] = []
    authorizations: list[str] = []
    for name, value in headers:
        lowered = name.lower()
        if lowered == b"x-api-key":
            keys.append(value.decode("latin-1"))
        elif lowered == b"authorization":
            authorizations.append(value.decode("latin-1"))
    if len(keys) > 1 or len(authorizations) > 1:
        raise CredentialError("send one credential: this request repeats the x-api-key or Authorization header")
    bearer: str | None = None
    if authorizations:
        scheme, space, token = authorizations[0].partition(" ")
        if scheme.lower() != "bearer" or not space or not token:
            if keys:
                raise CredentialError("send one credential: this request carries an x-api-key and an "
                                      "Authorization header of another kind")
            raise CredentialError("the Authorization header must read 'Bearer <key or token>'")
        bearer = token
    if keys and bearer is not None and keys[0] != bearer:
        raise CredentialError("send one credential: the x-api-key and the Bearer credential differ")
    credential = keys[0] if keys else bearer
    return credential or None


async def identify(credential: str | None) -> Identity:
    """The identity a credential names; raises CredentialError with the message a client is told."""
    if not credential:
        raise CredentialError(MISSING)
    refusal = "unknown API key"
    if TOKENS is not None and looks_like_jwt(credential):
        try:
            return TOKENS.identify(credential)
        except TokenError as exc:
            refusal = str(exc)
    if IDENTITIES is not None:
        try:
            # In a worker thread: the file may be re-read, and the server's event loop must not wait on disk.
            identity = await asyncio.to_thread(IDENTITIES.identify, credential)
        except AuthFileError as exc:
            log.error("access file unusable, refusing every key: %s", exc)
            raise CredentialError("the server's access file cannot be read, so no key is accepted; "
                                  "ask the operator to fix it") from None
        if identity is not None:
            return identity
    raise CredentialError(refusal)
