"""Sign in with Solana and Sign in with Ethereum on `authflow serve` (`POST
/token?grant_type=web3`), with messages signed here as wallets sign them: Ed25519 with
`cryptography` for Solana (the address in base58, the signature in base64), EIP-191 personal
messages with eth-account for Ethereum. GoTrue's answers are the reference (supabase/auth,
internal/api/web3.go and its tests): a session for the wallet's user with one `web3` identity,
and `invalid_grant` for a message for another app, out of its time, or signed by another key.
supabase-auth 2.34.1 has no `sign_in_with_web3`, so the grant is sent as supabase-js sends it;
the session it answers is then used with the official client.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_web3
"""

import base64
import datetime
import unittest

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from eth_account import Account
from eth_account.messages import encode_defunct
from supabase_auth import SyncGoTrueClient

import pgserver
from serve import Server, ServerTestCase, claims

SITE = "https://app.example.com"
ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58(data):
    number = int.from_bytes(data, "big")
    text = ""
    while number:
        number, digit = divmod(number, 58)
        text = ALPHABET[digit] + text
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + text


def timestamp(minutes=0):
    moment = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=minutes)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def message(chain, address, domain="app.example.com", uri=SITE + "/", issued=0, lines=()):
    return "\n".join([
        f"{domain} wants you to sign in with your {chain} account:", address, "",
        "Sign in to the app", "", f"URI: {uri}", "Version: 1",
        f"Issued At: {timestamp(issued)}", *lines])


class SolanaWallet:
    def __init__(self):
        self.key = Ed25519PrivateKey.generate()
        self.address = base58(self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))

    def grant(self, text):
        return {"chain": "solana", "message": text,
                "signature": base64.b64encode(self.key.sign(text.encode())).decode()}


class EthereumWallet:
    def __init__(self):
        self.account = Account.create()
        self.address = self.account.address

    def grant(self, text):
        signed = Account.sign_message(encode_defunct(text=text), self.account.key)
        return {"chain": "ethereum", "message": text, "signature": "0x" + signed.signature.hex()}


class Web3Case(ServerTestCase):
    OPTIONS = ("--web3-solana", "on", "--web3-ethereum", "on", "--site-url", SITE)

    def grant(self, body):
        return self.server.json("POST", "/token?grant_type=web3", body,
                                self.server.anon_headers())

    def assert_invalid_grant(self, body, description):
        status, answer = self.grant(body)
        self.assertEqual(status, 400, answer)
        self.assertEqual(answer, {"error": "invalid_grant", "error_description": description})


