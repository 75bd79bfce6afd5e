import AuthCrypto
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// Verifying TOTP codes: the window, reuse, the challenge's rules, and the aal2 session.
struct MFAVerifyTests {
  @Test func codesOneStepEitherSideAreAcceptedAndTwoStepsAreNot() async throws {
    let mfa = try MFAFixture()
    let session = try await mfa.signIn()
    let (factor, totp) = try await mfa.enroll(session)
    for offset: Int64 in [-2, 2, -3, 3] {
      let refused = await mfa.error {
        try await mfa.verify(session, factor.id, code: mfa.code(totp, offset: offset))
      }
      #expect(refused?.code == .mfaVerificationFailed, "\(offset) steps")
    }
    for offset: Int64 in [-1, 0, 1] {
      let raised = try await mfa.verify(session, factor.id, code: mfa.code(totp, offset: offset))
      #expect(try mfa.claims(raised.accessToken)["aal"] == .string("aal2"), "\(offset) steps")
    }
  }

  @Test(.readsSQLiteTables) func aCodeAcceptedOnceIsAWrongCodeAfter() async throws {
    let mfa = try MFAFixture()
    let session = try await mfa.signIn()
    let (factor, totp) = try await mfa.enroll(session)
    _ = try await mfa.verify(session, factor.id, code: mfa.code(totp))
    // RFC 6238 §5.2 (GoTrue accepts it again): the same code, and the step before, are spent.
    for offset: Int64 in [0, -1] {
      let reused = await mfa.error {
        try await mfa.verify(session, factor.id, code: mfa.code(totp, offset: offset))
      }
      #expect(reused?.status == 422)
      #expect(reused?.code == .mfaVerificationFailed)
      #expect(reused?.message == "Invalid TOTP code entered")
    }
    mfa.clock.advance(by: 30)
    _ = try await mfa.verify(session, factor.id, code: mfa.code(totp))
    let steps = try mfa.engine.rows("SELECT last_used_step FROM mfa_factors").map { $0[0] }
    #expect(steps == [String(totp.step(at: mfa.now))])
  }

  @Test func aWrongCodeLeavesTheChallengeAndAUsedOneIsSpent() async throws {
    let mfa = try MFAFixture()
    let session = try await mfa.signIn()
    let (factor, totp) = try await mfa.enroll(session)
    let challenge = try mfa.challenge(session, factor.id)
    func verify(_ code: String, ip: String = MFAFixture.ip) async throws -> GoTrueSession {
      try await mfa.engine.verifyFactor(
        accessToken: session.accessToken, factorID: factor.id, challengeID: challenge,
        code: code, clientIP: ip)
    }
    let wrong = String(format: "%06d", ((Int(mfa.code(totp)) ?? 0) + 1) % 1_000_000)
    #expect(await mfa.error { try await verify(wrong) }?.code == .mfaVerificationFailed)
    let elsewhere = await mfa.error { try await verify(mfa.code(totp), ip: "10.0.0.2") }
    #expect(elsewhere?.status == 422)
    #expect(elsewhere?.code == .mfaIPAddressMismatch)
    #expect(elsewhere?.message == "Challenge and verify IP addresses mismatch.")
    _ = try await verify(mfa.code(totp))
    mfa.clock.advance(by: 30)
    let spent = await mfa.error { try await verify(mfa.code(totp)) }
    #expect(spent?.code == .mfaIPAddressMismatch, "GoTrue's answer for a used challenge")
  }

  @Test func anExpiredChallengeIsRemovedAndNamedInTheAnswer() async throws {
    let mfa = try MFAFixture()
    let session = try await mfa.signIn()
    let (factor, totp) = try await mfa.enroll(session)
    let challenge = try mfa.challenge(session, factor.id)
    func verify() async throws -> GoTrueSession {
      try await mfa.engine.verifyFactor(
        accessToken: session.accessToken, factorID: factor.id, challengeID: challenge,
        code: mfa.code(totp), clientIP: MFAFixture.ip)
    }
    mfa.clock.advance(by: 301)
    let expired = await mfa.error { try await verify() }
    #expect(expired?.status == 422)
    #expect(expired?.code == .mfaChallengeExpired)
    #expect(
      expired?.message
        == "MFA challenge \(challenge) has expired, verify against another challenge or "
        + "create a new challenge.")
    let gone = await mfa.error { try await verify() }
    #expect(gone?.code == .mfaFactorNotFound)
    #expect(gone?.message == "MFA factor with the provided challenge ID not found")

