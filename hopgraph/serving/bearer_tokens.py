"""JWT bearer tokens: identities signed by the operator's identity provider instead of listed in the access file.

    HOPGRAPH_JWT_SECRET       an HS256 shared secret, or
    HOPGRAPH_JWT_PUBLIC_KEY   an RS256 public key (PEM text, or the path of a PEM file)
    HOPGRAPH_JWT_AUDIENCE     optional: the ``aud`` a token must carry
    HOPGRAPH_JWT_ISSUER       optional: the ``iss`` a token must carry
    HOPGRAPH_JWT_MAX_LIFETIME_S  the longest a token may live, in seconds (default 86400, a day)

A token names its identity in ``sub``, its containers in ``containers`` (a list), optionally ``admin: true``,
and must carry ``exp``. PyJWT checks the signature, the algorithm (only the configured one is accepted) and
the dates; a token whose ``exp`` lies further ahead than the maximum lifetime (from ``iat`` when it has one, and
from now) is refused, so a leaked token cannot outlive the operator's limit.

A token's identity is ``jwt:<sub>``: the access file's ids cannot start with ``jwt:``, so a token can never
name an identity of the file, nor the other way round (their threads and store namespaces stay apart).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hopgraph.serving.identities import JWT_ID_PREFIX, Identity

SECRET_ENV = "HOPGRAPH_JWT_SECRET"
PUBLIC_KEY_ENV = "HOPGRAPH_JWT_PUBLIC_KEY"
AUDIENCE_ENV = "HOPGRAPH_JWT_AUDIENCE"
ISSUER_ENV = "HOPGRAPH_JWT_ISSUER"
MAX_LIFETIME_ENV = "HOPGRAPH_JWT_MAX_LIFETIME_S"
DEFAULT_MAX_LIFETIME_S = 86_400
# Clocks of the identity provider and the server may differ a little.
_LEEWAY_S = 60


class TokenError(ValueError):
    """A token that does not identify anyone: bad signature, expired, or missing claims."""


class TokenSetupError(ValueError):
    """The server's JWT settings cannot be used."""


def looks_like_jwt(credential: str) -> bool:
    return credential.count(".") == 2 and all(credential.split("."))


@dataclass(frozen=True)
class TokenVerifier:
    key: Any
    algorithm: str
    audience: str | None = None
    issuer: str | None = None
    max_lifetime_s: int = DEFAULT_MAX_LIFETIME_S

    def identify(self, token: str) -> Identity:
        import jwt

        try:
            claims = jwt.decode(
                token, self.key, algorithms=[self.algorithm], audience=self.audience, issuer=self.issuer,
                options={"require": ["exp", "sub"]},
            )
        except jwt.ExpiredSignatureError:
            raise TokenError("the token has expired") from None
        except jwt.InvalidTokenError as exc:
            raise TokenError(f"the token is not valid: {exc}") from None
        self._check_lifetime(claims)
        containers = claims.get("containers", [])
        if not isinstance(containers, list) or any(not isinstance(c, str) or not c for c in containers):
            raise TokenError("the token's 'containers' claim must be a list of names")
        admin = claims.get("admin", False)
        if not isinstance(admin, bool):
            raise TokenError("the token's 'admin' claim must be true or false")
        subject = claims["sub"]
        if not isinstance(subject, str) or not subject:
            raise TokenError("the token's 'sub' claim must be a non-empty string")
        return Identity(id=JWT_ID_PREFIX + subject, containers=tuple(containers), admin=admin)

    def _check_lifetime(self, claims: dict[str, Any]) -> None:
        exp = claims["exp"]  # PyJWT has checked that it is a number in the future
        starts = [time.time()]
        iat = claims.get("iat")
        if isinstance(iat, (int, float)) and not isinstance(iat, bool):
            starts.append(float(iat))
        if any(exp - start > self.max_lifetime_s + _LEEWAY_S for start in starts):
            raise TokenError(f"the token lives longer than this server allows ({self.max_lifetime_s} s, "
                             f"{MAX_LIFETIME_ENV}); ask the identity provider for a shorter-lived token")


def _max_lifetime() -> int:
    raw = (os.environ.get(MAX_LIFETIME_ENV) or "").strip()
    if not raw:
        return DEFAULT_MAX_LIFETIME_S
    try:
        value = int(raw)
    except ValueError:
        raise TokenSetupError(f"{MAX_LIFETIME_ENV} must be a whole number of seconds, not {raw!r}") from None
    if value < 1:
        raise TokenSetupError(f"{MAX_LIFETIME_ENV} must be at least 1 second")
    return value


def _public_key(value: str) -> str:
    if value.lstrip().startswith("-----BEGIN"):
        return value
    try:
        return Path(value).read_text(encoding="utf-8")
    except OSError as exc:
        raise TokenSetupError(f"{PUBLIC_KEY_ENV}: cannot read {value}: {exc.strerror or exc}") from exc


def verifier_from_env() -> TokenVerifier | None:
    """The configured verifier, None when JWT is not set up; raises TokenSetupError for unusable settings."""
    secret, public = os.environ.get(SECRET_ENV), os.environ.get(PUBLIC_KEY_ENV)
    if not secret and not public:
        return None
    if secret and public:
        raise TokenSetupError(f"set {SECRET_ENV} or {PUBLIC_KEY_ENV}, not both")
    try:
        import jwt
    except ImportError as exc:
        raise TokenSetupError("JWT tokens need PyJWT: pip install 'hopgraph[serve]'") from exc
    audience = os.environ.get(AUDIENCE_ENV) or None
    issuer = os.environ.get(ISSUER_ENV) or None
    lifetime = _max_lifetime()
    if secret:
        if len(secret.encode()) < 32:
            raise TokenSetupError(f"{SECRET_ENV} must be at least 32 bytes")
        return TokenVerifier(key=secret, algorithm="HS256", audience=audience, issuer=issuer, max_lifetime_s=lifetime)
    assert public is not None
    pem = _public_key(public)
    try:
        key = jwt.algorithms.RSAAlgorithm(jwt.algorithms.RSAAlgorithm.SHA256).prepare_key(pem)
    except Exception as exc:  # cryptography raises several kinds for a key it cannot load
        raise TokenSetupError(f"{PUBLIC_KEY_ENV} is not an RSA public key in PEM form ({exc})") from exc
    return TokenVerifier(key=key, algorithm="RS256", audience=audience, issuer=issuer, max_lifetime_s=lifetime)
