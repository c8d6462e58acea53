"""sdk-python tests: retries, backoff, idempotency keys, error mapping, pagination and timeouts against a fake API."""
from __future__ import annotations

import json
import os
import unittest
import urllib.parse
from typing import List
from unittest import mock

from support import FakeApi, Recorded, error

from rivals import (
    IdempotencyKeyReusedError,
    NoCompetitorsFoundError,
    RivalsApiError,
    RivalsTimeoutError,
    UnprocessableError,
    AuthenticationError,
    ConflictError,
    IdempotencyInProgressError,
    InsufficientCreditsError,
    InvalidDomainError,
    InvalidRequestError,
    NotFoundError,
    RateLimitError,
    Rivals,
    RivalsError,
    ServerError,
)

KEY = "sk-live-" + "a" * 40
SEARCH = {"domain": "stripe.com", "totalCompetitors": 1, "likelyCompetitors": 1, "elapsedSeconds": 0.2, "creditsRemaining": 9,
          "competitors": [{"rank": 1, "company": "Adyen", "domain": "adyen.com", "matchScore": 91, "type": "Direct", "confidence": 88, "likelyCompetitor": True, "future": "ignored"}]}


def client(fake: FakeApi, **kwargs: object) -> "tuple[Rivals, List[float]]":
    c = Rivals(KEY, base_url=fake.url, **kwargs)  # type: ignore[arg-type]
    waits: List[float] = []
    c._sleep = waits.append
    return c, waits


class RetryTest(unittest.TestCase):
    def test_retries_a_429_after_its_retry_after_with_the_same_idempotency_key(self) -> None:
        with FakeApi([(429, {"Retry-After": "2"}, error(429, "rate_limited", retryAfterSeconds=2)), (200, {"X-Search-Id": "srch_1", "X-Request-Id": "req_9"}, SEARCH)]) as fake:
            c, waits = client(fake)
            result = c.search("stripe.com", limit=5, types=["Direct"])
        self.assertEqual(len(fake.requests), 2)
        keys = [r.headers.get("idempotency-key") for r in fake.requests]
        self.assertTrue(keys[0])
        self.assertEqual(keys[0], keys[1])
        self.assertEqual(json.loads(fake.requests[0].body), {"domain": "stripe.com", "limit": 5, "types": ["Direct"]})
        self.assertEqual(fake.requests[0].headers["x-api-key"], KEY)
        self.assertEqual(len(waits), 1)
        self.assertGreaterEqual(waits[0], 2)
        self.assertLess(waits[0], 2.5)
        self.assertEqual(result.competitors[0].match_score, 91)
        self.assertEqual(result.search_id, "srch_1")
        self.assertEqual(result.request_id, "req_9")

    def test_each_search_gets_its_own_idempotency_key(self) -> None:
        with FakeApi([(200, {}, SEARCH), (200, {}, SEARCH)]) as fake:
            c, _ = client(fake)
            c.search("stripe.com")
            c.search("stripe.com")
        self.assertNotEqual(fake.requests[0].headers["idempotency-key"], fake.requests[1].headers["idempotency-key"])

    def test_backs_off_exponentially_with_jitter_on_5xx_then_gives_up(self) -> None:
        with FakeApi([(503, {}, error(503, "internal_error"))] * 4) as fake:
            c, waits = client(fake, max_retries=3, backoff_base=1.0)
            with self.assertRaises(ServerError) as ctx:
                c.balance()
        self.assertEqual(len(fake.requests), 4)
        self.assertEqual(ctx.exception.status, 503)
        self.assertEqual(len(waits), 3)
        for attempt, wait in enumerate(waits):
            self.assertGreaterEqual(wait, 2**attempt / 2)
            self.assertLessEqual(wait, 2**attempt)

    def test_does_not_replay_a_post_without_idempotency_key_after_a_5xx(self) -> None:
        with FakeApi([(500, {}, error(500, "internal_error")), (201, {}, {"secret": "whsec_x"})]) as fake:
            c, _ = client(fake)
            with self.assertRaises(ServerError):
                c.create_webhook_secret()
        self.assertEqual(len(fake.requests), 1)

    def test_retries_a_429_on_any_method_and_raises_rate_limit_error_when_retries_run_out(self) -> None:
        with FakeApi([(429, {"Retry-After": "1"}, error(429, "rate_limited", "req_r", retryAfterSeconds=1))] * 2) as fake:
            c, waits = client(fake, max_retries=1)
            with self.assertRaises(RateLimitError) as ctx:
                c.create_api_key("ci")
        self.assertEqual(len(fake.requests), 2)
        self.assertEqual(ctx.exception.retry_after, 1.0)
        self.assertEqual(ctx.exception.retry_after_seconds, 1.0)
        self.assertEqual(ctx.exception.request_id, "req_r")
        self.assertEqual(len(waits), 1)


