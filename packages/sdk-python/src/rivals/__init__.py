"""sdk-python: the Rivals API client for Python (standard library only)."""
from __future__ import annotations

__version__ = "0.1.0"

from .client import DEFAULT_BASE_URL, DIRECT_UPLOAD_MAX_BYTES, Response, Rivals  # noqa: E402
from .errors import (  # noqa: E402
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    BulkJobFailedError,
    ConflictError,
    IdempotencyInProgressError,
    IdempotencyKeyReusedError,
    InsufficientCreditsError,
    InvalidDomainError,
    InvalidRequestError,
    NoCompetitorsFoundError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    RivalsApiError,
    RivalsConnectionError,
    RivalsError,
    RivalsTimeoutError,
    ServerError,
    UnprocessableError,
    WebhookSignatureError,
)
from .models import *  # noqa: E402,F401,F403
from .models import __all__ as _models_all  # noqa: E402
from .webhooks import (  # noqa: E402
    SIGNATURE_HEADER,
    construct_event,
    is_valid_signature,
    sign,
    sign_webhook,
    verify_signature,
    verify_webhook,
)

Client = Rivals

__all__ = [
    "Rivals", "Client", "Response", "DEFAULT_BASE_URL", "DIRECT_UPLOAD_MAX_BYTES",
    "RivalsError", "RivalsApiError", "RivalsConnectionError", "RivalsTimeoutError", "APIConnectionError",
    "APITimeoutError", "AuthenticationError", "BulkJobFailedError", "ConflictError", "IdempotencyInProgressError",
    "IdempotencyKeyReusedError", "InsufficientCreditsError", "InvalidDomainError", "InvalidRequestError",
    "NoCompetitorsFoundError", "NotFoundError", "PermissionDeniedError", "RateLimitError", "ServerError",
    "UnprocessableError", "WebhookSignatureError",
    "SIGNATURE_HEADER", "construct_event", "is_valid_signature", "sign", "sign_webhook", "verify_signature",
    "verify_webhook",
    *_models_all,
]
