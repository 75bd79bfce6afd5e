import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// Phone numbers on the Firebase surface: an admin's, and phone sign-in with texted codes.
struct FirebasePhoneTests {
  static let number = "+15555550100"

  @Test func anAdminSetsLooksUpChangesAndRemovesANumber() async throws {
    let emulation = try makeEmulation()
    var new = FirebaseNewAccount()
    (new.phoneNumber, new.displayName) = (Self.number, "Pat")
    let made = try await emulation.create(new)
    #expect(made.phoneNumber == Self.number && made.email.isEmpty)
    let record = try emulation.record(made.id)
    #expect(record.phone == "15555550100" && record.phoneConfirmedAt != nil)
    #expect(record.phoneIdentity != nil && !record.isAnonymous)
    #expect(record.appMetadata["providers"] == .array([.string("phone")]))
    #expect(record.appMetadata["provider"] == .string("phone"))

    for (number, expected) in [
      (Self.number, IdentityToolkitError.badRequest(.phoneNumberExists)),
      ("555", .badRequest(.invalidPhoneNumber, "Invalid format.")),
      ("+0123", .badRequest(.invalidPhoneNumber, "Invalid format.")),
      ("+1", .badRequest(.invalidPhoneNumber, "Invalid format.")),
    ] {
      var again = FirebaseNewAccount()
      again.phoneNumber = number
      #expect(await firebaseFailure { try await emulation.create(again) } == expected, "\(number)")
    }

    var lookup = FirebaseLookup()
    lookup.phoneNumbers = [Self.number, "555", "+15555550199"]
    #expect(try emulation.accounts(matching: lookup).map(\.id) == [made.id])
    lookup = FirebaseLookup()
    lookup.federatedIDs = [FirebaseFederatedID(providerID: "phone", rawID: Self.number)]
    #expect(try emulation.accounts(matching: lookup).map(\.id) == [made.id])

    var changes = FirebaseAccountChanges()
    changes.phoneNumber = "+15555550111"
    #expect(try await emulation.update(id: made.id, changes).phoneNumber == "+15555550111")
    lookup = FirebaseLookup()
    lookup.phoneNumbers = [Self.number]
    #expect(try emulation.accounts(matching: lookup).isEmpty, "the old number is free")

    let other = try await emulation.newUser("other@example.com")
    #expect(
      await firebaseFailure { try await emulation.update(id: other.account.id, changes) }
        == .badRequest(.phoneNumberExists))
    changes.phoneNumber = "12"
    #expect(
      await firebaseFailure { try await emulation.update(id: other.account.id, changes) }
        == .badRequest(.invalidPhoneNumber, "Invalid format."))
    changes.phoneNumber = Self.number
    let both = try await emulation.update(id: other.account.id, changes)
    #expect(both.phoneNumber == Self.number && both.email == "other@example.com")
    #expect(
      try emulation.record(both.id).appMetadata["providers"]
        == .array([.string("email"), .string("phone")]))

    var removal = FirebaseAccountChanges()
    removal.deletedProviders = ["phone"]
    let removed = try await emulation.update(id: made.id, removal)
    #expect(removed.phoneNumber == nil)
    let bare = try emulation.record(made.id)
    #expect(bare.phone == nil && bare.phoneConfirmedAt == nil && bare.phoneIdentity == nil)
    #expect(bare.appMetadata["providers"] == .array([]) && bare.appMetadata["provider"] == nil)
  }

  @Test func aTextedCodeSignsTheNumberUpThenInOnce() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let sessionInfo = try emulation.sendVerificationCode(phoneNumber: Self.number)
    #expect(sessionInfo.count == 226)
    let listed = emulation.verificationCodes()
    #expect(
      listed.map(\.phoneNumber) == [Self.number] && listed.map(\.sessionInfo) == [sessionInfo])
    let code = try #require(listed.first?.code)
    #expect(code.count == 6 && code.allSatisfy(\.isNumber))
    // The text lands in the SMS outbox beside GoTrue's, with the emulator's words.
    let texted = try #require(emulation.engine.smsOutbox.newest(to: Self.number))
    #expect(texted.kind == .verificationCode && texted.code == code)
    #expect(texted.body == "To verify the phone number \(Self.number), use the code \(code).")
    #expect(texted.sentAt == clock.now)

    let wrong = code == "000000" ? "000001" : "000000"
    #expect(
      await firebaseFailure {
        try await emulation.signIn(phone: .init(sessionInfo: sessionInfo, code: wrong))
      }
        == .badRequest(.invalidCode))
    #expect(emulation.verificationCodes().count == 1, "a wrong code spends nothing")

    guard
      case .signedIn(let session, let shown, let isNew) = try await emulation.signIn(
        phone: .init(sessionInfo: sessionInfo, code: code))
    else { throw FirebasePhoneTestFailure("no session") }
    #expect(shown == Self.number && isNew && session.account.phoneNumber == Self.number)
    let claims = try emulation.claims(of: session.idToken)
    #expect(claims["phone_number"] == .string(Self.number))
    #expect(
      claims["firebase"]
        == .object([
          "identities": .object(["phone": .array([.string(Self.number)])]),
          "sign_in_provider": .string("phone"),
        ]))
    #expect(claims["email_verified"] == nil && claims["provider_id"] == nil)
    #expect(emulation.verificationCodes().isEmpty, "a used code leaves the list")
    #expect(
      await firebaseFailure {
        try await emulation.signIn(phone: .init(sessionInfo: sessionInfo, code: code))
      }
        == .badRequest(.invalidSessionInfo), "a code works once")
    let refreshed = try await emulation.refresh(refreshToken: session.refreshToken)
    #expect(
      try emulation.claims(of: refreshed.idToken)["firebase"]?.objectValue?["sign_in_provider"]
        == .string("phone"))

    let again = try emulation.sendVerificationCode(phoneNumber: Self.number)
    let next = try #require(emulation.verificationCodes().first?.code)
    guard
      case .signedIn(let second, _, let secondIsNew) = try await emulation.signIn(
        phone: .init(sessionInfo: again, code: next))
    else { throw FirebasePhoneTestFailure("no session") }
    #expect(!secondIsNew && second.account.id == session.account.id)

    let late = try emulation.sendVerificationCode(phoneNumber: Self.number)
    let lateCode = try #require(emulation.verificationCodes().first?.code)
    clock.advance(by: 86_401)
    #expect(emulation.verificationCodes().isEmpty, "an expired code leaves the list")
    #expect(
      await firebaseFailure {
        try await emulation.signIn(phone: .init(sessionInfo: late, code: lateCode))
      }
        == .badRequest(.sessionExpired))
  }

  @Test func theRequestIsCheckedInTheEmulatorsOrder() async throws {
    let emulation = try makeEmulation()
    for number in [nil, "", "5555550100", "+12 34a"] {
      #expect(
        await firebaseFailure { try emulation.sendVerificationCode(phoneNumber: number) }
          == .badRequest(.invalidPhoneNumber, "Invalid format."), "\(number ?? "nil")")
    }
    #expect(emulation.verificationCodes().isEmpty)
    let cases: [(IdentityToolkitRequest.SignInWithPhoneNumber, IdentityToolkitError)] = [
      (.init(code: "123456"), .badRequest(.missingSessionInfo)),
      (.init(sessionInfo: "s"), .badRequest(.missingCode)),
      (.init(sessionInfo: "s", code: "123456"), .badRequest(.invalidSessionInfo)),
      (.init(temporaryProof: "p"), .badRequest(.missingPhoneNumber)),
      (.init(phoneNumber: Self.number, temporaryProof: "p"), .badRequest(.invalidTemporaryProof)),
    ]
    for (request, expected) in cases {
      #expect(await firebaseFailure { try await emulation.signIn(phone: request) } == expected)
    }

    var new = FirebaseNewAccount()
    (new.phoneNumber, new.disabled) = (Self.number, true)
    _ = try await emulation.create(new)
    let sessionInfo = try emulation.sendVerificationCode(phoneNumber: Self.number)
    let code = try #require(emulation.verificationCodes().first?.code)
    #expect(
      await firebaseFailure {
        try await emulation.signIn(phone: .init(sessionInfo: sessionInfo, code: code))
      }
        == .badRequest(.userDisabled))
  }

  @Test func aNumberLinksToTheSignedInUserOrAnswersAProof() async throws {
    let emulation = try makeEmulation()
    let anonymous = try #require(
      try await emulation.signUp(FirebaseSignUpRequest(), privileged: false).session)
    guard
      case .signedIn(let linked, _, let isNew) = try await emulation.signIn(
        phone: try signIn(emulation, Self.number, idToken: anonymous.idToken))
    else { throw FirebasePhoneTestFailure("not linked") }
    #expect(!isNew && linked.account.id == anonymous.account.id)
    #expect(try !emulation.record(anonymous.account.id).isAnonymous, "a phone user now")

    let other = try await emulation.newUser("other@example.com")
    guard
      case .proofOnly(let shown, let proof, let life) = try await emulation.signIn(
        phone: try signIn(emulation, Self.number, idToken: other.idToken))
    else { throw FirebasePhoneTestFailure("linked another account's number") }
    #expect(shown == Self.number && proof.count == 119 && life == 3_600)
    let retry = IdentityToolkitRequest.SignInWithPhoneNumber(
      idToken: other.idToken, phoneNumber: Self.number, temporaryProof: proof)
    #expect(
      await firebaseFailure { try await emulation.signIn(phone: retry) }
        == .badRequest(.phoneNumberExists))
    #expect(
      await firebaseFailure {
        try await emulation.signIn(
          phone: .init(phoneNumber: "+15555550199", temporaryProof: proof))
      } == .badRequest(.invalidTemporaryProof))
    let proved = IdentityToolkitRequest.SignInWithPhoneNumber(
      phoneNumber: Self.number, temporaryProof: proof)
    guard case .signedIn(let holder, _, false) = try await emulation.signIn(phone: proved) else {
      throw FirebasePhoneTestFailure("the proof did not sign the number in")
    }
    #expect(holder.account.id == anonymous.account.id)
    #expect(
      await firebaseFailure { try await emulation.signIn(phone: proved) }
        == .badRequest(.invalidTemporaryProof), "a proof works once")
  }

  @Test func aGoTrueUsersNumberSignsInAndIsConfirmedByTheCode() async throws {
    let emulation = try makeEmulation()
    let made = try await emulation.engine.createUser(
      GoTrueAdminUserAttributes(email: "gotrue@example.com", phone: Self.number))
    #expect(try emulation.record(made.id).phoneConfirmedAt == nil)
    guard
      case .signedIn(let session, _, false) = try await emulation.signIn(
        phone: try signIn(emulation, Self.number))
    else { throw FirebasePhoneTestFailure("the GoTrue user was not signed in") }
    #expect(session.account.id == made.id && session.account.email == "gotrue@example.com")
    #expect(try emulation.record(made.id).phoneConfirmedAt != nil)
  }

  @Test func aUserWithASecondFactorSignsInWithNoNumber() async throws {
    let fixture = try await FirebaseSecondFactorTests.Fixture()
    let emulation = fixture.emulation
    let user = try #require(
      try emulation.accounts(ids: [], emails: [FirebaseSecondFactorTests.email]).first)
    var changes = FirebaseAccountChanges()
    changes.phoneNumber = Self.number
    _ = try await emulation.update(id: user.id, changes)
    let unsupported = IdentityToolkitError.badRequest(
      .unsupportedFirstFactor,
      "A phone number cannot be set as a first factor on an SMS based MFA user.")
    #expect(
      await firebaseFailure { try emulation.sendVerificationCode(phoneNumber: Self.number) }
        == unsupported)
    #expect(emulation.verificationCodes().isEmpty)
    let session = try await fixture.fullSession()
    #expect(
      await firebaseFailure {
        try await emulation.signIn(
          phone: try signIn(emulation, "+15555550111", idToken: session.idToken))
      } == unsupported)
  }

  /// A sign-in with the code texted to `number` now.
  private func signIn(_ emulation: FirebaseEmulation, _ number: String, idToken: String? = nil)
    throws -> IdentityToolkitRequest.SignInWithPhoneNumber
  {
    let sessionInfo = try emulation.sendVerificationCode(phoneNumber: number)
    let code = try #require(
      emulation.verificationCodes().first { $0.sessionInfo == sessionInfo }?.code)
    return .init(sessionInfo: sessionInfo, code: code, idToken: idToken)
  }
}

/// A sign-in that ended otherwise than the test expected.
struct FirebasePhoneTestFailure: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
