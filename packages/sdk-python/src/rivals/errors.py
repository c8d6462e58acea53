"""sdk-python: the typed errors of the Rivals API, one class per error family, all subclassing RivalsError."""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Type


class RivalsError(Exception):
    """Any error of the API or of the way to it.

    ``code`` is the API's stable snake_case code (``None`` for network failures), ``status`` the HTTP status,
    ``request_id`` the ``X-Request-Id`` to quote when asking for help, ``body`` the whole ``error`` object.
    """

    def __init__(
        self,
        message: str,
        *,
        code: Optional[str] = None,
        status: Optional[int] = None,
        request_id: Optional[str] = None,
        body: Optional[Mapping[str, Any]] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.request_id = request_id
        self.body: Dict[str, Any] = dict(body or {})
        self.headers: Dict[str, str] = dict(headers or {})

    @property
    def details(self) -> List[Dict[str, Any]]:
        """``[{field, problem}]`` for validation errors; empty otherwise."""
        details = self.body.get("details")
        return list(details) if isinstance(details, list) else []

    @property
    def refunded(self) -> Optional[bool]:
        """For failed searches: True when the credit is back (or was never taken)."""
        value = self.body.get("refunded")
        return value if isinstance(value, bool) else None

    @property
    def credits_remaining(self) -> Optional[int]:
        value = self.body.get("creditsRemaining")
        return value if isinstance(value, int) else None

    @property
    def reason(self) -> Optional[str]:
        """For 422 ``no_competitors_found``: why nothing was found (``homepage_unreachable``, ``homepage_too_thin``,
        ``no_rivals_known``, ``filters_excluded_all``)."""
        value = self.body.get("reason")
        return value if isinstance(value, str) else None

    def __str__(self) -> str:
        parts = [self.message]
        if self.code:
            parts.append(f"code={self.code}")
        if self.status is not None:
            parts.append(f"status={self.status}")
        if self.request_id:
            parts.append(f"request_id={self.request_id}")
        return parts[0] if len(parts) == 1 else f"{parts[0]} ({', '.join(parts[1:])})"


    @property
    def retry_after_seconds(self) -> Optional[float]:
        """Seconds to wait before a retry, when the answer said (429 ``retryAfterSeconds`` or ``Retry-After``)."""
        value = self.body.get("retryAfterSeconds")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        return parse_retry_after(self.headers.get("retry-after"))


class RivalsConnectionError(RivalsError):
    """The request did not get an answer: the connection failed or was reset."""


class RivalsTimeoutError(RivalsConnectionError):
    """The request did not get an answer within its timeout."""


#: Other names of the two (as other Python SDKs call them).
APIConnectionError = RivalsConnectionError
APITimeoutError = RivalsTimeoutError


class RivalsApiError(RivalsError):
    """The API answered with an error (4xx or 5xx); ``status`` and ``code`` are always set."""


class InvalidRequestError(RivalsApiError):
    """400 ``invalid_request`` / ``invalid_domain``, 405, 413, 415: the request cannot be served as sent."""


class InvalidDomainError(InvalidRequestError):
    """400 ``invalid_domain``: not a public company domain."""


class AuthenticationError(RivalsApiError):
    """401 ``missing_api_key`` / ``invalid_api_key``."""


class InsufficientCreditsError(RivalsApiError):
    """402 ``insufficient_credits``: the balance cannot pay; nothing was done."""

    @property
    def credits_required(self) -> Optional[int]:
        value = self.body.get("creditsRequired")
        return value if isinstance(value, int) else None


class PermissionDeniedError(RivalsApiError):
    """403 ``forbidden``."""


class NotFoundError(RivalsApiError):
    """404 ``not_found``: no such route or object (another account's objects are not found too)."""


class ConflictError(RivalsApiError):
    """409 ``conflict`` / ``idempotency_in_progress``: the request contradicts the object's state."""


class UnprocessableError(RivalsApiError):
    """422: the request was understood but cannot be served (see the two subclasses)."""


class IdempotencyKeyReusedError(UnprocessableError):
    """422 ``idempotency_key_reused``: the Idempotency-Key was used before with a different body."""


class IdempotencyInProgressError(ConflictError):
    """409 ``idempotency_in_progress``: a request with the same key still runs; retry a little later."""


class NoCompetitorsFoundError(UnprocessableError):
    """422 ``no_competitors_found``: the search ran and found nothing; its credit is refunded."""


class RateLimitError(RivalsApiError):
    """429 ``rate_limited``; ``retry_after`` is the seconds to wait."""

    @property
    def retry_after(self) -> Optional[float]:
        return self.retry_after_seconds


class ServerError(RivalsApiError):
    """5xx: ``internal_error``, ``research_failed``, ``research_timeout``; failed searches carry ``refunded``."""


class BulkJobFailedError(RivalsError):
    """``wait_for_bulk_job`` saw the job end as ``failed`` (``code`` is the job's error, e.g. insufficient_credits)."""

    def __init__(self, message: str, *, job: Any, code: Optional[str] = None) -> None:
        super().__init__(message, code=code)
        self.job = job


class WebhookSignatureError(RivalsError):
    """A webhook's ``Rivals-Signature`` is missing, malformed, too old or does not match."""


_BY_CODE: Dict[str, Type[RivalsError]] = {
    "invalid_request": InvalidRequestError,
    "invalid_domain": InvalidDomainError,
    "missing_api_key": AuthenticationError,
    "invalid_api_key": AuthenticationError,
    "insufficient_credits": InsufficientCreditsError,
    "forbidden": PermissionDeniedError,
    "not_found": NotFoundError,
    "method_not_allowed": InvalidRequestError,
    "conflict": ConflictError,
    "idempotency_in_progress": IdempotencyInProgressError,
    "payload_too_large": InvalidRequestError,
    "unsupported_media_type": InvalidRequestError,
    "no_competitors_found": NoCompetitorsFoundError,
    "idempotency_key_reused": IdempotencyKeyReusedError,
    "rate_limited": RateLimitError,
    "internal_error": ServerError,
    "research_failed": ServerError,
    "research_timeout": ServerError,
}

_BY_STATUS: Dict[int, Type[RivalsError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    402: InsufficientCreditsError,
    403: PermissionDeniedError,
    404: NotFoundError,
    405: InvalidRequestError,
    409: ConflictError,
    413: InvalidRequestError,
    415: InvalidRequestError,
    422: UnprocessableError,
    429: RateLimitError,
}


_CODE_OF_STATUS: Dict[int, str] = {
    400: "invalid_request", 401: "invalid_api_key", 402: "insufficient_credits", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 409: "conflict", 413: "payload_too_large", 415: "unsupported_media_type",
    429: "rate_limited", 502: "research_failed", 504: "research_timeout",
}


def error_class_for(status: int, code: Optional[str]) -> Type[RivalsApiError]:
    """The class for an answer: by its code when known (a subclass), else by its status (a code added later
    still maps to its family)."""
    if code and code in _BY_CODE:
        return _BY_CODE[code]  # type: ignore[return-value]
    if status >= 500:
        return ServerError
    return _BY_STATUS.get(status, RivalsApiError)  # type: ignore[return-value]


def code_for_status(status: int) -> str:
    """The code of an answer that carried none (a proxy's page, an empty body)."""
    return _CODE_OF_STATUS.get(status, "internal_error" if status >= 500 else "invalid_request")


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """``Retry-After`` in seconds (the API sends whole seconds; an HTTP date is not used by it)."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return seconds if seconds >= 0 else None
