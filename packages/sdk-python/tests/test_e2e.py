"""sdk-python tests: end to end against a running Rivals (the local runtime under `npm test`).

Run only when RIVALS_BASE_URL and RIVALS_API_KEY are set. A feature whose route the server does not serve yet is
skipped, so its tests start running the day it lands.
"""
from __future__ import annotations

import functools
import itertools
import os
import re
import time
import unittest
import uuid
from typing import Any, Callable, Dict, List

import support  # noqa: F401

from rivals import (
    AuthenticationError,
    InvalidDomainError,
    NotFoundError,
    Rivals,
    RivalsError,
    construct_event,
)

BASE_URL = os.environ.get("RIVALS_BASE_URL")
API_KEY = os.environ.get("RIVALS_API_KEY")
CONFIGURED = bool(BASE_URL and API_KEY)
_routes: Dict[str, bool] = {}  # "METHOD /path/{}" of every served route


def serves(method: str, path: str) -> bool:
    """Whether the server serves ``method path``, read from its OpenAPI document (it lists exactly the served
    routes); path parameters may be named differently."""
    if not _routes:
        document = Rivals("", base_url=BASE_URL).request("GET", "/api/openapi.json", auth=False).json()
        for template, operations in document.get("paths", {}).items():
            for verb in operations:
                _routes[f"{verb.upper()} {re.sub(r'{[^}]*}', '{}', template)}"] = True
    return _routes.get(f"{method.upper()} {re.sub(r'{[^}]*}', '{}', path)}", False)


def requires(method: str, path: str) -> Callable[[Callable[[Any], None]], Callable[[Any], None]]:
    """Skip the test when the server does not serve ``method path`` yet."""

    def decorator(fn: Callable[[Any], None]) -> Callable[[Any], None]:
        @functools.wraps(fn)
        def wrapper(self: Any) -> None:
            if not serves(method, path):
                self.skipTest(f"{path} is not served by this server yet")
            fn(self)

        return wrapper

    return decorator


