"""JWT bearer tokens: identities signed by the operator's identity provider instead of listed in the access file.

    HOPGRAPH_JWT_SECRET       an HS256 shared secret, or
    HOPGRAPH_JWT_PUBLIC_KEY   an RS256 public key (PEM text, or the path of a PEM file)
    HOPGRAPH_JWT_AUDIENCE     optional: the ``aud`` a token must carry
    HOPGRAPH_JWT_ISSUER       optional: the ``iss`` a token must carry

A token names its identity in ``sub``, its containers in ``containers`` (a list), optionally ``admin: true``,
and must carry ``exp``. PyJWT checks the signature, the algorithm (only the configured one is accepted) and
the dates.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hopgraph.serving.identities import Identity

SECRET_ENV = "HOPGRAPH_JWT_SECRET"
PUBLIC_KEY_ENV = "HOPGRAPH_JWT_PUBLIC_KEY"
AUDIENCE_ENV = "HOPGRAPH_JWT_AUDIENCE"
ISSUER_ENV = "HOPGRAPH_JWT_ISSUER"


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
        containers = claims.get("containers", [])
        if not isinstance(containers, list) or any(not isinstance(c, str) or not c for c in containers):
            raise TokenError("the token's 'containers' claim must be a list of names")
        admin = claims.get("admin", False)
        if not isinstance(admin, bool):
            raise TokenError("the token's 'admin' claim must be true or false")
        return Identity(id=str(claims["sub"]), containers=tuple(containers), admin=admin)


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
    if secret:
        if len(secret.encode()) < 32:
            raise TokenSetupError(f"{SECRET_ENV} must be at least 32 bytes")
        return TokenVerifier(key=secret, algorithm="HS256", audience=audience, issuer=issuer)
    assert public is not None
    pem = _public_key(public)
    try:
        key = jwt.algorithms.RSAAlgorithm(jwt.algorithms.RSAAlgorithm.SHA256).prepare_key(pem)
    except Exception as exc:  # cryptography raises several kinds for a key it cannot load
        raise TokenSetupError(f"{PUBLIC_KEY_ENV} is not an RSA public key in PEM form ({exc})") from exc
    return TokenVerifier(key=key, algorithm="RS256", audience=audience, issuer=issuer)
