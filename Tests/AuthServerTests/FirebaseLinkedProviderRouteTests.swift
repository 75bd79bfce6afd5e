import Foundation
import Testing

@testable import AuthServer

/// An import's entries of other providers (`google.com`, …), kept as the emulator keeps them:
/// shown in `providerUserInfo` before `password`, found by `federatedUserId`, listed by
/// `createAuthUri`, in ID tokens' `firebase.identities`, unlinked by `deleteProvider`, and a raw
/// id naming one account only.
struct FirebaseLinkedProviderRouteTests {
  static let done = FirebaseImportRouteTests.done

  static func users(_ reply: Reply) -> [[String: Any]] {
    reply.object?["users"] as? [[String: Any]] ?? []
  }

  static func providers(_ reply: Reply) -> [[String: String]] {
    (users(reply).first?["providerUserInfo"] as? [[String: Any]] ?? []).map {
      $0.compactMapValues { $0 as? String }
    }
  }

  static func importErrors(_ reply: Reply) -> [String] {
    (reply.object?["error"] as? [[String: Any]] ?? []).map {
      "\($0["index"] as? Int ?? -1): \($0["message"] as? String ?? "")"
    }
  }

  @Test func anImportedEntryIsShownFoundListedAndInIDTokens() async throws {
    let server = try FirebaseTestServer()
    let imported = await server.admin(
      "accounts:batchCreate",
      """
      {"users":[{"localId":"g1","email":"ada@example.com","rawPassword":"secret123",
      "providerUserInfo":[{"providerId":"google.com","rawId":"goog-1","email":"ada@gmail.com",
      "displayName":"Ada G","photoUrl":"https://example.com/g.png"},
      {"providerId":"password","rawId":"ignored@example.com"}]}]}
      """)
    #expect(imported.status == 200 && imported.text == Self.done, "\(imported.text)")

    let lookup = await server.admin("accounts:lookup", #"{"localId":["g1"]}"#)
    #expect(
      Self.providers(lookup) == [
        [
          "providerId": "google.com", "rawId": "goog-1", "email": "ada@gmail.com",
          "displayName": "Ada G", "photoUrl": "https://example.com/g.png",
        ],
        [
          "providerId": "password", "email": "ada@example.com", "federatedId": "ada@example.com",
          "rawId": "ada@example.com",
        ],
      ])
    let found = await server.admin(
      "accounts:lookup", #"{"federatedUserId":[{"providerId":"google.com","rawId":"goog-1"}]}"#)
    #expect(Self.users(found).map { $0["localId"] as? String } == ["g1"])
    let other = await server.admin(
      "accounts:lookup", #"{"federatedUserId":[{"providerId":"google.com","rawId":"goog-2"}]}"#)
    #expect(other.status == 200 && Self.users(other).isEmpty, "\(other.text)")

    let uri = await server.call(
      "createAuthUri", #"{"identifier":"ada@example.com","continueUri":"http://localhost/"}"#)
    #expect(uri.object?["allProviders"] as? [String] == ["google.com", "password"])
    #expect(uri.object?["signinMethods"] as? [String] == ["google.com", "password"])

    let signIn = await server.call(
      "signInWithPassword", #"{"email":"ada@example.com","password":"secret123"}"#)
    let claims = try FirebaseAccountRouteTests.claims(signIn.object?["idToken"])
    let identities = (claims["firebase"] as? [String: Any])?["identities"] as? [String: [String]]
    #expect(identities == ["email": ["ada@example.com"], "google.com": ["goog-1"]])
  }

  @Test func aRawIDNamesOneAccountUntilItIsUnlinked() async throws {
    let server = try FirebaseTestServer()
    let entry = #"{"providerId":"google.com","rawId":"goog-1"}"#
    let first = await server.admin(
      "accounts:batchCreate", #"{"users":[{"localId":"a","providerUserInfo":[\#(entry)]}]}"#)
    #expect(first.text == Self.done, "\(first.text)")
    let taken = await server.admin(
      "accounts:batchCreate", #"{"users":[{"localId":"b","providerUserInfo":[\#(entry)]}]}"#)
    #expect(Self.importErrors(taken) == ["0: raw id exists in other account in database"])
    // The account that holds it may be overwritten with it.
    let again = await server.admin(
      "accounts:batchCreate",
      #"{"allowOverwrite":true,"users":[{"localId":"a","providerUserInfo":[\#(entry)]}]}"#)
    #expect(again.text == Self.done, "\(again.text)")

    let unlinked = await server.admin(
      "accounts:update", #"{"localId":"a","deleteProvider":["google.com"]}"#)
    #expect(unlinked.status == 200, "\(unlinked.text)")
    #expect((unlinked.object?["providerUserInfo"] as? [Any])?.isEmpty == true, "\(unlinked.text)")
    let gone = await server.admin(
      "accounts:lookup", #"{"federatedUserId":[\#(entry)]}"#)
    #expect(Self.users(gone).isEmpty, "\(gone.text)")
    let freed = await server.admin(
      "accounts:batchCreate", #"{"users":[{"localId":"b","providerUserInfo":[\#(entry)]}]}"#)
    #expect(freed.text == Self.done, "\(freed.text)")

    // Deleting the account frees it too.
    let deleted = await server.admin("accounts:delete", #"{"localId":"b"}"#)
    #expect(deleted.status == 200, "\(deleted.text)")
    let afterDelete = await server.admin(
      "accounts:batchCreate", #"{"users":[{"localId":"c","providerUserInfo":[\#(entry)]}]}"#)
    #expect(afterDelete.text == Self.done, "\(afterDelete.text)")
  }

  @Test func aLaterEntryForOneProviderTakesTheFirstOnesPlace() async throws {
    let server = try FirebaseTestServer()
    let imported = await server.admin(
      "accounts:batchCreate",
      """
      {"users":[{"localId":"m","providerUserInfo":[{"providerId":"google.com","rawId":"g-old"},
      {"providerId":"facebook.com","rawId":"f-1"},{"providerId":"google.com","rawId":"g-new"}]}]}
      """)
    #expect(imported.text == Self.done, "\(imported.text)")
    let lookup = await server.admin("accounts:lookup", #"{"localId":["m"]}"#)
    #expect(
      Self.providers(lookup) == [
        ["providerId": "google.com", "rawId": "g-new"],
        ["providerId": "facebook.com", "rawId": "f-1"],
      ])
    let old = await server.admin(
      "accounts:lookup", #"{"federatedUserId":[{"providerId":"google.com","rawId":"g-old"}]}"#)
    #expect(Self.users(old).isEmpty, "\(old.text)")
  }
}
