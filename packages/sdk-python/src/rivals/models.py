"""sdk-python: the API's payloads as dataclasses, parsed from JSON; unknown fields are ignored, missing ones are None."""
from __future__ import annotations

import dataclasses
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, Generic, List, Mapping, Optional, Type, TypeVar, Union, get_type_hints

T = TypeVar("T")

_CAMEL = re.compile(r"_([a-z0-9])")


def _camel(name: str) -> str:
    return _CAMEL.sub(lambda m: m.group(1).upper(), name)


def _convert(tp: Any, value: Any) -> Any:
    if value is None:
        return None
    origin = getattr(tp, "__origin__", None)
    args = getattr(tp, "__args__", ())
    if origin is Union:
        inner = [a for a in args if a is not type(None)]
        return _convert(inner[0], value) if len(inner) == 1 else value
    if origin in (list, List) and isinstance(value, list):
        return [_convert(args[0], v) for v in value] if args else list(value)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp) and isinstance(value, Mapping):
        return from_dict(tp, value)
    return value


_HINTS: Dict[type, Dict[str, Any]] = {}


def from_dict(cls: Type[T], data: Mapping[str, Any]) -> T:
    """Build ``cls`` from a camelCase JSON object; fields it does not know are dropped, absent ones are None."""
    hints = _HINTS.get(cls)  # type: ignore[call-overload]
    if hints is None:
        hints = get_type_hints(cls, vars(sys.modules[cls.__module__]))
        _HINTS[cls] = hints  # type: ignore[index]
    kwargs: Dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if not f.init or f.name == "raw":
            continue
        key = f.metadata.get("json", _camel(f.name))
        if key in data:
            kwargs[f.name] = _convert(hints[f.name], data[key])
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:  # type: ignore[misc]
            kwargs[f.name] = None
    obj = cls(**kwargs)
    if any(f.name == "raw" for f in dataclasses.fields(cls)):  # type: ignore[arg-type]
        object.__setattr__(obj, "raw", dict(data))
    return obj


def _raw() -> Any:
    return field(default_factory=dict, repr=False, compare=False)


@dataclass
class Competitor:
    rank: int
    company: str
    domain: str
    match_score: int
    type: str
    confidence: int
    likely_competitor: bool


@dataclass
class SearchResult:
    domain: str
    total_competitors: int
    likely_competitors: int
    elapsed_seconds: float
    credits_remaining: int
    competitors: List[Competitor]
    #: The stored search's id (``X-Search-Id``), to read it again with ``get_search``.
    search_id: Optional[str] = None
    request_id: Optional[str] = None
    #: True when the answer is the replay of an earlier request with the same Idempotency-Key.
    replayed: bool = False
    raw: Dict[str, Any] = _raw()


@dataclass
class Evidence:
    signals: List[str]
    shared_categories: List[str]
    shared_keywords: List[str]
    relation: Optional[str]
    source: str
    #: When the row's company was read from its homepage (rows with source "discovered" only).
    fetched_at: Optional[str] = None


@dataclass
class Firmographics:
    """Who a company is, from the knowledge base; each field None when unknown."""

    founded: Optional[int] = None
    size: Optional[str] = None
    hq: Optional[str] = None
    #: "public", "private" or "subsidiary".
    ownership: Optional[str] = None
    exchange: Optional[str] = None
    ticker: Optional[str] = None


@dataclass
class StoredCompetitor(Competitor):
    evidence: Optional[Evidence] = None
    firmographics: Optional[Firmographics] = None
    #: Look-alike searches: the seeds it is close to.
    similar_to: Optional[List[str]] = None


@dataclass
class Lookalike(Competitor):
    #: The seeds this company is close to, closest first.
    similar_to: List[str] = field(default_factory=list)


@dataclass
class LookalikesResult:
    domains: List[str]
    total_companies: int
    elapsed_seconds: float
    credits_remaining: int
    companies: List[Lookalike]
    search_id: Optional[str] = None
    request_id: Optional[str] = None
    replayed: bool = False
    raw: Dict[str, Any] = _raw()


@dataclass
class SearchFilters:
    exclude: Optional[List[str]] = None
    types: Optional[List[str]] = None
    min_match_score: Optional[int] = None
    countries: Optional[List[str]] = None
    sizes: Optional[List[str]] = None
    founded_from: Optional[int] = None
    founded_to: Optional[int] = None
    ownership: Optional[List[str]] = None


@dataclass
class StoredSearch:
    id: str
    domain: str
    status: str
    source: str
    created_at: str
    completed_at: Optional[str]
    elapsed_seconds: Optional[float]
    total_competitors: int
    likely_competitors: int
    error: Optional[str]
    competitors: List[StoredCompetitor]
    job_id: Optional[str] = None
    #: A look-alike search's seeds (``domain`` is the first).
    seeds: Optional[List[str]] = None
    filters: Optional[SearchFilters] = None
    reason: Optional[str] = None
    raw: Dict[str, Any] = _raw()


@dataclass
class SharedSearch:
    domain: str
    created_at: str
    completed_at: Optional[str]
    total_competitors: int
    likely_competitors: int
    competitors: List[StoredCompetitor]
    seeds: Optional[List[str]] = None
    raw: Dict[str, Any] = _raw()


