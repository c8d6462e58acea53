"""sdk-python: the synchronous client: every endpoint, retries with backoff, idempotency keys, pagination."""
from __future__ import annotations

import json
import os
import random
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Type, TypeVar, Union

from . import __version__
from .errors import (
    BulkJobFailedError,
    NotFoundError,
    RivalsConnectionError,
    RivalsError,
    RivalsTimeoutError,
    code_for_status,
    error_class_for,
    parse_retry_after,
)
from .models import (
    ApiKey,
    Balance,
    BulkDomainResult,
    BulkJob,
    BulkJobSummary,
    BulkUpload,
    BulkUploadUrl,
    Change,
    CreatedApiKey,
    Health,
    HistoryItem,
    LookalikesResult,
    MyCompanies,
    Page,
    SavedCompany,
    SearchResult,
    SharedSearch,
    ShareLink,
    StoredSearch,
    WebhookEndpoint,
    from_dict,
)

T = TypeVar("T")
R = TypeVar("R", SearchResult, LookalikesResult)

DEFAULT_BASE_URL = "http://127.0.0.1:3000"
DEFAULT_TIMEOUT = 60.0
#: Uploads up to this size go in the request body; larger ones through a presigned URL (up to 50 MB).
DIRECT_UPLOAD_MAX_BYTES = 5 * 1024 * 1024
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_SAFE_METHODS = frozenset({"GET", "HEAD", "DELETE", "PUT"})
_UNSET: Any = object()


@dataclass
class Response:
    status: int
    headers: Dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8")) if self.body else None

    @property
    def request_id(self) -> Optional[str]:
        return self.headers.get("x-request-id")