class Web3SignInTests(Web3Case):
    def check_session(self, wallet, chain):
        status, session = self.grant(wallet.grant(message(chain.title(), wallet.address)))
        self.assertEqual(status, 200, session)
        user = session["user"]
        provider_id = f"web3:{chain}:{wallet.address}"
        self.assertEqual(user["email"], "")
        self.assertEqual(user["app_metadata"], {"provider": "web3", "providers": ["web3"]})
        [identity] = user["identities"]
        self.assertEqual(identity["provider"], "web3")
        self.assertEqual(identity["id"], provider_id)
        data = {"sub": provider_id, "email_verified": False, "phone_verified": False,
                "custom_claims": {"address": wallet.address, "chain": chain, "network": "",
                                  "domain": "app.example.com",
                                  "statement": "Sign in to the app"}}
        self.assertEqual(identity["identity_data"], data)
        self.assertEqual(user["user_metadata"], data)
        token = claims(session["access_token"])
        self.assertEqual(token["amr"][0]["method"], "web3")
        self.assertEqual(token["app_metadata"]["provider"], "web3")
        # The official client takes the session: the user it reads is the wallet's.
        client = SyncGoTrueClient(url=self.server.url, headers=self.server.anon_headers(),
                                  auto_refresh_token=False)
        self.addCleanup(client.close)
        client.set_session(session["access_token"], session["refresh_token"])
        self.assertEqual(client.get_user().user.id, user["id"])
        # Signing in again is the same user.
        _, again = self.grant(wallet.grant(message(chain.title(), wallet.address)))
        self.assertEqual(again["user"]["id"], user["id"])

    def test_a_solana_wallet_signs_in(self):
        self.check_session(SolanaWallet(), "solana")

    def test_an_ethereum_wallet_signs_in(self):
        self.check_session(EthereumWallet(), "ethereum")

    def test_a_message_for_another_domain_is_refused(self):
        for wallet, chain in ((SolanaWallet(), "Solana"), (EthereumWallet(), "Ethereum")):
            self.assert_invalid_grant(
                wallet.grant(message(chain, wallet.address, uri="https://evil.example/",
                                     domain="evil.example")),
                f"Signed {chain} message is using URI which is not allowed on this server, "
                "message was signed for another app")
            self.assert_invalid_grant(
                wallet.grant(message(chain, wallet.address, domain="evil.example")),
                f"Signed {chain} message is using a Domain that does not match the one in URI "
                "which is not allowed on this server")

    def test_an_expired_or_old_message_is_refused(self):
        wallet = SolanaWallet()
        self.assert_invalid_grant(
            wallet.grant(message("Solana", wallet.address, issued=-20,
                                 lines=[f"Expiration Time: {timestamp(-10)}"])),
            "Signed Solana message is expired")
        ethereum = EthereumWallet()
        self.assert_invalid_grant(
            ethereum.grant(message("Ethereum", ethereum.address, issued=-11)),
            "Ethereum message was issued too long ago")

    def test_a_signature_by_another_key_is_refused(self):
        for wallet, other, chain in ((SolanaWallet(), SolanaWallet(), "Solana"),
                                     (EthereumWallet(), EthereumWallet(), "Ethereum")):
            self.assert_invalid_grant(other.grant(message(chain, wallet.address)),
                                      "Signature does not match address in message")

    def test_a_malformed_message_is_validation_failed(self):
        wallet = EthereumWallet()
        status, answer = self.grant(wallet.grant(message("Ethereum", wallet.address,
                                                         uri="not a uri")))
        self.assertEqual(status, 400)
        self.assertEqual(answer["error_code"], "validation_failed")
        self.assertEqual(answer["msg"], "siwe: URI is not valid")


class Web3OffTests(Web3Case):
    OPTIONS = ("--web3-solana", "on", "--site-url", SITE)

    def test_a_chain_that_is_off_is_refused_as_gotrue_refuses_it(self):
        wallet = EthereumWallet()
        status, answer = self.grant(wallet.grant(message("Ethereum", wallet.address)))
        self.assertEqual(status, 422)
        self.assertEqual((answer["error_code"], answer["msg"]),
                         ("web3_provider_disabled", "Ethereum Web3 provider is disabled"))
        status, answer = self.grant({"chain": "bitcoin"})
        self.assertEqual((status, answer["error_code"]), (400, "web3_unsupported_chain"))

    def test_with_both_off_the_body_is_not_read(self):
        server = Server("--site-url", SITE).start()
        self.addCleanup(server.stop)
        status, answer = server.json("POST", "/token?grant_type=web3", b"not json",
                                     server.anon_headers())
        self.assertEqual(status, 422)
        self.assertEqual((answer["error_code"], answer["msg"]),
                         ("web3_provider_disabled", "Web3 provider is disabled"))


class Web3PostgresTests(unittest.TestCase):
    def test_the_identity_is_a_gotrue_row(self):
        postgres = pgserver.shared()
        url = postgres.database()
        server = Server(*Web3Case.OPTIONS, store=url).start()
        self.addCleanup(server.stop)
        wallet = EthereumWallet()
        status, session = server.json("POST", "/token?grant_type=web3",
                                      wallet.grant(message("Ethereum", wallet.address)),
                                      server.anon_headers())
        self.assertEqual(status, 200, session)
        row = postgres.sql(
            "select i.provider, i.provider_id, i.identity_data -> 'custom_claims' ->> 'address',"
            " i.user_id = u.id, u.email is null, u.raw_app_meta_data ->> 'provider'"
            " from auth.identities i join auth.users u on u.id = i.user_id"
            f" where u.id = '{session['user']['id']}'", url.rsplit("/", 1)[1])
        self.assertEqual(row.strip(), f"web3|web3:ethereum:{wallet.address}|{wallet.address}|t|t|web3")
        # The wallet signs in again to the same user, found by its identity.
        _, again = server.json("POST", "/token?grant_type=web3",
                               wallet.grant(message("Ethereum", wallet.address)),
                               server.anon_headers())
        self.assertEqual(again["user"]["id"], session["user"]["id"])


if __name__ == "__main__":
    unittest.main()
