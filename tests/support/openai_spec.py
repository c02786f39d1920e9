"""OpenAI's published API description (``openai-openapi.json``), for scripted servers that check what they
receive and what they answer against it.

The file is looked for in ``HOPGRAPH_OPENAI_SPEC``, then in ``specs/`` of the shared folder next to the
repository; a missing file fails the test that needs it, with where it was looked for. Schemas are checked
with jsonschema's Draft 2020-12 validator (the description is OpenAPI 3.1), ``$ref``s resolved through a
``referencing`` registry holding the whole document. Some schemas still mark a null-able field the OpenAPI 3.0
way (``nullable: true``, which JSON Schema ignores); the validator honours it, as the API sends null there.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

REPO = Path(__file__).resolve().parents[2]
SPEC_URI = "urn:openai-openapi"
CANDIDATES = (REPO.parent / "shared" / "specs" / "openai-openapi.json",
              Path("/work/shared/specs/openai-openapi.json"))


def spec_path() -> Path:
    named = os.environ.get("HOPGRAPH_OPENAI_SPEC")
    places = [Path(named)] if named else list(CANDIDATES)
    for place in places:
        if place.is_file():
            return place
    raise FileNotFoundError(
        "OpenAI's API description (openai-openapi.json) is needed by the scripted model servers; looked in "
        + ", ".join(str(p) for p in places) + " (set HOPGRAPH_OPENAI_SPEC to its path)"
    )


def _allowing_null(keyword: str) -> Any:
    plain = Draft202012Validator.VALIDATORS[keyword]

    def check(validator: Any, value: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
        if instance is None and schema.get("nullable") is True:
            return
        yield from plain(validator, value, instance, schema)

    return check


OpenAPIValidator = validators.extend(
    Draft202012Validator, {"type": _allowing_null("type"), "enum": _allowing_null("enum")})


@functools.cache
def _registry() -> Registry:
    document = json.loads(spec_path().read_text(encoding="utf-8"))
    return Registry().with_resource(SPEC_URI, Resource.from_contents(document, default_specification=DRAFT202012))


@functools.cache
def validator(schema: str) -> Any:
    """A validator for ``components/schemas/<schema>``."""
    registry = _registry()
    if schema not in registry[SPEC_URI].contents["components"]["schemas"]:
        raise KeyError(f"{spec_path()} describes no schema {schema!r}")
    return OpenAPIValidator({"$ref": f"{SPEC_URI}#/components/schemas/{schema}"}, registry=registry)


def problems(schema: str, instance: Any, most: int = 3) -> list[str]:
    """Where ``instance`` breaks ``schema`` (at most ``most`` of them), each as ``path: message``; [] when none."""
    found = []
    for error in validator(schema).iter_errors(instance):
        where = "/".join(str(p) for p in error.absolute_path) or "(body)"
        found.append(f"{schema} {where}: {error.message[:300]}")
        if len(found) >= most:
            break
    return found