@dataclass
class Balance:
    credits_remaining: int


@dataclass
class Health:
    status: str
    version: Optional[str] = None
    failing: Optional[List[str]] = None


@dataclass
class HistoryItem:
    id: str
    domain: str
    status: str
    created_at: str
    total_competitors: int
    likely_competitors: int
    source: str
    job_id: Optional[str] = None
    seeds: Optional[List[str]] = None


@dataclass
class MyCompany:
    company: str
    domain: str
    times_found: int
    best_match_score: int
    types: List[str]
    first_seen_at: str
    last_seen_at: str
    found_for: List[str]
    product: Optional[str] = None
    firmographics: Optional[Firmographics] = None


@dataclass
class MyCompanies:
    items: List[MyCompany]
    total: int


@dataclass
class ShareLink:
    token: str
    url: str
    created_at: str


@dataclass
class SavedCompany:
    domain: str
    company: Optional[str]
    note: Optional[str]
    search_id: Optional[str]
    saved_at: str
    #: When the monitor last compared its competitors (None until it has).
    last_checked_at: Optional[str] = None
    #: Changes recorded since ``changes(domain=...)`` last read them.
    unseen_changes: int = 0


@dataclass
class WatchedCompetitor:
    domain: str
    company: str
    match_score: int
    type: str


@dataclass
class Change:
    """What a monitor run found for a watched company (``domain``): new_competitor, dropped, type_changed, score_changed."""

    id: str
    domain: str
    kind: str
    competitor: WatchedCompetitor
    detected_at: str
    #: As it was before (type_changed, score_changed).
    previous: Optional[WatchedCompetitor] = None


@dataclass
class WebhookEndpoint:
    url: str
    events: List[str]
    updated_at: str


@dataclass
class CreatedApiKey:
    id: str
    name: Optional[str]
    #: The full key: returned by this call only.
    key: str
    prefix: str
    created_at: str


@dataclass
class ApiKey:
    id: str
    name: Optional[str]
    prefix: str
    last4: str
    created_at: str
    last_used_at: Optional[str]
    revoked_at: Optional[str]


@dataclass
class RejectedRow:
    row: int
    value: str
    reason: str


@dataclass
class BulkUpload:
    """What an upload answers: the job, queued (direct upload) or started when its file landed (presigned)."""

    job_id: str
    status: str
    total_domains: Optional[int] = None
    rejected_rows: List[RejectedRow] = field(default_factory=list)
    credits_reserved: Optional[int] = None
    credits_remaining: Optional[int] = None


@dataclass
class BulkUploadUrl:
    job_id: str
    upload_url: str
    expires_at: str


@dataclass
class BulkDomainResult:
    domain: str
    status: str
    search_id: Optional[str]
    total_competitors: Optional[int]
    likely_competitors: Optional[int]
    error: Optional[str]
    reason: Optional[str] = None


@dataclass
class WebhookAttempt:
    at: str
    status: Optional[int]
    error: Optional[str]


@dataclass
class BulkJobSummary:
    job_id: str
    status: str
    total_domains: int
    completed_domains: int
    failed_domains: int
    created_at: str
    updated_at: str
    cancelled_domains: Optional[int] = None
    credits_reserved: Optional[int] = None
    credits_charged: Optional[int] = None
    credits_refunded: Optional[int] = None
    limit: Optional[int] = None
    filename: Optional[str] = None
    error: Optional[str] = None
    webhook_url: Optional[str] = None
    finished_at: Optional[str] = None

    @property
    def done(self) -> bool:
        """True once the job will not change any more (completed, failed or cancelled)."""
        return self.status in TERMINAL_JOB_STATUSES


TERMINAL_JOB_STATUSES = ("completed", "failed", "cancelled")


@dataclass
class BulkJob(BulkJobSummary):
    rejected_rows: List[RejectedRow] = field(default_factory=list)
    webhook_attempts: List[WebhookAttempt] = field(default_factory=list)
    results: List[BulkDomainResult] = field(default_factory=list)
    next_cursor: Optional[str] = None
    raw: Dict[str, Any] = _raw()


@dataclass
class Page(Generic[T]):
    """One page of a list; pass ``next_cursor`` back as ``cursor`` for the next (None on the last page)."""

    items: List[T]
    next_cursor: Optional[str]


__all__ = [
    "ApiKey", "Balance", "BulkDomainResult", "BulkJob", "BulkJobSummary", "BulkUpload", "BulkUploadUrl", "Competitor",
    "CreatedApiKey", "Evidence", "Firmographics", "Lookalike", "LookalikesResult", "Health", "HistoryItem", "MyCompanies", "MyCompany", "Page", "RejectedRow",
    "SavedCompany", "Change", "WatchedCompetitor", "WebhookEndpoint", "SearchFilters", "SearchResult", "SharedSearch", "ShareLink", "StoredCompetitor", "StoredSearch",
    "TERMINAL_JOB_STATUSES", "WebhookAttempt", "from_dict",
]
