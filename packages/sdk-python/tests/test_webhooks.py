"""sdk-python tests: webhook signature verification (no server)."""
from __future__ import annotations

import hashlib
import hmac
import unittest

import support  # noqa: F401

from rivals import WebhookSignatureError, construct_event, is_valid_signature, sign, sign_webhook, verify_signature, verify_webhook

SECRET = "whsec_test"
BODY = b'{"id":"evt_1","type":"bulk_job.completed","createdAt":"2026-11-24T00:00:00.000Z","data":{"jobId":"job_1"}}'


class WebhookSignatureTest(unittest.TestCase):
    def test_accepts_the_signature_the_service_computes(self) -> None:
        digest = hmac.new(SECRET.encode(), b"1700000000." + BODY, hashlib.sha256).hexdigest()
        header = f"t=1700000000,v1={digest}"
        self.assertEqual(sign(BODY, SECRET, 1700000000), header)
        verify_signature(BODY, header, SECRET, now=1700000010)
        event = construct_event(BODY.decode(), header, SECRET, now=1700000010)
        self.assertEqual(event["type"], "bulk_job.completed")
        self.assertEqual(event["data"], {"jobId": "job_1"})
        self.assertEqual(verify_webhook(BODY, sign_webhook(BODY, SECRET, 1700000000), SECRET, now=1700000000), event)

    def test_refuses_a_changed_body_a_wrong_secret_and_a_malformed_header(self) -> None:
        header = sign(BODY, SECRET, 1700000000)
        self.assertFalse(is_valid_signature(BODY + b" ", header, SECRET, now=1700000000))
        self.assertFalse(is_valid_signature(BODY, header, "whsec_other", now=1700000000))
        for bad in (None, "", "v1=abc", "t=1700000000", "t=abc,v1=00", "garbage"):
            with self.subTest(header=bad):
                with self.assertRaises(WebhookSignatureError) as ctx:
                    verify_signature(BODY, bad, SECRET, now=1700000000)
                self.assertEqual(ctx.exception.code, "invalid_signature")

    def test_refuses_a_signature_outside_the_tolerance_window(self) -> None:
        header = sign(BODY, SECRET, 1700000000)
        self.assertTrue(is_valid_signature(BODY, header, SECRET, now=1700000000 + 300))
        with self.assertRaises(WebhookSignatureError) as ctx:
            verify_signature(BODY, header, SECRET, now=1700000000 + 301)
        self.assertEqual(ctx.exception.code, "signature_expired")
        self.assertFalse(is_valid_signature(BODY, header, SECRET, now=1700000000 - 301))
        self.assertTrue(is_valid_signature(BODY, header, SECRET, tolerance=600, now=1700000000 + 301))

    def test_accepts_any_of_several_v1_signatures_while_a_secret_rotates(self) -> None:
        good = sign(BODY, SECRET, 1700000000).split(",")[1]
        header = f"t=1700000000,v1={'0' * 64},{good}"
        self.assertTrue(is_valid_signature(BODY, header, SECRET, now=1700000000))


if __name__ == "__main__":
    unittest.main()