class ErrorMappingTest(unittest.TestCase):
    CASES = [
        (400, "invalid_request", InvalidRequestError),
        (400, "invalid_domain", InvalidDomainError),
        (401, "invalid_api_key", AuthenticationError),
        (402, "insufficient_credits", InsufficientCreditsError),
        (404, "not_found", NotFoundError),
        (409, "conflict", ConflictError),
        (409, "idempotency_in_progress", IdempotencyInProgressError),
        (422, "idempotency_key_reused", IdempotencyKeyReusedError),
        (422, "no_competitors_found", NoCompetitorsFoundError),
        (422, "unprocessable_added_later", UnprocessableError),
        (502, "research_failed", ServerError),
        (418, "teapot_added_later", RivalsApiError),
    ]

    def test_maps_each_error_to_its_class_with_code_status_and_request_id(self) -> None:
        for status, code, cls in self.CASES:
            with self.subTest(code=code):
                body = error(status, code, "req_" + code, creditsRequired=1, creditsRemaining=0, details=[{"field": "domain", "problem": "bad"}])
                with FakeApi([(status, {"X-Request-Id": "req_" + code}, body)]) as fake:
                    c, _ = client(fake, max_retries=0)
                    with self.assertRaises(cls) as ctx:
                        c.search("stripe.com")
                err = ctx.exception
                self.assertIsInstance(err, RivalsApiError)
                self.assertIsInstance(err, RivalsError)
                self.assertEqual((err.code, err.status, err.request_id), (code, status, "req_" + code))
                self.assertEqual(err.details, [{"field": "domain", "problem": "bad"}])
                self.assertIn(code, str(err))

    def test_insufficient_credits_carries_the_balance(self) -> None:
        with FakeApi([(402, {}, error(402, "insufficient_credits", creditsRemaining=0, creditsRequired=3))]) as fake:
            c, _ = client(fake)
            with self.assertRaises(InsufficientCreditsError) as ctx:
                c.upload_bulk(b"domain\na.com\nb.com\nc.com\n")
        self.assertEqual((ctx.exception.credits_remaining, ctx.exception.credits_required), (0, 3))
        req = fake.requests[0]
        self.assertEqual(req.headers["content-type"], "text/csv")
        self.assertTrue(req.headers["idempotency-key"])

    def test_an_answer_without_a_json_body_still_maps_by_status(self) -> None:
        with FakeApi([(404, {"X-Request-Id": "req_gw"}, b"<html>nope</html>")]) as fake:
            c, _ = client(fake)
            with self.assertRaises(NotFoundError) as ctx:
                c.get_search("srch_x")
        self.assertEqual((ctx.exception.status, ctx.exception.code, ctx.exception.request_id), (404, "not_found", "req_gw"))

    def test_no_api_key_fails_before_sending(self) -> None:
        with mock.patch.dict(os.environ, {"RIVALS_API_KEY": ""}):
            with self.assertRaises(RivalsError) as ctx:
                Rivals(base_url="http://127.0.0.1:9").balance()
        self.assertEqual(ctx.exception.code, "missing_api_key")


class PaginationTest(unittest.TestCase):
    def test_iterates_every_page_passing_the_cursor_back(self) -> None:
        pages = {None: (["a", "b"], "c1"), "c1": (["c", "d"], "c2"), "c2": (["e"], None)}

        def route(req: Recorded) -> "tuple[int, dict, object]":
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(req.path).query)
            names, nxt = pages[query.get("cursor", [None])[0]]
            items = [{"id": f"key_{n}", "name": n, "prefix": "sk-live-x", "last4": "abcd", "createdAt": "t", "lastUsedAt": None, "revokedAt": None} for n in names]
            return 200, {}, {"items": items, "nextCursor": nxt}

        with FakeApi(route=route) as fake:
            c, _ = client(fake)
            names = [k.name for k in c.iter_api_keys(page_size=2)]
        self.assertEqual(names, ["a", "b", "c", "d", "e"])
        self.assertEqual(len(fake.requests), 3)
        self.assertIn("limit=2", fake.requests[0].path)


