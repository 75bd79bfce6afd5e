import Clocks
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// A signed-in user's new number (`PUT /user` with a phone, then `/verify` of `phone_change`),
/// a phone user's reauthentication by SMS, resends, autoconfirm, and GoTrue's answers with the
/// phone provider off.
struct PhoneChangeTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  private func engine(_ configure: (inout EngineConfiguration) -> Void = { _ in }) throws
    -> EmbeddedGoTrue
  {
    try makeEngine(clock: clock) {
      $0.phoneProvider = true
      configure(&$0)
    }
  }

  @Test func aNewNumberChangesOnceItsCodeIsVerified() async throws {
    let engine = try engine()
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    let pending = try await engine.updateUser(
      GoTrueUserAttributes(phone: "+44 20 7946 0000"), accessToken: session.accessToken)
    #expect(pending.phone == "" && pending.newPhone == "442079460000")
    #expect(pending.phoneChangeSentAt == testEpoch)
    let text = try #require(engine.smsOutbox.newest(to: "+442079460000", kind: .phoneChange))
    let wrongType = await failure {
      try await engine.verifyPhone(.sms, phone: "442079460000", code: text.code)
    }
    #expect(wrongType?.apiError?.code == .otpInvalid, "an sms code is checked against the number")
    let changed = try await engine.verifyPhone(
      .phoneChange, phone: "+442079460000", code: text.code)
    #expect(changed.user.phone == "442079460000" && changed.user.newPhone == nil)
    #expect(changed.user.phoneConfirmedAt == testEpoch)
    #expect(changed.user.appMetadata["providers"] == .array([.string("email"), .string("phone")]))
    #expect(changed.user.identities?.map(\.provider) == ["email", "phone"])
  }

  @Test func aTakenNumberIsRefusedAndAnAbsentOneIsLeftAlone() async throws {
    let engine = try engine()
    _ = try await engine.createUser(
      GoTrueAdminUserAttributes(phone: "15555550100", phoneConfirm: true))
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    let taken = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(phone: "+15555550100"), accessToken: session.accessToken)
    }
    #expect(taken?.apiError?.code == .phoneExists)
    let malformed = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(phone: "0123"), accessToken: session.accessToken)
    }
    #expect(malformed?.apiError?.message == "Invalid phone number format (E.164 required)")
    _ = try await engine.updateUser(
      GoTrueUserAttributes(data: ["a": .bool(true)], phone: ""),
      accessToken: session.accessToken)
    #expect(engine.smsOutbox.messages.isEmpty)
  }

  @Test func aPendingChangeIsResentToTheNewNumber() async throws {
    let engine = try engine()
    let user = try await engine.createUser(
      GoTrueAdminUserAttributes(phone: "15555550100", password: "Password123", phoneConfirm: true))
    let session = try await engine.signIn(phone: "15555550100", password: "Password123")
    _ = try await engine.updateUser(
      GoTrueUserAttributes(phone: "15555550111"), accessToken: session.accessToken)
    let soon = await failure { try await engine.resendText(.phoneChange, phone: "15555550100") }
    #expect(soon?.apiError?.code == .overSMSSendRateLimit)
    clock.advance(by: 61)
    let messageID = try await engine.resendText(.phoneChange, phone: "15555550100")
    let resent = try #require(engine.smsOutbox.newest(to: "15555550111", kind: .phoneChange))
    #expect(messageID == "\(resent.id)")
    #expect(try await engine.resendText(.sms, phone: "15555550100") == nil, "already confirmed")
    #expect(try await engine.resendText(.sms, phone: "15555550177") == nil, "no such number")
    _ = try await engine.verifyPhone(.phoneChange, phone: "15555550111", code: resent.code)
    #expect(try engine.user(id: user.id).phone == "15555550111")
  }

  @Test func aPhoneUserIsReauthenticatedBySMS() async throws {
    let engine = try engine { $0.passwordChangeNeedsReauthentication = true }
    _ = try await engine.createUser(
      GoTrueAdminUserAttributes(phone: "15555550100", password: "Password123", phoneConfirm: true))
    let session = try await engine.signIn(phone: "15555550100", password: "Password123")
    let messageID = try await engine.sendNonce(accessToken: session.accessToken)
    let nonce = try #require(engine.smsOutbox.newest(to: "15555550100", kind: .reauthentication))
    #expect(messageID == "\(nonce.id)")
    clock.advance(by: 25 * 3_600)
    let refreshed = try await engine.refresh(refreshToken: session.refreshToken)
    let needed = await failure {
      try await engine.updatePassword("Password456", accessToken: refreshed.accessToken)
    }
    #expect(needed?.apiError?.code == .reauthenticationNeeded)
    let late = await failure {
      try await engine.updatePassword(
        "Password456", accessToken: refreshed.accessToken, nonce: nonce.code)
    }
    #expect(late?.apiError?.code == .reauthenticationNotValid, "a texted nonce lasts a minute")
    _ = try await engine.sendNonce(accessToken: refreshed.accessToken)
    let fresh = try #require(engine.smsOutbox.newest(to: "15555550100", kind: .reauthentication))
    _ = try await engine.updatePassword(
      "Password456", accessToken: refreshed.accessToken, nonce: fresh.code)
  }

  @Test func autoconfirmSignsNewPhonesInAtOnce() async throws {
    let engine = try engine { $0.smsAutoconfirm = true }
    guard
      case .session(let session) = try await engine.signUp(
        phone: "15555550100", password: "Password123", data: [:])
    else { throw PhoneTestFailure("autoconfirm answers a session") }
    #expect(session.user.phoneConfirmedAt == testEpoch)
    #expect(engine.smsOutbox.messages.isEmpty)
    let again = await failure {
      try await engine.signUp(phone: "+15555550100", password: "Password123", data: [:])
    }
    #expect(again?.apiError?.code == .userAlreadyExists)
    let changed = try await engine.updateUser(
      GoTrueUserAttributes(phone: "15555550111"), accessToken: session.accessToken)
    #expect(changed.phone == "15555550111" && engine.smsOutbox.messages.isEmpty)
  }

  @Test func aConfirmedNumberSignedUpAgainGetsAUserThatTellsNothing() async throws {
    let engine = try engine()
    let real = try await engine.createUser(
      GoTrueAdminUserAttributes(phone: "15555550100", phoneConfirm: true))
    guard
      case .user(let fake) = try await engine.signUp(
        phone: "15555550100", password: "Password123", data: [:])
    else { throw PhoneTestFailure("a repeated signup answers a user") }
    #expect(fake.id != real.id && fake.identities == [] && fake.role == "")
    #expect(engine.smsOutbox.messages.isEmpty)
  }

  @Test func withThePhoneProviderOffPhonesAreRefusedAsGoTrueRefusesThem() async throws {
    let engine = try makeEngine(clock: clock)
    let signup = await failure {
      try await engine.signUp(phone: "15555550100", password: "Password123", data: [:])
    }
    #expect(signup?.apiError?.code == .phoneProviderDisabled)
    #expect(signup?.apiError?.message == "Phone signups are disabled")
    let otp = await failure {
      try await engine.sendSignInCode(phone: "15555550100", createUser: true, data: [:])
    }
    #expect(otp?.apiError?.message == "Unsupported phone provider")
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    let change = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(phone: "15555550100"), accessToken: session.accessToken)
    }
    #expect(change?.apiError?.code == .phoneProviderDisabled)
    #expect(engine.smsOutbox.messages.isEmpty)
  }
}

/// A test's own failure, with a reason.
struct PhoneTestFailure: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
