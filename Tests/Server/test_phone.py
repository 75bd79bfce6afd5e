"""Phone sign-in on `authflow serve --phone-provider on`, driven by the official Supabase Auth
client (supabase-auth), with every code read from the SMS outbox over Mailpit's API (text
messages are listed among the emails, to the phone number, tagged `sms` and their kind).

The answers are GoTrue's (supabase/auth, internal/api/phone.go, otp.go, verify.go, user.go):
a phone signup answers the user and texts a confirmation code; `sms` verifies it (and signs a
confirmed number in); `phone_change` verifies a new number; a second code within
SMS_MAX_FREQUENCY is 429 `over_sms_send_rate_limit`.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_phone
"""

import random
import unittest

from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError
from supabase_auth.types import AuthOtpResponse, AuthResponse

from serve import ServerTestCase

PASSWORD = "correct-horse-battery"


def unique_phone():
    """A fresh E.164 number per test, so no test sees another's user, texts or interval."""
    return "+1555" + "".join(random.choice("0123456789") for _ in range(7))


class PhoneCase(ServerTestCase):
    """A server with the phone provider on; clients bound to it; codes from the outbox."""

    OPTIONS = ("--phone-provider", "on", "--sms-max-frequency", "0s")

    def client(self):
        client = SyncGoTrueClient(url=self.server.url, headers=self.server.anon_headers(),
                                  auto_refresh_token=False)
        self.addCleanup(client.close)
        return client

    def texted(self, phone, newer_than=None):
        """The newest text message to `phone` (whole, in Mailpit's shape)."""
        message = self.server.latest_message_to(phone, newer_than=newer_than)
        self.assertIn("sms", message["Tags"])
        self.assertEqual(message["To"][0]["Address"], phone)
        return message

    def code(self, phone, newer_than=None):
        return self.server.code_in(self.texted(phone, newer_than))

    def signed_up(self, phone):
        """A confirmed phone user signed in on a fresh client; returns the client."""
        client = self.client()
        client.sign_up({"phone": phone, "password": PASSWORD})
        client.verify_otp({"phone": phone, "token": self.code(phone), "type": "sms"})
        return client