class MonitoringTest(unittest.TestCase):
    def test_lists_changes_with_their_filters_and_reads_a_missing_endpoint_as_none(self) -> None:
        change = {
            "id": "chg_1", "domain": "rollins.com", "kind": "score_changed", "detectedAt": "2026-11-29T06:00:00.000Z",
            "competitor": {"domain": "terminix.com", "company": "Terminix", "matchScore": 70, "type": "Direct"},
            "previous": {"domain": "terminix.com", "company": "Terminix", "matchScore": 82, "type": "Direct"},
        }

        def route(req: Recorded) -> "tuple[int, dict, object]":
            if req.path.startswith("/api/changes"):
                return 200, {}, {"items": [change], "nextCursor": None}
            return 404, {}, {"error": {"code": "not_found", "message": "No such webhook endpoint.", "requestId": "r"}}

        with FakeApi(route=route) as fake:
            c, _ = client(fake)
            [found] = list(c.iter_changes(domain="rollins.com", since="2026-11-01T00:00:00Z"))
            self.assertIsNone(c.get_webhook_endpoint())
        self.assertEqual((found.kind, found.competitor.match_score, found.previous.match_score if found.previous else None), ("score_changed", 70, 82))
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(fake.requests[0].path).query)
        self.assertEqual((query["domain"], query["since"]), (["rollins.com"], ["2026-11-01T00:00:00Z"]))


class ConfigTest(unittest.TestCase):
    def test_reads_base_url_and_key_from_the_environment(self) -> None:
        with FakeApi([(200, {}, {"creditsRemaining": 7})]) as fake:
            with mock.patch.dict(os.environ, {"RIVALS_BASE_URL": fake.url + "/", "RIVALS_API_KEY": "sk-live-env"}):
                self.assertEqual(Rivals().balance(), 7)
        self.assertEqual(fake.requests[0].headers["x-api-key"], "sk-live-env")
        self.assertEqual(fake.requests[0].path, "/api/v1/balance")

    def test_a_per_call_timeout_raises_api_timeout_error(self) -> None:
        with FakeApi([(200, {}, {"creditsRemaining": 7})] * 2, delay=1.0) as fake:
            c, _ = client(fake, max_retries=0)
            with self.assertRaises(RivalsTimeoutError):
                c.balance(timeout=0.2)


class BulkWaitTest(unittest.TestCase):
    def test_waits_for_a_job_reporting_progress(self) -> None:
        job = {"jobId": "job_1", "totalDomains": 2, "failedDomains": 0, "createdAt": "t", "updatedAt": "t", "results": [], "nextCursor": None}
        answers = [(200, {}, {**job, "status": s, "completedDomains": n}) for s, n in (("queued", 0), ("running", 1), ("completed", 2))]
        with FakeApi(answers) as fake:
            c, waits = client(fake)
            seen: List[str] = []
            done = c.wait_for_bulk_job("job_1", on_progress=lambda j: seen.append(f"{j.status}:{j.completed_domains}"), poll_interval=0.5)
        self.assertEqual(seen, ["queued:0", "running:1", "completed:2"])
        self.assertEqual(done.status, "completed")
        self.assertEqual(waits, [0.5, 0.5])


class BulkUploadTest(unittest.TestCase):
    ACCEPTED = {"jobId": "job_1", "status": "queued", "totalDomains": 1, "rejectedRows": [], "creditsReserved": 1, "creditsRemaining": 9}

    def test_a_path_that_names_no_file_raises_before_anything_is_sent(self) -> None:
        with FakeApi([(202, {}, self.ACCEPTED)]) as fake:
            c, _ = client(fake)
            with self.assertRaises(FileNotFoundError) as ctx:
                c.upload_bulk("leads.co")
        self.assertIn("leads.co", str(ctx.exception))
        self.assertEqual(fake.requests, [])

    def test_takes_the_search_filters_in_the_query_and_in_the_presigned_request(self) -> None:
        url = {"jobId": "job_2", "uploadUrl": "http://127.0.0.1:9/put", "expiresAt": "t"}
        with FakeApi([(202, {}, self.ACCEPTED), (201, {}, url)]) as fake:
            c, _ = client(fake)
            c.upload_bulk("domain\nstripe.com\n", limit=5, types=["Direct", "Indirect"], min_match_score=60, countries=["US", "DE"], exclude=["paypal.com"])
            c.create_upload_url(size_bytes=2048, limit=5, types=["Direct"], min_match_score=60, countries=["US"], exclude=["paypal.com"])
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(fake.requests[0].path).query)
        self.assertEqual(
            {k: v[0] for k, v in query.items()},
            {"limit": "5", "types": "Direct,Indirect", "minMatchScore": "60", "countries": "US,DE", "exclude": "paypal.com"},
        )
        self.assertEqual(
            json.loads(fake.requests[1].body), {"sizeBytes": 2048, "limit": 5, "types": ["Direct"], "minMatchScore": 60, "countries": ["US"], "exclude": ["paypal.com"]}
        )


if __name__ == "__main__":
    unittest.main()
