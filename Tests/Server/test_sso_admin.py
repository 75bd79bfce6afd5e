"""`authflow serve`'s admin API for SSO providers (`/admin/sso/providers`), served as GoTrue
serves it with SAML sign-in off. supabase-py has no client for it (supabase-js's
`auth.admin.listSSOProviders` is its only caller among the SDKs), so the tests call the routes
over HTTP with the service_role key, as those SDKs and the Supabase CLI's `supabase sso`
commands do: a SAML provider made from its metadata, listed, read by id and by resource id,
changed and deleted, each refusal in GoTrue's words. `metadata_url` is left to the Swift tests
(they fetch through a scripted transport: no test reaches the network).

Runs on the suite's store (AUTHFLOW_TEST_STORE); `SSOAdminOnPostgresTests` always runs on the
throw-away PostgreSQL and reads GoTrue's `auth.sso_providers`, `auth.saml_providers` and
`auth.sso_domains` rows it leaves.
"""

import unittest
import uuid

import pgserver
from serve import ServerTestCase


def metadata(entity_id, descriptors=1):
    """A small identity provider's metadata, as one would publish it."""
    descriptor = (
        '<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">'
        "<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>"
        '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" '
        'Location="https://idp.example.com/sso"/></md:IDPSSODescriptor>')
    return ('<?xml version="1.0" encoding="UTF-8"?>'
            '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" '
            f'entityID="{entity_id}">{descriptor * descriptors}</md:EntityDescriptor>')


class SSOAdmin:
    """The admin API's behaviour, for a class that starts a server."""

    def call(self, method, path, body=None, headers=None):
        return self.server.json(method, "/auth/v1/admin/sso/providers" + path, body,
                                headers or self.server.service_headers())

    def create(self, **members):
        body = {"type": "saml", "metadata_xml": metadata(f"urn:idp:{uuid.uuid4()}")}
        body.update(members)
        status, provider = self.call("POST", "", body)
        self.assertEqual(status, 201, provider)
        return provider

    def test_a_provider_is_made_read_listed_changed_and_deleted(self):
        resource = f"okta-{uuid.uuid4().hex[:8]}"
        domain = f"{uuid.uuid4().hex[:8]}.example.com"
        entity = f"https://idp.example.com/{uuid.uuid4()}"
        made = self.create(
            metadata_xml=metadata(entity), domains=[domain], resource_id=resource,
            name_id_format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
            attribute_mapping={"keys": {"email": {"name": "mail"},
                                        "team": {"default": "qa", "array": False}}})
        self.assertEqual(set(made), {"id", "resource_id", "disabled", "saml", "domains",
                                     "created_at", "updated_at"})
        self.assertIsNone(made["disabled"])
        self.assertEqual(made["domains"], [{"domain": domain}])
        self.assertEqual(made["saml"], {
            "entity_id": entity, "metadata_xml": metadata(entity),
            "name_id_format": "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
            "attribute_mapping": {"keys": {"email": {"name": "mail"},
                                           "team": {"default": "qa"}}}})

        for name in (made["id"], f"resource_{resource}"):
            self.assertEqual(self.call("GET", f"/{name}"), (200, made), name)
        status, listed = self.call("GET", f"?resource_id={resource}")
        self.assertEqual(status, 200)
        without_metadata = dict(made, saml={k: v for k, v in made["saml"].items()
                                            if k != "metadata_xml"})
        self.assertEqual(listed, {"items": [without_metadata]})
        status, listed = self.call("GET", "?resource_id_prefix=okta-")
        self.assertIn(made["id"], [item["id"] for item in listed["items"]])

        status, changed = self.call("PUT", f"/{made['id']}", {
            "domains": [domain, f"b.{domain}"], "disabled": True,
            "attribute_mapping": {"keys": {}}})
        self.assertEqual(status, 200, changed)
        self.assertEqual([d["domain"] for d in changed["domains"]], [domain, f"b.{domain}"])
        self.assertIs(changed["disabled"], True)
        self.assertEqual(changed["saml"]["attribute_mapping"], {})
        self.assertEqual(changed["resource_id"], resource)

        status, deleted = self.call("DELETE", f"/{made['id']}")
        self.assertEqual((status, deleted), (200, changed))
        status, body = self.call("GET", f"/{made['id']}")
        self.assertEqual((status, body["error_code"], body["msg"]),
                         (404, "sso_provider_not_found", "SSO Identity Provider not found"))

    def test_refusals_are_gotrues(self):
        entity = f"urn:idp:{uuid.uuid4()}"
        domain = f"{uuid.uuid4().hex[:8]}.example.org"
        first = self.create(metadata_xml=metadata(entity), domains=[domain])
        cases = [
            ({"type": "oidc"}, 400, "validation_failed",
             "Only 'saml' supported for SSO provider type"),
            ({"type": "saml"}, 400, "validation_failed",
             "Either metadata_xml or metadata_url must be set"),
            ({"type": "saml", "metadata_url": "http://idp.example.com/m"}, 400,
             "validation_failed", "metadata_url is not a HTTPS URL"),
            ({"type": "saml", "metadata_xml": metadata("urn:x", descriptors=2)}, 400,
             "validation_failed", "SAML Metadata contains multiple IDPSSODescriptors"),
            ({"type": "saml", "metadata_xml": metadata(entity)}, 422, "saml_idp_already_exists",
             f"SAML Identity Provider with this EntityID ({entity}) already exists"),
            ({"type": "saml", "metadata_xml": metadata(f"urn:idp:{uuid.uuid4()}"),
              "domains": [domain]}, 400, "sso_domain_already_exists",
             f"SSO Domain '{domain}' is already assigned to an SSO identity provider "
             f"({first['id']})"),
            ({"type": "saml", "domains": "x"}, 400, "bad_json",
             "Could not parse request body as JSON: json: cannot unmarshal string into Go "
             "struct field .domains of type []string"),
        ]
        for body, status, code, message in cases:
            answer_status, answer = self.call("POST", "", body)
            self.assertEqual((answer_status, answer["error_code"], answer["msg"]),
                             (status, code, message), body)

        status, body = self.call("PUT", f"/{first['id']}",
                                 {"metadata_xml": metadata("urn:another")})
        self.assertEqual((status, body["error_code"]), (400, "saml_entity_id_mismatch"))
        status, body = self.call("GET", "", headers=self.server.anon_headers())
        self.assertEqual((status, body["error_code"]), (403, "not_admin"))

    def test_sign_in_through_sso_stays_off(self):
        for method, path in [("POST", "/sso"), ("GET", "/sso/saml/metadata")]:
            status, body = self.server.json(method, "/auth/v1" + path, {"domain": "a.com"}
                                            if method == "POST" else None,
                                            self.server.anon_headers())
            self.assertEqual((status, body["error_code"], body["msg"]),
                             (404, "saml_provider_disabled", "SAML 2.0 is disabled"), path)


