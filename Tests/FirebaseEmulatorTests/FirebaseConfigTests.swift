import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

/// The project's configuration: masks, full updates, the emulator's own view, and what is
/// refused.
struct FirebaseConfigTests {
  private func text(_ config: FirebaseProjectConfig) -> String {
    String(decoding: config.json?.compactBytes ?? [], as: UTF8.self)
  }

  private let defaults =
    #"{"signIn":{"allowDuplicateEmails":false},"blockingFunctions":{},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":false}}"#

  private let forward: JSONValue = .object([
    "forwardInboundCredentials": .object(["idToken": .bool(true)])
  ])

  @Test func aNewProjectHasBothFlagsOffAndNoBlockingFunctions() throws {
    let emulation = try makeEmulation()
    #expect(text(emulation.config) == defaults)
    #expect(!emulation.allowDuplicateEmails && !emulation.improvedEmailPrivacy)
    #expect(
      String(decoding: emulation.config.emulatorJSON.compactBytes, as: UTF8.self)
        == #"{"signIn":{"allowDuplicateEmails":false},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":false}}"#
    )
  }

  @Test func aMaskCopiesOnlyItsPathsAndKeepsWhatElseItNames() throws {
    let emulation = try makeEmulation()
    emulation.improvedEmailPrivacy = true
    let update: [String: JSONValue] = [
      "signIn": .object(["allowDuplicateEmails": .bool(true)]), "blockingFunctions": forward,
      "emailPrivacyConfig": .object(["enableImprovedEmailPrivacy": .bool(false)]),
      "autodeleteAnonymousUsers": .bool(true), "mfa": .object(["state": .string("ENABLED")]),
    ]
    let updated = try emulation.updateConfig(
      update,
      mask: "signIn.allowDuplicateEmails,blockingFunctions.forwardInboundCredentials.idToken,"
        + "displayName,mfa,quota.signUpQuotaConfig.quota")
    #expect(
      text(updated)
        == #"{"signIn":{"allowDuplicateEmails":true},"blockingFunctions":{"forwardInboundCredentials":{"idToken":true}},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true},"mfa":{"state":"ENABLED"}}"#
    )
    #expect(emulation.allowDuplicateEmails && emulation.improvedEmailPrivacy)
    #expect(emulation.config == updated)
  }

  @Test func aMaskFollowsTheEmulatorsWalk() {
    // An object missing on the way: the last field is copied from where the walk stopped.
    let stopped = FirebaseProjectConfig().updated(with: ["b": .int(1)], mask: "a.b")
    #expect(stopped.members["b"] == .number(1) && stopped.members["a"] == nil)
    // An object on the way is made even when its last field is not sent.
    let made = FirebaseProjectConfig().updated(with: ["a": .object([:])], mask: "a.b")
    #expect(made.members["a"] == .object([:]))
    // A null is not copied.
    let null = FirebaseProjectConfig().updated(with: ["signIn": .null], mask: "signIn")
    #expect(null == FirebaseProjectConfig())
  }

  @Test func withoutAMaskEveryKeptFieldIsSetAndUnsentOnesGoBackToDefaults() throws {
    let emulation = try makeEmulation()
    let full = try emulation.updateConfig(
      [
        "signIn": .object(["allowDuplicateEmails": .bool(true)]), "blockingFunctions": forward,
        "emailPrivacyConfig": .object(["enableImprovedEmailPrivacy": .bool(true)]),
      ], mask: nil)
    #expect(full.allowDuplicateEmails && full.improvedEmailPrivacy)
    #expect(full.members["blockingFunctions"] == forward)
    #expect(text(try emulation.updateConfig([:], mask: "")) == defaults)
  }

  @Test func theEmulatorsViewMasksTheFlagsItIsSentSoAnEmptyBodyResetsAll() throws {
    let emulation = try makeEmulation()
    _ = try emulation.updateConfig(["blockingFunctions": forward], mask: "blockingFunctions")
    let privacy = try emulation.updateEmulatorConfig([
      "emailPrivacyConfig": .object(["enableImprovedEmailPrivacy": .bool(true)]),
      "signIn": .object(["allowDuplicateEmails": .null]),
    ])
    #expect(privacy.improvedEmailPrivacy && !privacy.allowDuplicateEmails)
    #expect(privacy.members["blockingFunctions"] == forward, "the mask kept it")
    #expect(text(try emulation.updateEmulatorConfig([:])) == defaults)
  }

  @Test func blockingFunctionsAreCheckedAsTheEmulatorDoesThenRefusedAsNeverCalled() throws {
    let emulation = try makeEmulation()
    let trigger = { (event: String, uri: JSONValue) -> [String: JSONValue] in
      ["blockingFunctions": .object(["triggers": .object([event: .object(["functionUri": uri])])])]
    }
    #expect(
      throws: IdentityToolkitError.badRequest(
        "INVALID_BLOCKING_FUNCTION", "((Event type is invalid.))")
    ) {
      try emulation.updateConfig(
        trigger("invalidEventTrigger", .string("http://localhost")), mask: "signIn")
    }
    let badURI = IdentityToolkitError.badRequest(
      "INVALID_BLOCKING_FUNCTION", "((Expected an absolute URI with valid scheme and host.))")
    #expect(throws: badURI) {
      try emulation.updateConfig(trigger("beforeCreate", .string("invalidUri")), mask: nil)
    }
    #expect(throws: badURI) {
      try emulation.updateConfig(trigger("beforeSignIn", .null), mask: nil)
    }
    let refused = #expect(throws: IdentityToolkitError.self) {
      try emulation.updateConfig(
        trigger("beforeCreate", .string("http://127.0.0.1:5001/f")), mask: nil)
    }
    #expect(refused?.status == 501)
    #expect(text(emulation.config) == defaults, "nothing was kept")
    let unused = try emulation.updateConfig(
      trigger("beforeCreate", .string("http://127.0.0.1:5001/f")), mask: "signIn")
    #expect(text(unused) == defaults, "checked, but not copied")
    let fraction = #expect(throws: IdentityToolkitError.self) {
      try emulation.updateConfig(["quota": .number(0.5)], mask: "quota")
    }
    #expect(fraction?.status == 501)
  }
}

extension JSONValue {
  fileprivate static func int(_ value: Int) -> JSONValue { .number(Double(value)) }
}
