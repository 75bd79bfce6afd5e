import AuthCrypto
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// What a TOTP code costs: one of the account's code checks, whoever asks, and a challenge is
/// spent after a few wrong ones; and what a session that has not proved the factor may do.
struct MFABudgetTests {
  /// A six-digit code that is not the factor's now.
  static func wrong(_ mfa: MFAFixture, _ totp: TOTP, _ n: Int = 1) -> String {
    let right = Set((-1...1).map { mfa.code(totp, offset: Int64($0)) })
    return (0..<1_000_000).lazy.map { String(format: "%06d", ($0 * 7_919 + n) % 1_000_000) }
      .first { !right.contains($0) } ?? "000000"
  }

  @Test(.readsSQLiteTables) func aChallengeIsSpentAfterFiveWrongCodesAndAnsweredAsExpired()
    async throws
  {
    let mfa = try MFAFixture()
    let session = try await mfa.signIn()
    let (factor, totp) = try await mfa.enroll(session)
    let challenge = try mfa.challenge(session, factor.id)
    func verify(_ code: String) async throws -> GoTrueSession {
      try await mfa.engine.verifyFactor(
        accessToken: session.accessToken, factorID: factor.id, challengeID: challenge,
        code: code, clientIP: MFAFixture.ip)
    }
    for n in 1...EmbeddedGoTrue.wrongCodesPerChallenge {
      #expect(
        await mfa.error { try await verify(Self.wrong(mfa, totp, n)) }?.code
          == .mfaVerificationFailed)
    }
    let spent = await mfa.error { try await verify(mfa.code(totp)) }
    #expect(spent?.status == 422)
    #expect(spent?.code == .mfaChallengeExpired)
    #expect(spent?.message.contains(challenge) == true)
    #expect(
      try mfa.engine.rows("SELECT count(*) FROM mfa_challenges WHERE id = '\(challenge)'")[0][0]
        == "0")
    // The right code on a new challenge still works: the factor is not locked, only the
    // challenge spent.
    let raised = try await mfa.verify(session, factor.id, code: mfa.code(totp))
    #expect(try mfa.claims(raised.accessToken)["aal"] == .string("aal2"))
  }

  @Test func everyCodeCheckedSpendsOneOfTheAccountsChecksWhoeverAsks() async throws {
    let mfa = try MFAFixture()
    let session = try await mfa.signIn()
    let (factor, totp) = try await mfa.enroll(session)
    let budget = Int(EngineConfiguration.RateLimits().verify.capacity)
    var checked = 0
    // Fresh challenges from fresh addresses: neither the challenge's limit nor any per-client
    // limit is what stops the guesses.
    while checked < budget {
      let ip = "10.0.\(checked / 4).\(checked % 4)"
      let challenge = try mfa.challenge(session, factor.id, ip: ip)
      for _ in 0..<min(4, budget - checked) {
        checked += 1
        let wrong = await mfa.error {
          try await mfa.engine.verifyFactor(
            accessToken: session.accessToken, factorID: factor.id, challengeID: challenge,
            code: Self.wrong(mfa, totp, checked), clientIP: ip)
        }
        #expect(wrong?.code == .mfaVerificationFailed, "check \(checked)")
      }
    }
    let over = await mfa.error { try await mfa.verify(session, factor.id, code: mfa.code(totp)) }
    #expect(over?.status == 429)
    #expect(over?.code == .overRequestRateLimit)
    // The budget refills with time, as the emailed codes' does.
    mfa.clock.advance(by: 300)
    let raised = try await mfa.verify(session, factor.id, code: mfa.code(totp, offset: 0))
    #expect(try mfa.claims(raised.accessToken)["aal"] == .string("aal2"))
  }

  @Test(.readsSQLiteTables) func theChecksAreCountedInOneBucketNamedForTheAccount() async throws {
    let mfa = try MFAFixture { $0.rateLimits.verify = .init(capacity: 2, period: 300) }
    let session = try await mfa.signIn()
    let (factor, totp) = try await mfa.enroll(session)
    for n in 1...2 {
      _ = await mfa.error {
        try await mfa.verify(session, factor.id, code: Self.wrong(mfa, totp, n))
      }
    }
    let over = await mfa.error { try await mfa.verify(session, factor.id, code: mfa.code(totp)) }
    #expect(over?.status == 429)
    let buckets = try mfa.engine.rows("SELECT bucket FROM rate_limits").map { $0[0] }
      .filter { $0.hasPrefix("verify:") }
    #expect(buckets.count == 1, "one account, one bucket, named by a keyed hash: \(buckets)")
    #expect(buckets.allSatisfy { !$0.contains(session.user.id) })
  }

  @Test func deletingTheAccountWithAFactorNeedsAal2() async throws {
    let mfa = try MFAFixture()
    let (raised, _, _) = try await mfa.aal2Session()
    let aal1 = try await mfa.signIn()
    let refused = await mfa.error { try await mfa.engine.deleteUser(accessToken: aal1.accessToken) }
    #expect(refused?.status == 401)
    #expect(refused?.code == .insufficientAAL)
    #expect(try mfa.engine.accountCount() == 2, "nothing was deleted")
    try await mfa.engine.deleteUser(accessToken: raised.accessToken)
    #expect(try mfa.engine.accountCount() == 1)
  }

  @Test func anAccountWithoutAVerifiedFactorDeletesItselfFromAal1() async throws {
    let mfa = try MFAFixture()
    let session = try await mfa.signIn()
    _ = try await mfa.enroll(session)  // enrolled, never verified
    try await mfa.engine.deleteUser(accessToken: session.accessToken)
    #expect(try mfa.engine.accountCount() == 1)
  }
}