class Rivals:
    """A client of the Rivals API.

    ``api_key`` defaults to ``$RIVALS_API_KEY``, ``base_url`` to ``$RIVALS_BASE_URL`` (else the local runtime).
    ``timeout`` (seconds) applies to each attempt and may be overridden per call; ``max_retries`` is how many times a
    429, a 5xx or a failed connection is retried, with exponential backoff and jitter, honouring ``Retry-After``.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        base_url: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = 3,
        backoff_base: float = 0.5,
        backoff_max: float = 20.0,
        user_agent: Optional[str] = None,
    ) -> None:
        self.api_key = api_key if api_key is not None else os.environ.get("RIVALS_API_KEY")
        self.base_url = (base_url or os.environ.get("RIVALS_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.user_agent = user_agent or f"rivals-python/{__version__}"
        #: Replaced in tests to avoid real waits.
        self._sleep: Callable[[float], None] = time.sleep

    # ----------------------------------------------------------------------------------------------- transport
    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        json_body: Any = _UNSET,
        body: Optional[bytes] = None,
        headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[float] = None,
        auth: bool = True,
        idempotency_key: Optional[str] = None,
        absolute_url: bool = False,
    ) -> Response:
        """Send one API call (retried as the client is configured); raise a RivalsError on any non-2xx answer."""
        url = path if absolute_url else self.base_url + path
        if query:
            pairs = [(k, _query_value(v)) for k, v in query.items() if v is not None]
            if pairs:
                url += ("&" if "?" in url else "?") + urllib.parse.urlencode(pairs)
        all_headers: Dict[str, str] = {"User-Agent": self.user_agent, "Accept": "application/json"}
        if json_body is not _UNSET:
            body = json.dumps(json_body).encode("utf-8")
            all_headers["Content-Type"] = "application/json"
        if auth:
            if not self.api_key:
                raise RivalsError(
                    "No API key: pass api_key= or set RIVALS_API_KEY.", code="missing_api_key", status=None
                )
            all_headers["X-API-Key"] = self.api_key
        if idempotency_key:
            all_headers["Idempotency-Key"] = idempotency_key
        all_headers.update(headers or {})
        # Only what cannot do the work twice is retried after a 5xx or a lost connection: reads, deletes and
        # requests carrying an Idempotency-Key. A 429 was refused before any work, so every method retries it.
        replay_safe = method in _SAFE_METHODS or idempotency_key is not None
        attempt = 0
        while True:
            try:
                res = self._send(method, url, body, all_headers, timeout if timeout is not None else self.timeout)
            except RivalsConnectionError:
                if not replay_safe or attempt >= self.max_retries:
                    raise
                self._sleep(self._backoff(attempt, None))
                attempt += 1
                continue
            if 200 <= res.status < 300:
                return res
            error = _error_from(res)
            retryable = res.status == 429 or (res.status in _RETRY_STATUSES and replay_safe)
            if not retryable or attempt >= self.max_retries:
                raise error
            self._sleep(self._backoff(attempt, parse_retry_after(res.headers.get("retry-after"))))
            attempt += 1

    def _backoff(self, attempt: int, retry_after: Optional[float]) -> float:
        if retry_after is not None:
            # The server said when; a little jitter keeps many clients from coming back in the same instant.
            return min(retry_after, self.backoff_max * 3) + random.uniform(0, 0.1 * max(retry_after, 1.0))
        ceiling = min(self.backoff_max, self.backoff_base * (2**attempt))
        return random.uniform(ceiling / 2, ceiling)

    def _send(self, method: str, url: str, body: Optional[bytes], headers: Mapping[str, str], timeout: float) -> Response:
        req = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
        try:
            with urllib.request.urlopen(req, timeout=timeout) as raw:  # noqa: S310 (the URL is the caller's API)
                return Response(raw.status, _lower(raw.headers.items()), raw.read())
        except urllib.error.HTTPError as err:
            with err:
                return Response(err.code, _lower(err.headers.items() if err.headers else []), err.read())
        except (socket.timeout, TimeoutError) as err:
            raise RivalsTimeoutError(f"{method} {url} timed out after {timeout} s") from err
        except urllib.error.URLError as err:
            if isinstance(err.reason, (socket.timeout, TimeoutError)):
                raise RivalsTimeoutError(f"{method} {url} timed out after {timeout} s") from err
            raise RivalsConnectionError(f"{method} {url} failed: {err.reason}") from err
        except (ConnectionError, OSError) as err:
            raise RivalsConnectionError(f"{method} {url} failed: {err}") from err

    def _get(self, path: str, cls: Type[T], *, query: Optional[Mapping[str, Any]] = None, timeout: Optional[float] = None, auth: bool = True) -> T:
        return from_dict(cls, self.request("GET", path, query=query, timeout=timeout, auth=auth).json())

    def _page(self, path: str, cls: Type[T], query: Mapping[str, Any], timeout: Optional[float]) -> Page[T]:
        data = self.request("GET", path, query=query, timeout=timeout).json()
        return Page(items=[from_dict(cls, item) for item in data.get("items", [])], next_cursor=data.get("nextCursor"))

    def _iterate(self, fetch: Callable[[Optional[str]], Page[T]]) -> Iterator[T]:
        cursor: Optional[str] = None
        while True:
            page = fetch(cursor)
            yield from page.items
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    # ----------------------------------------------------------------------------------------------- search
    def search(
        self,
        domain: str,
        *,
        limit: Optional[int] = None,
        exclude: Optional[Sequence[str]] = None,
        types: Optional[Sequence[str]] = None,
        min_match_score: Optional[int] = None,
        countries: Optional[Sequence[str]] = None,
        sizes: Optional[Sequence[str]] = None,
        founded_from: Optional[int] = None,
        founded_to: Optional[int] = None,
        ownership: Optional[Sequence[str]] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> SearchResult:
        """Research a company's competitors (1 credit when it returns results; failures are refunded).

        Every call carries an Idempotency-Key (a fresh UUID unless given), kept across its retries, so a retry
        never charges twice. ``sizes``, ``founded_from``, ``founded_to`` and ``ownership`` ("public", "private",
        "subsidiary") screen the companies; one whose fact is unknown is left out when a filter on it is set.
        """
        payload: Dict[str, Any] = {"domain": domain, **_filters(limit=limit, exclude=exclude, types=types, min_match_score=min_match_score, countries=countries,
                                                                sizes=sizes, founded_from=founded_from, founded_to=founded_to, ownership=ownership)}
        return self._research("/api/v1/search", payload, SearchResult, idempotency_key=idempotency_key, timeout=timeout)

    def _research(self, path: str, payload: Dict[str, Any], cls: Type[R], *, idempotency_key: Optional[str], timeout: Optional[float]) -> R:
        """A paid research call, always with an Idempotency-Key; the result carries the stored search's id."""
        res = self.request("POST", path, json_body=payload, timeout=timeout, idempotency_key=idempotency_key or _new_key())
        result = from_dict(cls, res.json())
        result.search_id = res.headers.get("x-search-id")
        result.request_id = res.request_id
        result.replayed = res.headers.get("idempotent-replayed") == "true"
        return result

    def lookalikes(
        self,
        domains: Sequence[str],
        *,
        limit: Optional[int] = None,
        exclude: Optional[Sequence[str]] = None,
        types: Optional[Sequence[str]] = None,
        min_match_score: Optional[int] = None,
        countries: Optional[Sequence[str]] = None,
        sizes: Optional[Sequence[str]] = None,
        founded_from: Optional[int] = None,
        founded_to: Optional[int] = None,
        ownership: Optional[Sequence[str]] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> LookalikesResult:
        """Companies like 1 to 20 seed companies at once, each with the seeds it is close to (``similar_to``).

        1 credit whatever the number of seeds, refunded when nothing is found; an Idempotency-Key as with ``search``.
        """
        payload: Dict[str, Any] = {"domains": list(domains), **_filters(limit=limit, exclude=exclude, types=types, min_match_score=min_match_score, countries=countries,
                                                                         sizes=sizes, founded_from=founded_from, founded_to=founded_to, ownership=ownership)}
        return self._research("/api/v1/lookalikes", payload, LookalikesResult, idempotency_key=idempotency_key, timeout=timeout)

    def balance(self, *, timeout: Optional[float] = None) -> int:
        """Credits remaining."""
        return self._get("/api/v1/balance", Balance, timeout=timeout).credits_remaining

    def get_search(self, search_id: str, *, timeout: Optional[float] = None) -> StoredSearch:
        """A past search as stored, each competitor with its evidence. Free."""
        return self._get(f"/api/searches/{_seg(search_id)}", StoredSearch, timeout=timeout)

    def health(self, *, timeout: Optional[float] = None) -> Health:
        try:
            return self._get("/api/health", Health, timeout=timeout, auth=False)
        except RivalsError as err:
            if err.status == 503 and "status" in err.body:
                return from_dict(Health, err.body)
            raise

    # ----------------------------------------------------------------------------------------------- history
    def history(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        source: Optional[str] = None,
        status: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Page[HistoryItem]:
        """One page of past searches, newest first."""
        query = {"limit": limit, "cursor": cursor, "source": source, "status": status}
        return self._page("/api/history", HistoryItem, query, timeout)

    def iter_history(self, *, page_size: Optional[int] = None, source: Optional[str] = None, status: Optional[str] = None) -> Iterator[HistoryItem]:
        """Every past search, newest first, reading page after page as it goes."""
        return self._iterate(lambda c: self.history(limit=page_size, cursor=c, source=source, status=status))

    # ----------------------------------------------------------------------------------------------- account data
    def my_companies(self, *, timeout: Optional[float] = None) -> MyCompanies:
        """Every company found across the account's searches, most often found first (up to 5,000)."""
        return self._get("/api/my-companies", MyCompanies, timeout=timeout)

    def my_companies_csv(self, *, timeout: Optional[float] = None) -> str:
        res = self.request("GET", "/api/my-companies", query={"format": "csv"}, headers={"Accept": "text/csv"}, timeout=timeout)
        return res.body.decode("utf-8")

    def share_search(self, search_id: str, *, timeout: Optional[float] = None) -> ShareLink:
        """A public read-only link to a search (the same live link when called again)."""
        res = self.request("POST", f"/api/searches/{_seg(search_id)}/share", timeout=timeout)
        link = from_dict(ShareLink, res.json())
        if link.url.startswith("/"):  # a server older than absolute links: on the origin this client talks to
            link.url = self.base_url + link.url
        return link

    def revoke_share(self, search_id: str, *, timeout: Optional[float] = None) -> None:
        self.request("DELETE", f"/api/searches/{_seg(search_id)}/share", timeout=timeout)

    def get_shared(self, token: str, *, timeout: Optional[float] = None) -> SharedSearch:
        """The public read of a shared search (no key needed)."""
        return self._get(f"/api/shared/{_seg(token)}", SharedSearch, timeout=timeout, auth=False)

    def saved_companies(self, *, limit: Optional[int] = None, cursor: Optional[str] = None, timeout: Optional[float] = None) -> Page[SavedCompany]:
        return self._page("/api/saved-companies", SavedCompany, {"limit": limit, "cursor": cursor}, timeout)

    def iter_saved_companies(self, *, page_size: Optional[int] = None) -> Iterator[SavedCompany]:
        return self._iterate(lambda c: self.saved_companies(limit=page_size, cursor=c))

    def save_company(
        self,
        domain: str,
        *,
        company: Optional[str] = None,
        note: Optional[str] = None,
        search_id: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> SavedCompany:
        """Add a company to the watchlist; saving the same domain again updates the note (or name) given."""
        payload = {k: v for k, v in (("domain", domain), ("company", company), ("note", note), ("searchId", search_id)) if v is not None}
        return from_dict(SavedCompany, self.request("POST", "/api/saved-companies", json_body=payload, timeout=timeout).json())

    def update_saved_company(self, domain: str, *, note: Any = _UNSET, company: Any = _UNSET, timeout: Optional[float] = None) -> SavedCompany:
        """Change a saved company's ``note`` or ``company`` name (``None`` clears it); ``NotFoundError`` when not saved."""
        payload = {k: v for k, v in (("note", note), ("company", company)) if v is not _UNSET}
        return from_dict(SavedCompany, self.request("PATCH", f"/api/saved-companies/{_seg(domain)}", json_body=payload, timeout=timeout).json())

    def remove_saved_company(self, domain: str, *, timeout: Optional[float] = None) -> None:
        self.request("DELETE", f"/api/saved-companies/{_seg(domain)}", timeout=timeout)

    # ----------------------------------------------------------------------------------------------- API keys
    def create_api_key(self, name: Optional[str] = None, *, timeout: Optional[float] = None) -> CreatedApiKey:
        """A new key; its ``key`` is shown by this call only."""
        payload = {"name": name} if name is not None else {}
        return from_dict(CreatedApiKey, self.request("POST", "/api/auth/api-keys", json_body=payload, timeout=timeout).json())

    def api_keys(self, *, limit: Optional[int] = None, cursor: Optional[str] = None, timeout: Optional[float] = None) -> Page[ApiKey]:
        return self._page("/api/auth/api-keys", ApiKey, {"limit": limit, "cursor": cursor}, timeout)

    def iter_api_keys(self, *, page_size: Optional[int] = None) -> Iterator[ApiKey]:
        return self._iterate(lambda c: self.api_keys(limit=page_size, cursor=c))

    def revoke_api_key(self, key_id: str, *, timeout: Optional[float] = None) -> None:
        """Revoke a key (idempotent); revoking the account's last active key is a ConflictError."""
        self.request("DELETE", f"/api/auth/api-keys/{_seg(key_id)}", timeout=timeout)

    # ----------------------------------------------------------------------------------------------- bulk
    def upload_bulk(
        self,
        csv: Union[bytes, str, "os.PathLike[str]"],
        *,
        limit: Optional[int] = None,
        webhook_url: Optional[str] = None,
        filename: Optional[str] = None,
        exclude: Optional[Sequence[str]] = None,
        types: Optional[Sequence[str]] = None,
        min_match_score: Optional[int] = None,
        countries: Optional[Sequence[str]] = None,
        sizes: Optional[Sequence[str]] = None,
        founded_from: Optional[int] = None,
        founded_to: Optional[int] = None,
        ownership: Optional[Sequence[str]] = None,
        idempotency_key: Optional[str] = None,
        direct_max_bytes: int = DIRECT_UPLOAD_MAX_BYTES,
        timeout: Optional[float] = None,
    ) -> BulkUpload:
        """Start a bulk job from a CSV: a file path (``str`` or ``os.PathLike``), or the CSV itself as ``bytes`` or as
        text of more than one line. A one-line ``str`` is a path: one that names no file raises ``FileNotFoundError``
        before anything is sent (so a typo never uploads the path's text as a CSV, nor spends a credit).

        Up to ``direct_max_bytes`` (5 MB) the file goes in the request body with an Idempotency-Key; larger files
        go through a presigned URL (up to 50 MB), and the job starts when the file lands (status ``awaiting_upload``
        until then: follow it with ``wait_for_bulk_job``). The filters apply to every domain, as in ``search``.
        """
        filters = _filters(exclude=exclude, types=types, min_match_score=min_match_score, countries=countries, sizes=sizes, founded_from=founded_from, founded_to=founded_to, ownership=ownership)
        data, name = _read_csv(csv)
        name = filename or name
        if len(data) <= direct_max_bytes:
            res = self.request(
                "POST",
                "/api/bulk/upload",
                # The query carries the filters' lists comma-separated.
                query={"limit": limit, "webhookUrl": webhook_url, "filename": name, **{k: ",".join(v) if isinstance(v, list) else v for k, v in filters.items()}},
                body=data,
                headers={"Content-Type": "text/csv"},
                idempotency_key=idempotency_key or _new_key(),
                timeout=timeout,
            )
            return from_dict(BulkUpload, res.json())
        target = self.create_upload_url(size_bytes=len(data), filename=name, limit=limit, webhook_url=webhook_url, timeout=timeout, exclude=exclude, types=types, min_match_score=min_match_score, countries=countries, sizes=sizes, founded_from=founded_from, founded_to=founded_to, ownership=ownership)
        self.request(
            "PUT", target.upload_url, body=data, headers={"Content-Type": "text/csv"}, auth=False, absolute_url=True, timeout=timeout
        )
        return BulkUpload(job_id=target.job_id, status="awaiting_upload")

    def create_upload_url(
        self,
        *,
        size_bytes: int,
        filename: Optional[str] = None,
        limit: Optional[int] = None,
        webhook_url: Optional[str] = None,
        timeout: Optional[float] = None,
        exclude: Optional[Sequence[str]] = None,
        types: Optional[Sequence[str]] = None,
        min_match_score: Optional[int] = None,
        countries: Optional[Sequence[str]] = None,
        sizes: Optional[Sequence[str]] = None,
        founded_from: Optional[int] = None,
        founded_to: Optional[int] = None,
        ownership: Optional[Sequence[str]] = None,
    ) -> BulkUploadUrl:
        """A presigned PUT for a large CSV of exactly ``size_bytes`` bytes (the URL accepts no other size); send it
        with ``Content-Type: text/csv``."""
        payload = {"sizeBytes": size_bytes, **_filters(filename=filename, limit=limit, webhook_url=webhook_url, exclude=exclude, types=types, min_match_score=min_match_score, countries=countries, sizes=sizes, founded_from=founded_from, founded_to=founded_to, ownership=ownership)}
        return from_dict(BulkUploadUrl, self.request("POST", "/api/bulk/upload-url", json_body=payload, timeout=timeout).json())

    def get_bulk_job(self, job_id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None, timeout: Optional[float] = None) -> BulkJob:
        """A job's state and one page of its per-domain results (``next_cursor`` pages them)."""
        return self._get(f"/api/bulk/jobs/{_seg(job_id)}", BulkJob, query={"limit": limit, "cursor": cursor}, timeout=timeout)

    def iter_bulk_job_results(self, job_id: str, *, page_size: Optional[int] = None) -> Iterator[BulkDomainResult]:
        def fetch(cursor: Optional[str]) -> Page[BulkDomainResult]:
            job = self.get_bulk_job(job_id, limit=page_size, cursor=cursor)
            return Page(items=job.results, next_cursor=job.next_cursor)

        return self._iterate(fetch)

    def bulk_jobs(self, *, limit: Optional[int] = None, cursor: Optional[str] = None, timeout: Optional[float] = None) -> Page[BulkJobSummary]:
        return self._page("/api/bulk/jobs", BulkJobSummary, {"limit": limit, "cursor": cursor}, timeout)

    def iter_bulk_jobs(self, *, page_size: Optional[int] = None) -> Iterator[BulkJobSummary]:
        return self._iterate(lambda c: self.bulk_jobs(limit=page_size, cursor=c))

    def cancel_bulk_job(self, job_id: str, *, timeout: Optional[float] = None) -> None:
        """Cancel a queued or running job; domains not yet started are refunded at once."""
        self.request("DELETE", f"/api/bulk/jobs/{_seg(job_id)}", timeout=timeout)

    def wait_for_bulk_job(
        self,
        job_id: str,
        *,
        on_progress: Optional[Callable[[BulkJob], None]] = None,
        poll_interval: float = 2.0,
        timeout: Optional[float] = None,
        raise_on_failure: bool = True,
    ) -> BulkJob:
        """Poll a job until it ends; ``on_progress`` sees each state read. A ``failed`` job raises
        BulkJobFailedError (unless ``raise_on_failure=False``); running past ``timeout`` seconds raises
        RivalsTimeoutError (the job goes on)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            job = self.get_bulk_job(job_id, limit=1)
            if on_progress is not None:
                on_progress(job)
            if job.done:
                if job.status == "failed" and raise_on_failure:
                    raise BulkJobFailedError(f"Bulk job {job_id} failed: {job.error}", job=job, code=job.error)
                return job
            if deadline is not None and time.monotonic() + poll_interval > deadline:
                raise RivalsTimeoutError(f"Bulk job {job_id} still {job.status} after {timeout} s")
            self._sleep(poll_interval)

    def download_bulk_job(self, job_id: str, *, timeout: Optional[float] = None) -> str:
        """The job's results as CSV text (one row per competitor, one per failed domain)."""
        res = self.request("GET", f"/api/bulk/jobs/{_seg(job_id)}/download", headers={"Accept": "text/csv"}, timeout=timeout)
        return res.body.decode("utf-8")

    def create_webhook_secret(self, *, timeout: Optional[float] = None) -> str:
        """Create or rotate the account's webhook signing secret (``whsec_...``); shown once."""
        return str(self.request("POST", "/api/webhook-secret", timeout=timeout).json()["secret"])

    # ---- watchlist monitoring (free) ----
    def changes(
        self, *, domain: Optional[str] = None, since: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None, timeout: Optional[float] = None
    ) -> Page[Change]:
        """What the monitor found in the watched companies' competitors, newest first. With ``domain``, marks its changes seen."""
        return self._page("/api/changes", Change, {"domain": domain, "since": since, "limit": limit, "cursor": cursor}, timeout)

    def iter_changes(self, *, domain: Optional[str] = None, since: Optional[str] = None, page_size: Optional[int] = None) -> Iterator[Change]:
        return self._iterate(lambda c: self.changes(domain=domain, since=since, limit=page_size, cursor=c))

    def set_webhook_endpoint(self, url: str, *, timeout: Optional[float] = None) -> WebhookEndpoint:
        """Set the account's https endpoint for ``watchlist.changed`` events (create a webhook secret first)."""
        return from_dict(WebhookEndpoint, self.request("PUT", "/api/webhook-endpoint", json_body={"url": url}, timeout=timeout).json())

    def get_webhook_endpoint(self, *, timeout: Optional[float] = None) -> Optional[WebhookEndpoint]:
        """The account's webhook endpoint, or None when none is set."""
        try:
            return self._get("/api/webhook-endpoint", WebhookEndpoint, timeout=timeout)
        except NotFoundError:
            return None

    def remove_webhook_endpoint(self, *, timeout: Optional[float] = None) -> None:
        self.request("DELETE", "/api/webhook-endpoint", timeout=timeout)


def _filters(**values: Any) -> Dict[str, Any]:
    """The given search options and filters as the API names them (camelCase), lists as lists, None left out."""
    return {
        re.sub(r"_([a-z])", lambda m: m.group(1).upper(), key): list(value) if isinstance(value, (list, tuple)) else value
        for key, value in values.items()
        if value is not None
    }


def _new_key() -> str:
    return str(uuid.uuid4())


def _seg(value: str) -> str:
    return urllib.parse.quote(str(value), safe="")


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _lower(items: Any) -> Dict[str, str]:
    return {str(k).lower(): str(v) for k, v in items}


def _read_csv(csv: Union[bytes, str, "os.PathLike[str]"]) -> "tuple[bytes, Optional[str]]":
    """The CSV's bytes and file name: bytes and multi-line text are the CSV itself; anything else is a path."""
    if isinstance(csv, (bytes, bytearray)):
        return bytes(csv), None
    if isinstance(csv, str) and ("\n" in csv or "\r" in csv):
        return csv.encode("utf-8"), None
    path = os.fspath(csv)
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"No such CSV file: {path!r} (nothing was uploaded). Pass a path to a file, or the CSV itself as bytes or as text with a line break."
        )
    with open(path, "rb") as fh:
        return fh.read(), os.path.basename(path)



def _error_from(res: Response) -> RivalsError:
    body: Dict[str, Any] = {}
    try:
        parsed = res.json()
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        inner = parsed.get("error")
        body = inner if isinstance(inner, dict) else parsed
    code = body.get("code") if isinstance(body.get("code"), str) else code_for_status(res.status)
    message = body.get("message") if isinstance(body.get("message"), str) else f"HTTP {res.status}"
    request_id = body.get("requestId") if isinstance(body.get("requestId"), str) else res.request_id
    cls = error_class_for(res.status, code)
    return cls(message, code=code, status=res.status, request_id=request_id, body=body, headers=res.headers)


__all__ = ["Rivals", "Response", "DEFAULT_BASE_URL", "DIRECT_UPLOAD_MAX_BYTES"]
