"""sdk-python: verification of webhook signatures (`Rivals-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`)."""
from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any, Dict, List, Optional, Tuple, Union

from .errors import WebhookSignatureError

SIGNATURE_HEADER = "Rivals-Signature"
#: Seconds a signature stays acceptable, either side of now (replays older than this are refused).
DEFAULT_TOLERANCE = 300


def _bytes(value: Union[bytes, bytearray, str]) -> bytes:
    return bytes(value) if isinstance(value, (bytes, bytearray)) else value.encode("utf-8")


def sign(payload: Union[bytes, str], secret: str, timestamp: Optional[int] = None) -> str:
    """The ``Rivals-Signature`` header the service sends for ``payload`` (useful for tests of your endpoint)."""
    t = int(time.time()) if timestamp is None else int(timestamp)
    digest = hmac.new(_bytes(secret), f"{t}.".encode("ascii") + _bytes(payload), hashlib.sha256).hexdigest()
    return f"t={t},v1={digest}"


def _parse(header: str) -> Tuple[int, List[str]]:
    timestamp: Optional[int] = None
    signatures: List[str] = []
    for part in header.split(","):
        key, sep, value = part.strip().partition("=")
        if not sep:
            continue
        if key == "t":
            try:
                timestamp = int(value)
            except ValueError:
                raise WebhookSignatureError("The signature's timestamp is not a number.", code="invalid_signature") from None
        elif key == "v1":
            signatures.append(value.strip())
    if timestamp is None or not signatures:
        raise WebhookSignatureError("The signature header has no t= or no v1=.", code="invalid_signature")
    return timestamp, signatures


def verify_signature(
    payload: Union[bytes, str],
    header: Optional[str],
    secret: str,
    *,
    tolerance: int = DEFAULT_TOLERANCE,
    now: Optional[float] = None,
) -> None:
    """Check that ``payload`` (the raw request body, as received) was signed with ``secret`` within ``tolerance``
    seconds of ``now``; raise WebhookSignatureError otherwise. Compares in constant time; any ``v1`` may match
    (several are sent while a secret rotates)."""
    if not header:
        raise WebhookSignatureError(f"No {SIGNATURE_HEADER} header.", code="invalid_signature")
    timestamp, signatures = _parse(header)
    current = time.time() if now is None else now
    if tolerance > 0 and abs(current - timestamp) > tolerance:
        raise WebhookSignatureError("The signature is outside the tolerance window (a replay?).", code="signature_expired")
    expected = hmac.new(_bytes(secret), f"{timestamp}.".encode("ascii") + _bytes(payload), hashlib.sha256).hexdigest()
    if not any(hmac.compare_digest(expected, candidate) for candidate in signatures):
        raise WebhookSignatureError("The signature does not match the payload.", code="invalid_signature")


def is_valid_signature(payload: Union[bytes, str], header: Optional[str], secret: str, *, tolerance: int = DEFAULT_TOLERANCE, now: Optional[float] = None) -> bool:
    """``verify_signature`` as a boolean."""
    try:
        verify_signature(payload, header, secret, tolerance=tolerance, now=now)
    except WebhookSignatureError:
        return False
    return True


def construct_event(
    payload: Union[bytes, str], header: Optional[str], secret: str, *, tolerance: int = DEFAULT_TOLERANCE, now: Optional[float] = None
) -> Dict[str, Any]:
    """Verify, then parse the event: ``{"id": "evt_...", "type": "bulk_job.completed", "createdAt", "data": {...}}``."""
    verify_signature(payload, header, secret, tolerance=tolerance, now=now)
    event = json.loads(_bytes(payload).decode("utf-8"))
    if not isinstance(event, dict):
        raise WebhookSignatureError("The payload is not a JSON object.", code="invalid_payload")
    return event


def verify_webhook(
    raw_body: Union[bytes, str], signature_header: Optional[str], secret: str, *, tolerance: int = DEFAULT_TOLERANCE, now: Optional[float] = None
) -> Dict[str, Any]:
    """The Node SDK's name for ``construct_event``: verify the signature, return the parsed event."""
    return construct_event(raw_body, signature_header, secret, tolerance=tolerance, now=now)


def sign_webhook(raw_body: Union[bytes, str], secret: str, timestamp: Optional[int] = None) -> str:
    """The Node SDK's name for ``sign``."""
    return sign(raw_body, secret, timestamp)