class PhoneSignInTests(PhoneCase):
    def test_sign_up_texts_a_code_that_confirms_and_signs_in(self):
        phone = unique_phone()
        client = self.client()
        response = client.sign_up({"phone": phone, "password": PASSWORD})
        self.assertIsInstance(response, AuthResponse)
        self.assertIsNone(response.session)
        self.assertEqual(response.user.phone, phone[1:])
        self.assertIsNone(response.user.phone_confirmed_at)
        self.assertEqual(response.user.app_metadata["provider"], "phone")
        message = self.texted(phone)
        self.assertEqual(message["Tags"], ["sms"])
        self.assertEqual(message["From"]["Address"], "")
        code = self.server.code_in(message)
        self.assertEqual(message["Text"], f"Your code is {code}")

        with self.assertRaises(AuthApiError) as early:
            client.sign_in_with_password({"phone": phone, "password": PASSWORD})
        self.assertEqual(early.exception.code, "phone_not_confirmed")
        with self.assertRaises(AuthApiError) as wrong:
            client.verify_otp({"phone": phone, "token": "000000", "type": "sms"})
        self.assertEqual((wrong.exception.status, wrong.exception.code), (403, "otp_expired"))

        verified = client.verify_otp({"phone": phone, "token": code, "type": "sms"})
        self.assertIsNotNone(verified.session)
        self.assertEqual(verified.user.phone, phone[1:])
        self.assertIsNotNone(verified.user.phone_confirmed_at)
        self.assertEqual([i.provider for i in verified.user.identities], ["phone"])
        signed_in = self.client().sign_in_with_password({"phone": phone, "password": PASSWORD})
        self.assertEqual(signed_in.user.id, verified.user.id)

    def test_sign_in_with_otp_signs_a_new_number_up_then_in(self):
        phone = unique_phone()
        client = self.client()
        first = client.sign_in_with_otp({"phone": phone})
        self.assertIsInstance(first, AuthOtpResponse)
        self.assertIsNone(first.message_id, "a new number's confirmation answers {}")
        confirmation = self.texted(phone)
        session = client.verify_otp(
            {"phone": phone, "token": self.server.code_in(confirmation), "type": "sms"}).session
        self.assertIsNotNone(session)

        again = self.client().sign_in_with_otp({"phone": phone})
        message = self.texted(phone, newer_than=confirmation["ID"])
        self.assertEqual(again.message_id, message["ID"])
        response = self.client().verify_otp(
            {"phone": phone, "token": self.server.code_in(message), "type": "sms"})
        self.assertEqual(response.user.id, session.user.id)

    def test_an_unknown_number_is_not_signed_up_when_asked_not_to(self):
        with self.assertRaises(AuthApiError) as refused:
            self.client().sign_in_with_otp(
                {"phone": unique_phone(), "options": {"should_create_user": False}})
        self.assertEqual((refused.exception.status, refused.exception.code),
                         (422, "otp_disabled"))
        with self.assertRaises(AuthApiError) as whatsapp:
            self.client().sign_in_with_otp(
                {"phone": unique_phone(), "options": {"channel": "whatsapp"}})
        self.assertEqual(whatsapp.exception.code, "validation_failed")

    def test_a_new_number_changes_once_its_code_is_verified(self):
        phone, new_phone = unique_phone(), unique_phone()
        client = self.signed_up(phone)
        updated = client.update_user({"phone": new_phone})
        self.assertEqual(updated.user.phone, phone[1:])
        self.assertEqual(updated.user.new_phone, new_phone[1:])
        message = self.texted(new_phone)
        self.assertEqual(message["Tags"], ["sms", "phone_change"])
        changed = client.verify_otp(
            {"phone": new_phone, "token": self.server.code_in(message), "type": "phone_change"})
        self.assertEqual(changed.user.phone, new_phone[1:])
        self.assertIsNone(changed.user.new_phone)
        with self.assertRaises(AuthApiError) as old:
            self.client().sign_in_with_password({"phone": phone, "password": PASSWORD})
        self.assertEqual(old.exception.code, "invalid_credentials")

    def test_reauthentication_and_resends_are_texted(self):
        phone = unique_phone()
        client = self.signed_up(phone)
        before = self.texted(phone)["ID"]
        client.reauthenticate()
        nonce = self.texted(phone, newer_than=before)
        self.assertEqual(nonce["Tags"], ["sms", "reauthentication"])

        waiting = unique_phone()
        self.client().sign_up({"phone": waiting, "password": PASSWORD})
        first = self.texted(waiting)
        resent = self.client().resend({"type": "sms", "phone": waiting})
        second = self.texted(waiting, newer_than=first["ID"])
        self.assertEqual(resent.message_id, second["ID"])


class PhoneIntervalTests(PhoneCase):
    OPTIONS = ("--phone-provider", "on", "--test-otp", "+15550001111=4242424242")

    def test_a_second_code_within_a_minute_is_refused_in_gotrues_words(self):
        phone = unique_phone()
        self.client().sign_in_with_otp({"phone": phone})
        with self.assertRaises(AuthApiError) as soon:
            self.client().sign_in_with_otp({"phone": phone})
        self.assertEqual((soon.exception.status, soon.exception.code),
                         (429, "over_sms_send_rate_limit"))
        self.assertRegex(soon.exception.message,
                         r"^For security purposes, you can only request this after \d+ seconds\.$")

    def test_a_fixed_test_code_is_texted_and_named_test_otp(self):
        client = self.client()
        client.sign_up({"phone": "+15550001111", "password": PASSWORD})
        self.assertEqual(self.texted("+15550001111")["Text"], "Your code is 4242424242")
        response = client.verify_otp(
            {"phone": "+15550001111", "token": "4242424242", "type": "sms"})
        self.assertEqual(response.user.phone, "15550001111")


class PhoneProviderOffTests(ServerTestCase):
    def test_phones_are_refused_as_gotrue_refuses_them(self):
        client = SyncGoTrueClient(url=self.server.url, headers=self.server.anon_headers(),
                                  auto_refresh_token=False)
        self.addCleanup(client.close)
        with self.assertRaises(AuthApiError) as signup:
            client.sign_up({"phone": unique_phone(), "password": PASSWORD})
        self.assertEqual((signup.exception.status, signup.exception.code),
                         (400, "phone_provider_disabled"))
        with self.assertRaises(AuthApiError) as otp:
            client.sign_in_with_otp({"phone": unique_phone()})
        self.assertEqual(otp.exception.message, "Unsupported phone provider")


if __name__ == "__main__":
    unittest.main()