class SSOAdminTests(SSOAdmin, ServerTestCase):
    """On the suite's store."""


class SSOAdminOnPostgresTests(SSOAdmin, ServerTestCase):
    """On PostgreSQL, in GoTrue's own tables."""

    @classmethod
    def setUpClass(cls):
        cls.postgres = pgserver.shared()
        cls.STORE = cls.postgres.database()
        super().setUpClass()

    def test_providers_are_gotrues_rows(self):
        domain = f"{uuid.uuid4().hex[:8]}.example.net"
        made = self.create(domains=[domain], resource_id="rows",
                           attribute_mapping={"keys": {"email": {"name": "mail"}}})
        database = self.STORE.rsplit("/", 1)[1]
        row = self.postgres.sql(
            "select p.resource_id, p.disabled is null, s.entity_id, s.metadata_url is null, "
            "s.attribute_mapping::text, d.domain from auth.sso_providers p "
            "join auth.saml_providers s on s.sso_provider_id = p.id "
            f"join auth.sso_domains d on d.sso_provider_id = p.id where p.id = '{made['id']}'",
            database).strip()
        self.assertEqual(row, "|".join([
            "rows", "t", made["saml"]["entity_id"], "t",
            '{"keys": {"email": {"name": "mail"}}}', domain]))
        self.call("DELETE", f"/{made['id']}")
        left = self.postgres.sql(
            f"select count(*) from auth.sso_domains where sso_provider_id = '{made['id']}'",
            database).strip()
        self.assertEqual(left, "0", "the domains go with their provider")


if __name__ == "__main__":
    unittest.main()
