import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import AccountStore
@testable import GoTrueEngine

/// `accounts:createAuthUri`: how an email signs in, in the emulator's order of checks.
struct FirebaseAuthURITests {
  private let web = "http://localhost/"

  @Test func checksComeInTheEmulatorsOrder() throws {
    let emulation = try makeEmulation()
    let cases: [(String?, String?, String?, IdentityToolkitError)] = [
      ("", "", "google.com", notImplemented("Sign-in with IDP is not yet supported.")),
      (nil, web, nil, .badRequest("MISSING_IDENTIFIER")),
      ("", web, "", .badRequest("MISSING_IDENTIFIER")),
      ("invalid", nil, nil, .badRequest("MISSING_CONTINUE_URI")),
      ("invalid", "invalid", nil, .badRequest("INVALID_IDENTIFIER")),
      ("a@b@c", web, nil, .badRequest("INVALID_IDENTIFIER")),
      ("me@example.com", "invalid", nil, .badRequest("INVALID_CONTINUE_URI")),
      ("me@example.com", "http://", nil, .badRequest("INVALID_CONTINUE_URI")),
      ("me@example.com", "https://exa mple.com/", nil, .badRequest("INVALID_CONTINUE_URI")),
      ("me@example.com", "http://example.com:99999/", nil, .badRequest("INVALID_CONTINUE_URI")),
    ]
    for (identifier, continueURI, provider, expected) in cases {
      #expect(
        throws: expected,
        "\(String(describing: identifier)) \(String(describing: continueURI))"
      ) {
        try emulation.authURI(
          identifier: identifier, continueURI: continueURI, sessionID: nil, providerID: provider)
      }
    }
  }

  @Test(arguments: [
    "http://example.com/", "HTTPS://Example.com:8443/a?b#c", "myapp:callback", "urn:isbn:1",
    "file:relative", "custom://host/path", "http://[::1]:9099/", " http://example.com ",
  ])
  func continueURIsThatParseAsAbsoluteURLsPass(uri: String) throws {
    let answer = try makeEmulation().authURI(
      identifier: "nobody@example.com", continueURI: uri, sessionID: "s", providerID: nil)
    #expect(answer.methods?.registered == false)
  }

  @Test(.readsSQLiteTables) func aRegisteredEmailListsItsPasswordAndLinkMethods() async throws {
    let emulation = try makeEmulation()
    let ask = { (email: String) throws in
      try emulation.authURI(
        identifier: email, continueURI: "http://example.com/", sessionID: "my-session-1",
        providerID: nil)
    }
    let unknown = try ask("nobody@example.com")
    #expect(unknown == FirebaseAuthURI(sessionID: "my-session-1", methods: unregistered))
    let known = try ask("TEST@example.com")
    #expect(known.methods == methods(["password"], ["password"]))
    var admitted = FirebaseNewAccount()
    admitted.email = "nopassword@example.com"
    let account = try await emulation.create(admitted)
    #expect(try ask("nopassword@example.com").methods == methods([], []))
    try emulation.engine.withDatabase { database throws(GoTrueAPIError) in
      try database.run(
        "UPDATE users SET email_link_signin = 1 WHERE id = ?", .text(account.id))
    }
    #expect(try ask("nopassword@example.com").methods == methods(["password"], ["emailLink"]))
    try emulation.engine.withDatabase { database throws(GoTrueAPIError) in
      try database.run(
        "UPDATE users SET email_link_signin = 1 WHERE email = 'test@example.com'")
    }
    #expect(
      try ask("test@example.com").methods == methods(["password"], ["password", "emailLink"]))
    _ = try emulation.updateEmulatorConfig([
      "signIn": .object(["allowDuplicateEmails": .bool(true)])
    ])
    #expect(
      try ask("test@example.com").methods == methods(["password"], ["password", "emailLink"]),
      "without identity providers, duplicate emails list the same")
  }

  @Test func improvedEmailPrivacySaysOnlyTheSessionAndARandomOneIsMadeWhenNoneIsSent() throws {
    let emulation = try makeEmulation()
    emulation.improvedEmailPrivacy = true
    let answer = try emulation.authURI(
      identifier: "test@example.com", continueURI: "http://example.com/", sessionID: "",
      providerID: nil)
    #expect(answer.methods == nil)
    #expect(answer.sessionID.count == 27)
    #expect(answer.sessionID.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    let again = try makeEmulation().authURI(
      identifier: "test@example.com", continueURI: "http://example.com/", sessionID: nil,
      providerID: nil)
    #expect(again.sessionID == answer.sessionID, "the injected randomness decides it")
  }

  private var unregistered: FirebaseSignInMethods {
    FirebaseSignInMethods(registered: false, providers: [], methods: [])
  }

  private func methods(_ providers: [String], _ methods: [String]) -> FirebaseSignInMethods {
    FirebaseSignInMethods(registered: true, providers: providers, methods: methods)
  }

  private func notImplemented(_ message: String) -> IdentityToolkitError {
    IdentityToolkitError(status: 501, message: message, statusName: "NOT_IMPLEMENTED")
  }
}