@unittest.skipUnless(CONFIGURED, "set RIVALS_BASE_URL and RIVALS_API_KEY to run against a server")
class EndToEndTest(unittest.TestCase):
    client: Rivals

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Rivals(API_KEY, base_url=BASE_URL, timeout=60)

    def test_health_answers_ok_without_a_key(self) -> None:
        health = Rivals("", base_url=BASE_URL).health()
        self.assertEqual(health.status, "ok")
        self.assertTrue(health.version)

    def test_searches_charges_one_credit_and_reads_the_stored_search(self) -> None:
        before = self.client.balance()
        result = self.client.search("https://www.stripe.com/pricing", limit=5)
        self.assertEqual(result.domain, "stripe.com")
        self.assertTrue(1 <= result.total_competitors <= 5)
        self.assertEqual([c.rank for c in result.competitors], list(range(1, result.total_competitors + 1)))
        self.assertEqual(result.credits_remaining, before - 1)
        self.assertEqual(self.client.balance(), before - 1)
        self.assertTrue(result.search_id and result.request_id)
        stored = self.client.get_search(result.search_id or "")
        self.assertEqual((stored.id, stored.status, stored.domain), (result.search_id, "succeeded", "stripe.com"))
        self.assertEqual([c.domain for c in stored.competitors], [c.domain for c in result.competitors])
        self.assertIsNotNone(stored.competitors[0].evidence)

    def test_search_filters_apply(self) -> None:
        result = self.client.search("stripe.com", limit=10, types=["Direct"], min_match_score=10)
        self.assertTrue(result.competitors)
        self.assertTrue(all(c.type == "Direct" and c.match_score >= 10 for c in result.competitors))

    @requires("POST", "/api/v1/lookalikes")
    def test_lookalikes_of_several_seeds_screened_with_firmographics(self) -> None:
        before = self.client.balance()
        result = self.client.lookalikes(["delta.com", "https://www.united.com", "aa.com"], limit=10, founded_from=1990, ownership=["public", "private"])
        self.assertEqual(result.domains, ["delta.com", "united.com", "aa.com"])
        self.assertEqual(result.credits_remaining, before - 1)
        self.assertTrue(result.companies and result.search_id)
        for company in result.companies:
            self.assertTrue(company.similar_to and set(company.similar_to) <= set(result.domains))
        stored = self.client.get_search(result.search_id or "")
        self.assertEqual(stored.seeds, result.domains)
        for row in stored.competitors:
            self.assertIsNotNone(row.firmographics)
            assert row.firmographics is not None
            self.assertGreaterEqual(row.firmographics.founded or 0, 1990)
            self.assertIn(row.firmographics.ownership, ("public", "private"))

    def test_a_retry_with_the_same_idempotency_key_is_charged_once(self) -> None:
        before = self.client.balance()
        key = f"py-sdk-{uuid.uuid4()}"
        first = self.client.search("hubspot.com", limit=3, idempotency_key=key)
        second = self.client.search("hubspot.com", limit=3, idempotency_key=key)
        self.assertFalse(first.replayed)
        self.assertTrue(second.replayed)
        self.assertEqual(second.raw, first.raw)
        self.assertEqual(self.client.balance(), before - 1)

    def test_errors_carry_their_code_status_and_request_id_and_cost_nothing(self) -> None:
        before = self.client.balance()
        with self.assertRaises(InvalidDomainError) as ctx:
            self.client.search("localhost")
        err = ctx.exception
        self.assertEqual((err.code, err.status), ("invalid_domain", 400))
        self.assertTrue(err.request_id)
        with self.assertRaises(AuthenticationError) as auth:
            Rivals("sk-live-" + "Z" * 40, base_url=BASE_URL).balance()
        self.assertEqual((auth.exception.code, auth.exception.status), ("invalid_api_key", 401))
        with self.assertRaises(NotFoundError) as missing:
            self.client.get_search("srch_" + "0" * 26)
        self.assertEqual(missing.exception.code, "not_found")
        self.assertEqual(self.client.balance(), before)

    def test_pages_through_api_keys_and_revokes(self) -> None:
        created = [self.client.create_api_key(f"py-sdk-{i}") for i in range(3)]
        self.assertTrue(all(k.key.startswith("sk-live-") for k in created))
        page = self.client.api_keys(limit=2)
        self.assertEqual(len(page.items), 2)
        self.assertIsNotNone(page.next_cursor)
        seen = [k.id for k in self.client.iter_api_keys(page_size=2)]
        self.assertEqual(len(seen), len(set(seen)))
        self.assertTrue({k.id for k in created} <= set(seen))
        self.assertEqual(seen[:3], [k.id for k in reversed(created)])  # newest first
        self.assertEqual(Rivals(created[0].key, base_url=BASE_URL).balance(), self.client.balance())
        for k in created:
            self.client.revoke_api_key(k.id)
            self.client.revoke_api_key(k.id)  # idempotent
        # created[1] was never used: its revocation bites at once (a key used within the minute may keep working until
        # the authorizer's cached answer for it expires, in AWS and on the local runtime alike).
        with self.assertRaises(AuthenticationError):
            Rivals(created[1].key, base_url=BASE_URL, max_retries=0).balance()

    @requires("GET", "/api/history")
    def test_history_lists_searches_newest_first_across_pages(self) -> None:
        first = self.client.search("notion.so", limit=2)
        second = self.client.search("asana.com", limit=2)
        page = self.client.history(limit=1, source="api")  # a bulk job of another test may still add its searches
        self.assertEqual(page.items[0].id, second.search_id)
        self.assertIsNotNone(page.next_cursor)
        ids = [h.id for h in itertools.islice(self.client.iter_history(page_size=1, source="api"), 2)]
        self.assertEqual(ids, [second.search_id, first.search_id])

    @requires("GET", "/api/my-companies")
    def test_my_companies_as_json_and_csv(self) -> None:
        result = self.client.search("stripe.com", limit=3)
        companies = self.client.my_companies()
        self.assertGreaterEqual(companies.total, len(result.competitors))
        found = {c.domain for c in companies.items}
        self.assertTrue({c.domain for c in result.competitors} <= found)
        csv = self.client.my_companies_csv()
        self.assertTrue(csv.splitlines()[0].startswith("company,product,domain"))
        self.assertTrue(all(c.product is None or isinstance(c.product, str) for c in companies.items))

    @requires("POST", "/api/searches/{id}/share")
    def test_shares_a_search_publicly_and_revokes_the_link(self) -> None:
        result = self.client.search("stripe.com", limit=2)
        link = self.client.share_search(result.search_id or "")
        self.assertTrue(link.url.startswith(BASE_URL + "/share/"), link.url)  # absolute, on the address called
        self.assertEqual(self.client.share_search(result.search_id or "").token, link.token)
        shared = Rivals("", base_url=BASE_URL).get_shared(link.token)
        self.assertEqual(shared.domain, "stripe.com")
        self.assertEqual(len(shared.competitors), len(result.competitors))
        self.client.revoke_share(result.search_id or "")
        with self.assertRaises(NotFoundError):
            Rivals("", base_url=BASE_URL).get_shared(link.token)

    @requires("POST", "/api/saved-companies")
    def test_saves_lists_and_removes_a_company(self) -> None:
        saved = self.client.save_company("https://www.adyen.com", company="Adyen", note="py-sdk")
        self.assertEqual((saved.domain, saved.note), ("adyen.com", "py-sdk"))
        self.assertEqual(self.client.save_company("adyen.com").domain, "adyen.com")
        self.assertIn("adyen.com", [c.domain for c in self.client.iter_saved_companies(page_size=1)])
        self.client.remove_saved_company("adyen.com")
        self.client.remove_saved_company("adyen.com")
        self.assertNotIn("adyen.com", [c.domain for c in self.client.iter_saved_companies()])

    @requires("POST", "/api/webhook-secret")
    def test_creates_and_rotates_the_webhook_secret(self) -> None:
        first = self.client.create_webhook_secret()
        second = self.client.create_webhook_secret()
        self.assertTrue(first.startswith("whsec_") and second.startswith("whsec_"))
        self.assertNotEqual(first, second)
        from rivals import sign

        body = b'{"id":"evt_1","type":"bulk_job.completed","data":{}}'
        self.assertEqual(construct_event(body, sign(body, second), second)["id"], "evt_1")

    @requires("GET", "/api/bulk/jobs")
    def test_bulk_upload_wait_and_download(self) -> None:
        before = self.client.balance()
        upload = self.client.upload_bulk("domain\nstripe.com\nhubspot.com\nnot a domain\nstripe.com\n", limit=3)
        self.assertEqual((upload.status, upload.total_domains, upload.credits_reserved), ("queued", 2, 2))
        self.assertEqual([r.value for r in upload.rejected_rows], ["not a domain"])
        progress: List[str] = []
        job = self.client.wait_for_bulk_job(upload.job_id, on_progress=lambda j: progress.append(j.status), poll_interval=0.5, timeout=90)
        self.assertEqual(job.status, "completed")
        self.assertEqual(progress[-1], "completed")
        results = list(self.client.iter_bulk_job_results(upload.job_id, page_size=1))
        self.assertEqual(sorted(r.domain for r in results), ["hubspot.com", "stripe.com"])
        csv = self.client.download_bulk_job(upload.job_id).splitlines()
        self.assertTrue(csv[0].startswith("sourceDomain,rank,company,product,domain,matchScore,type,confidence,likelyCompetitor"))
        self.assertEqual({row.split(",")[0] for row in csv[1:]}, {"stripe.com", "hubspot.com"})
        self.assertIn(upload.job_id, [j.job_id for j in itertools.islice(self.client.iter_bulk_jobs(page_size=1), 5)])
        charged = job.credits_charged or 0
        self.assertEqual(self.client.balance(), before - charged)

    @requires("POST", "/api/bulk/upload-url")
    def test_bulk_upload_through_a_presigned_url_when_the_file_is_large(self) -> None:
        upload = self.client.upload_bulk(b"notion.so\n", limit=2, direct_max_bytes=0, filename="big.csv")
        self.assertEqual(upload.status, "awaiting_upload")
        job = self.client.wait_for_bulk_job(upload.job_id, poll_interval=0.5, timeout=90)
        self.assertEqual((job.status, job.total_domains, job.filename), ("completed", 1, "big.csv"))

    @requires("GET", "/api/bulk/jobs")
    def test_cancels_a_bulk_job(self) -> None:
        upload = self.client.upload_bulk("domain\nfigma.com\ncanva.com\nmiro.com\n", limit=1)
        self.client.cancel_bulk_job(upload.job_id)
        job = self.client.get_bulk_job(upload.job_id)
        self.assertIn(job.status, ("cancelled", "completed"))
        deadline = time.monotonic() + 30
        while not job.done and time.monotonic() < deadline:
            time.sleep(0.5)
            job = self.client.get_bulk_job(upload.job_id)
        self.assertTrue(job.done)


if __name__ == "__main__":
    unittest.main()