    let onTime = try mfa.challenge(session, factor.id)
    mfa.clock.advance(by: 300)
    _ = try await mfa.engine.verifyFactor(
      accessToken: session.accessToken, factorID: factor.id, challengeID: onTime,
      code: mfa.code(totp), clientIP: MFAFixture.ip)
  }

  @Test func anEmptyCodeAndSwitchedOffVerificationAreRefusedFirst() async throws {
    let mfa = try MFAFixture()
    let session = try await mfa.signIn()
    let factor = try await mfa.enroll(session).factor
    let empty = await mfa.error {
      try await mfa.engine.verifyFactor(
        accessToken: session.accessToken, factorID: factor.id, challengeID: "", code: "",
        clientIP: MFAFixture.ip)
    }
    #expect(empty?.status == 400)
    #expect(empty?.code == .validationFailed)
    #expect(empty?.message == "Code needs to be non-empty")

    let off = try MFAFixture { $0.mfa.totpVerifyEnabled = false }
    let other = try await off.signIn()
    let otherFactor = try await off.enroll(other).factor
    let refused = await off.error {
      try await off.engine.verifyFactor(
        accessToken: other.accessToken, factorID: otherFactor.id, challengeID: "",
        code: "123456", clientIP: MFAFixture.ip)
    }
    #expect(refused?.code == .mfaTOTPVerifyNotEnabled)
  }

  @Test(.readsSQLiteTables) func theSameSessionIsRaisedToAal2WithTotpNewestInItsMethods()
    async throws
  {
    let mfa = try MFAFixture()
    let session = try await mfa.signIn()
    let signedInAt = Double(mfa.now)
    #expect(try mfa.claims(session.accessToken)["aal"] == .string("aal1"))
    let (factor, totp) = try await mfa.enroll(session, name: "phone")
    mfa.clock.advance(by: 100)
    let raised = try await mfa.verify(session, factor.id, code: mfa.code(totp))
    let before = try mfa.claims(session.accessToken)
    let after = try mfa.claims(raised.accessToken)
    #expect(after["session_id"] == before["session_id"])
    #expect(after["aal"] == .string("aal2"))
    #expect(mfa.methods(raised.accessToken) == ["totp", "password"])
    #expect(mfa.methodTimes(raised.accessToken) == [signedInAt + 100, signedInAt])
    #expect(raised.refreshToken != session.refreshToken)
    #expect(raised.user.factors?.map(\.status) == ["verified"])
    #expect(raised.user.factors?.first?.friendlyName == "phone")
    let stored = try mfa.engine.rows("SELECT aal, factor_id FROM sessions")
    #expect(stored.map { Array($0.prefix(2)) } == [["aal2", factor.id]])

    // Refreshing keeps the level; the token from before the code cannot mint it.
    let refreshed = try await mfa.engine.refresh(refreshToken: raised.refreshToken)
    #expect(try mfa.claims(refreshed.accessToken)["aal"] == .string("aal2"))
    #expect(mfa.methods(refreshed.accessToken) == ["totp", "password"])
    let old = await mfa.error { try await mfa.engine.refresh(refreshToken: session.refreshToken) }
    #expect(old?.code == .refreshTokenAlreadyUsed)
  }

  @Test func verifyingDropsTheUsersOtherAal1SessionsAndUnverifiedFactors() async throws {
    let mfa = try MFAFixture()
    let session = try await mfa.signIn()
    let elsewhere = try await mfa.signIn()
    let (factor, totp) = try await mfa.enroll(session, name: "one")
    mfa.clock.advance(by: 1)
    let spare = try await mfa.enroll(session, name: "two").factor
    let raised = try await mfa.verify(session, factor.id, code: mfa.code(totp))
    // GoTrue answers with the user as read before the spare factor went.
    #expect(raised.user.factors?.map(\.id) == [factor.id, spare.id])
    let user = try await mfa.engine.user(accessToken: raised.accessToken)
    #expect(user.factors?.map(\.id) == [factor.id])
    let dropped = await mfa.error { try await mfa.engine.user(accessToken: elsewhere.accessToken) }
    #expect(dropped?.code == .sessionNotFound)
    let refresh = await mfa.error {
      try await mfa.engine.refresh(refreshToken: elsewhere.refreshToken)
    }
    #expect(refresh?.code == .refreshTokenNotFound)

    // A later aal2 session of the user survives another verification.
    let second = try await mfa.signIn()
    mfa.clock.advance(by: 30)
    let secondRaised = try await mfa.verify(second, factor.id, code: mfa.code(totp))
    #expect(try await mfa.engine.user(accessToken: raised.accessToken).id == user.id)
    #expect(try mfa.claims(secondRaised.accessToken)["aal"] == .string("aal2"))
  }

  @Test func changingThePasswordOrEmailWithAFactorNeedsAal2() async throws {
    let mfa = try MFAFixture()
    let raised = try await mfa.aal2Session()
    let aal1 = try await mfa.signIn()
    for attributes in [
      GoTrueUserAttributes(password: "another-password"),
      GoTrueUserAttributes(email: "new@example.com"),
    ] {
      let refused = await mfa.error {
        try await mfa.engine.updateUser(attributes, accessToken: aal1.accessToken)
      }
      #expect(refused?.status == 401)
      #expect(refused?.code == .insufficientAAL)
      #expect(
        refused?.message
          == "AAL2 session is required to update email or password when MFA is enabled.")
    }
    _ = try await mfa.engine.updateUser(
      GoTrueUserAttributes(data: ["name": .string("Ada")]), accessToken: aal1.accessToken)
    _ = try await mfa.engine.updateUser(
      GoTrueUserAttributes(password: "another-password"),
      accessToken: raised.session.accessToken)
  }
}
