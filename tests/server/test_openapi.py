"""The OpenAPI document holds what the server does: schemathesis sends every REST operation
generated requests, valid and invalid ones, to a real server on a loopback port, and checks
that no answer is a server error and that every status code, content type, header and body is
one the document describes (a bounded number of examples, derandomized: the same requests at
every run)."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from .conftest import Running

EXAMPLES = 50
"""Generated requests per operation and mode."""

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
"""What every answer must satisfy.  Not among them: that every request the document allows
succeeds, since whether a game takes the options asked for is the game's to say (a 400 the
document describes)."""


@pytest.fixture
def api(server: Running) -> Any:
    return schemathesis.openapi.from_url(server.base + "/openapi.json")


def operations(schema: Any) -> list[Any]:
    found = [result.ok() for result in schema.get_all_operations()]
    assert len(found) >= 9, [op.label for op in found]
    return found


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_every_operation_answers_as_documented(
    server: Running, api: Any, mode: GenerationMode
) -> None:
    failures: list[str] = []
    for operation in operations(api):

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy(generation_mode=mode))
        def check(case: Any) -> None:
            case.call_and_validate(base_url=server.base, checks=CHECKS, timeout=30)

        try:
            check()
        except Unsatisfiable:  # nothing to make invalid: an operation without parameters
            assert mode == GenerationMode.NEGATIVE, operation.label
        except Exception as exc:  # gather every operation's failure, then report them all
            failures.append(f"{operation.label}: {exc}")
    assert not failures, "\n\n".join(failures)
