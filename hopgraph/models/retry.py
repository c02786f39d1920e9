"""The deadline and retries of one model call.

``Context.model_timeout_s`` is the longest one model call may take, every retry included. Each
attempt gets at most half of it (so a server that accepts and never answers still leaves room for
one retry) and the last attempt whatever is left; connecting has a short timeout of its own, so a
dead host fails in seconds. Every retry is announced with one warning line saying why.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from tenacity import RetryCallState, Retrying, wait_exponential, wait_random

T = TypeVar("T")

log = logging.getLogger("hopgraph.models")

CONNECT_TIMEOUT_S = 3.0
# Statuses a later attempt may get past: timeouts, conflicts of a replayed request, rate limits, overload.
RETRY_STATUS = (408, 409, 429, 500, 502, 503, 504)
# No attempt is started with less time than this left (or a quarter of a smaller budget).
MIN_ATTEMPT_S = 0.25


class ModelTimeoutError(TimeoutError):
    """The model did not answer within the whole call's time budget."""


def request_timeout(seconds: float) -> Any:
    """One request's timeout: ``seconds`` to answer, at most CONNECT_TIMEOUT_S of it to connect."""
    import openai  # its Timeout is the one of the HTTP library it runs on

    seconds = max(float(seconds), 0.01)
    return openai.Timeout(seconds, connect=min(CONNECT_TIMEOUT_S, seconds))


def attempt_share(total_s: float, max_retries: int) -> float:
    """The longest a single attempt may wait: half the budget while a retry can still follow."""
    return total_s / 2 if max_retries > 0 else total_s


def _could_not_connect(exc: BaseException) -> bool:
    """Whether the request never reached the server (refused, unreachable, connect timeout)."""
    cause: BaseException | None = exc
    for _ in range(10):  # the HTTP library's error sits a few causes down
        if cause is None:
            return False
        # By name: the openai client may run on httpx or on its successor httpx2.
        if isinstance(cause, ConnectionError) or type(cause).__name__ in ("ConnectError", "ConnectTimeout"):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def is_retryable(exc: BaseException) -> bool:
    import openai

    if isinstance(exc, openai.APIStatusError):
        return exc.status_code in RETRY_STATUS
    return isinstance(exc, openai.APIConnectionError)


def describe(exc: BaseException, waited_s: float | None = None) -> str:
    """Why an attempt failed, in a few words."""
    import openai

    if _could_not_connect(exc):
        return "cannot connect"
    if isinstance(exc, openai.APITimeoutError):
        return f"no answer within {waited_s:.1f} s" if waited_s is not None else "no answer in time"
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}"
    if isinstance(exc, openai.APIConnectionError):
        return f"connection failed ({type(exc).__name__})"
    return type(exc).__name__


def _retry_after(exc: BaseException, cap_s: float) -> float | None:
    """The server's Retry-After in seconds; 0 or nonsense leaves the delay to the backoff."""
    response = getattr(exc, "response", None)
    after = response.headers.get("retry-after") if response is not None else None
    try:
        seconds = float(after) if after else 0.0
    except ValueError:
        return None
    return min(seconds, cap_s) if seconds > 0 else None


def call_with_deadline(
    call: Callable[[Any], T],
    *,
    total_s: float,
    max_retries: int,
    where: str,
    attempt_s: float | None = None,
    base_s: float = 0.5,
    max_wait_s: float = 8.0,
    retryable: Callable[[BaseException], bool] = is_retryable,
) -> T:
    """Run ``call(timeout)`` until it succeeds, fails for good, runs out of attempts or of ``total_s``.

    ``call`` gets the timeout its attempt may use: ``attempt_s`` (default half of ``total_s``, see
    attempt_share) or what is left of ``total_s``, whichever is less. A failure to connect is retried once only (a
    refused or unreachable host rarely comes back within one call). A final timeout is raised as
    ``ModelTimeoutError``; every other final error as it came.
    """
    deadline = time.monotonic() + total_s
    share = attempt_share(total_s, max_retries) if attempt_s is None else attempt_s
    shortest = min(MIN_ATTEMPT_S, total_s / 4)
    # Growing delays (base, 2 x base, ...) with a little jitter so parallel runs do not retry in step.
    backoff = wait_exponential(multiplier=base_s, max=max_wait_s) + wait_random(0, base_s / 2)
    waited: dict[int, float] = {}
    out_of_time: list[bool] = []

    def left() -> float:
        return deadline - time.monotonic()

    def should_retry(state: RetryCallState) -> bool:
        exc = state.outcome.exception() if state.outcome else None
        if exc is None or not retryable(exc):
            return False
        return not (_could_not_connect(exc) and state.attempt_number >= 2)

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        after = _retry_after(exc, max_wait_s) if exc is not None else None
        delay = after if after is not None else float(backoff(state))
        # A tight budget shortens the pause rather than losing the retry: half of what is left at most.
        return max(0.0, min(delay, (left() - shortest) / 2))

    def stop(state: RetryCallState) -> bool:
        if state.attempt_number > max_retries:
            return True
        out_of_time.append(left() - (state.upcoming_sleep or 0.0) < shortest)
        return out_of_time[-1]

    def announce(state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome else None
        assert exc is not None
        log.warning(
            "model at %s: %s; retrying in %.1f s (attempt %d of %d, %.0f s of %g s left)",
            where, describe(exc, waited.get(state.attempt_number)), state.upcoming_sleep or 0.0,
            state.attempt_number + 1, max_retries + 1, max(left() - (state.upcoming_sleep or 0.0), 0.0), total_s,
        )

    def attempt() -> T:
        number = len(waited) + 1
        allowed = left() if number > max_retries else min(left(), share)
        waited[number] = allowed
        return call(request_timeout(allowed))

    retrying = Retrying(retry=should_retry, stop=stop, wait=wait, before_sleep=announce, reraise=True)
    try:
        return retrying(attempt)
    except Exception as exc:
        import openai

        timed_out = isinstance(exc, openai.APITimeoutError) and not _could_not_connect(exc)
        if timed_out or (retryable(exc) and out_of_time and out_of_time[-1]):
            last = "" if timed_out else f"; last: {describe(exc)}"
            raise ModelTimeoutError(
                f"no answer within {total_s:g} s, retries included ({len(waited)} attempts{last})"
            ) from exc
        raise
