import AuthCrypto
import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// A user with a TOTP factor enrolled through GoTrue's routes, seen through the Firebase
/// surface: the sign-in waits for the code, and a session that has not proved the factor
/// changes no credential.
struct FirebaseSecondFactorTests {
  static let email = "test@example.com"
  static let password = "TestPassword123!"

  /// The emulation on a clock 15 s into a TOTP step, with the demo user's factor verified.
  struct Fixture {
    let clock = AdjustableClock(fixedAt: testEpoch.addingTimeInterval(15))
    let emulation: FirebaseEmulation
    let factorID: String
    let totp: TOTP

    init(configure: (inout EngineConfiguration) -> Void = { _ in }) async throws {
      emulation = try makeEmulation(clock: clock, configure: configure)
      let engine = emulation.engine
      let session = try await engine.signIn(email: email, password: password)
      let factor = try await engine.enrollTOTP(
        accessToken: session.accessToken, friendlyName: "phone app", issuer: "")
      let setup = try #require(factor.totp)
      let secret = try #require(Base32.decode(setup.secret))
      totp = TOTP(secret: secret)
      factorID = factor.id
      let challenge = try engine.challengeFactor(
        accessToken: session.accessToken, factorID: factor.id, clientIP: "127.0.0.1")
      _ = try await engine.verifyFactor(
        accessToken: session.accessToken, factorID: factor.id, challengeID: challenge.id,
        code: totp.code(forStep: totp.step(at: now)), clientIP: "127.0.0.1")
      // The next code is the next step's: the one just used is spent.
      clock.advance(by: 30)
    }

    var now: Int64 { Int64(clock.now.timeIntervalSince1970) }
    var code: String { totp.code(forStep: totp.step(at: now)) }
    var wrongCode: String { code == "000000" ? "000001" : "000000" }

    /// A password sign-in's pending second step.
    func pending() async throws -> FirebaseSecondFactorPending {
      let outcome = try await emulation.signIn(email: email, password: password)
      guard case .secondFactorPending(let pending) = outcome else {
        Issue.record("a user with a verified factor was signed in with a password alone")
        throw CancellationError()
      }
      return pending
    }

    /// A session that proved the factor.
    func fullSession() async throws -> FirebaseSession {
      try await emulation.finishSecondFactor(
        credential: try await pending().credential, enrollmentID: factorID, code: code)
    }

    /// An aal1 session of the user: a custom token's, which asks no second factor.
    func customTokenSession() async throws -> FirebaseSession {
      let user = try emulation.engine.rows("SELECT id FROM users WHERE email = '\(email)'")[0][0]
      let token = try FirebaseCustomToken(parsing: #"{"uid":"\#(user)"}"#)
      return try await emulation.signIn(customToken: token).session
    }
  }

  @Test(.readsSQLiteTables) func aPasswordSignInWaitsForTheCodeAndOpensNoSession() async throws {
    let fixture = try await Fixture()
    let sessions = try fixture.emulation.engine.rows("SELECT count(*) FROM sessions")[0][0]
    let pending = try await fixture.pending()
    #expect(pending.account.email == Self.email)
    #expect(pending.factors.map(\.enrollmentID) == [fixture.factorID])
    #expect(pending.factors.first?.displayName == "phone app")
    #expect(pending.credential.utf8.count >= 40)
    #expect(try fixture.emulation.engine.rows("SELECT count(*) FROM sessions")[0][0] == sessions)
    let stored = try fixture.emulation.engine.rows(
      "SELECT credential_hash FROM mfa_pending_sign_ins")
    #expect(stored.count == 1)
    #expect(!stored[0][0].contains(pending.credential), "only a hash is kept")
  }

  @Test(.readsSQLiteTables) func theRightCodeFinishesTheSignInWithASecondFactorSession()
    async throws
  {
    let fixture = try await Fixture()
    let pending = try await fixture.pending()
    let session = try await fixture.emulation.finishSecondFactor(
      credential: pending.credential, enrollmentID: fixture.factorID, code: fixture.code)
    let claims = try fixture.emulation.claims(of: session.idToken)
    let firebase = claims["firebase"]?.objectValue
    #expect(firebase?["sign_in_second_factor"] == .string("totp"))
    #expect(firebase?["second_factor_identifier"] == .string(fixture.factorID))
    #expect(firebase?["sign_in_provider"] == .string("password"))
    let sessionID = try #require(claims["session_id"]?.stringValue)
    let row = try fixture.emulation.engine.rows(
      "SELECT aal, factor_id FROM sessions WHERE id = '\(sessionID)'")
    #expect(row.first?.prefix(2) == ["aal2", fixture.factorID])
    // Refreshed, the session keeps its second factor.
    let refreshed = try await fixture.emulation.refresh(refreshToken: session.refreshToken)
    let again = try fixture.emulation.claims(of: refreshed.idToken)["firebase"]?.objectValue
    #expect(again?["second_factor_identifier"] == .string(fixture.factorID))
    // The credential is spent.
    let reused = await firebaseFailure {
      try await fixture.emulation.finishSecondFactor(
        credential: pending.credential, enrollmentID: fixture.factorID, code: fixture.code)
    }
    #expect(reused == .badRequest("INVALID_MFA_PENDING_CREDENTIAL"))
  }

  @Test func wrongCodesAreInvalidAndFiveSpendTheCredential() async throws {
    let fixture = try await Fixture()
    let pending = try await fixture.pending()
    func finish(_ code: String) async -> IdentityToolkitError? {
      await firebaseFailure {
        try await fixture.emulation.finishSecondFactor(
          credential: pending.credential, enrollmentID: fixture.factorID, code: code)
      }
    }
    for _ in 1...EmbeddedGoTrue.wrongCodesPerChallenge {
      #expect(await finish(fixture.wrongCode) == .badRequest("INVALID_CODE"))
    }
    #expect(await finish(fixture.code) == .badRequest("INVALID_MFA_PENDING_CREDENTIAL"))
    // A new sign-in may try again.
    _ = try await fixture.fullSession()
  }

  @Test func theChecksComeFromTheAccountsBudgetBothSurfacesShare() async throws {
    let fixture = try await Fixture { $0.rateLimits.verify = .init(capacity: 3, period: 300) }
    for _ in 0..<3 {
      let pending = try await fixture.pending()
      _ = await firebaseFailure {
        try await fixture.emulation.finishSecondFactor(
          credential: pending.credential, enrollmentID: fixture.factorID,
          code: fixture.wrongCode)
      }
    }
    let over = await firebaseFailure { try await fixture.fullSession() }
    #expect(over?.code == .tooManyAttempts)
    // GoTrue's route draws from the same budget.
    let engine = fixture.emulation.engine
    let session = try await engine.signIn(email: Self.email, password: Self.password)
    let challenge = try engine.challengeFactor(
      accessToken: session.accessToken, factorID: fixture.factorID, clientIP: "127.0.0.1")
    let refused = await failure {
      try await engine.verifyFactor(
        accessToken: session.accessToken, factorID: fixture.factorID, challengeID: challenge.id,
        code: fixture.code, clientIP: "127.0.0.1")
    }
    #expect(refused?.apiError?.status == 429)
  }

  @Test func theSecondStepChecksItsPartsInOrder() async throws {
    let fixture = try await Fixture()
    let emulation = fixture.emulation
    let pending = try await fixture.pending()
    func finish(_ credential: String?, _ factor: String?, _ code: String?) async
      -> IdentityToolkitError?
    {
      await firebaseFailure {
        try await emulation.finishSecondFactor(
          credential: credential, enrollmentID: factor, code: code)
      }
    }
    #expect(
      await finish(nil, fixture.factorID, fixture.code)
        == .badRequest("MISSING_CREDENTIAL", "Please set MFA Pending Credential."))
    #expect(
      await finish(pending.credential, "", fixture.code)
        == .badRequest("MISSING_MFA_ENROLLMENT_ID", "No second factor identifier is provided."))
    #expect(await finish(pending.credential, fixture.factorID, "") == .badRequest("MISSING_CODE"))
    #expect(
      await finish("made-up", fixture.factorID, fixture.code)
        == .badRequest("INVALID_MFA_PENDING_CREDENTIAL"))
    #expect(
      await finish(pending.credential, UUID().uuidString.lowercased(), fixture.code)
        == .badRequest("MFA_ENROLLMENT_NOT_FOUND"))
    fixture.clock.advance(by: 301)
    #expect(
      await finish(pending.credential, fixture.factorID, fixture.code)
        == .badRequest("INVALID_MFA_PENDING_CREDENTIAL"), "past the challenge's lifetime")
  }

  @Test func anEmailLinkSignInWaitsForTheCodeToo() async throws {
    let fixture = try await Fixture()
    let code = try fixture.emulation.emailSignInCode(Self.email)
    let (outcome, isNewUser) = try fixture.emulation.signInWithEmailLink(
      email: Self.email, code: code.code, idToken: nil)
    #expect(!isNewUser)
    #expect(outcome.session == nil)
  }

  @Test(.readsSQLiteTables) func aSessionThatDidNotProveTheFactorChangesNoCredential() async throws
  {
    let fixture = try await Fixture()
    let emulation = fixture.emulation
    let weak = try await fixture.customTokenSession()
    let tooOld = IdentityToolkitError.badRequest(.credentialTooOld)
    var password = FirebaseAccountChanges()
    password.password = "another-password-1"
    #expect(
      await firebaseFailure { try await emulation.update(idToken: weak.idToken, password) }
        == tooOld)
    var email = FirebaseAccountChanges()
    email.email = "elsewhere@example.com"
    #expect(
      await firebaseFailure { try await emulation.update(idToken: weak.idToken, email) } == tooOld)
    var name = FirebaseAccountChanges()
    name.displayName = "Still Allowed"
    #expect(
      try await emulation.update(idToken: weak.idToken, name).0.displayName == "Still Allowed")
    #expect(await firebaseFailure { try emulation.deleteAccount(idToken: weak.idToken) } == tooOld)
    var change = FirebaseCodeRequest()
    (change.type, change.idToken, change.newEmail) = (
      "VERIFY_AND_CHANGE_EMAIL", weak.idToken, "elsewhere@example.com"
    )
    #expect(await firebaseFailure { try emulation.sendCode(change) } == tooOld)
    var link = FirebaseSignUpRequest()
    (link.idToken, link.email, link.password) = (
      weak.idToken, "linked@example.com", "linked-password-1"
    )
    #expect(await firebaseFailure { try await emulation.signUp(link, privileged: false) } == tooOld)
    #expect(try emulation.engine.accountCount() == 2, "the account is still there")

    // The session that proved the factor may, and its new tokens keep the factor.
    let strong = try await fixture.fullSession()
    let (_, renewed) = try await emulation.update(idToken: strong.idToken, password)
    let claims = try emulation.claims(of: try #require(renewed).idToken)
    #expect(claims["firebase"]?.objectValue?["sign_in_second_factor"] == .string("totp"))
    try emulation.deleteAccount(idToken: try #require(renewed).idToken)
    #expect(try emulation.engine.accountCount() == 1)
  }

  @Test func lookupsListTheVerifiedFactor() async throws {
    let fixture = try await Fixture()
    let session = try await fixture.fullSession()
    let account = try fixture.emulation.account(idToken: session.idToken)
    #expect(account.secondFactors.map(\.enrollmentID) == [fixture.factorID])
    #expect(account.secondFactors.first?.enrolledAt == testEpoch.millis + 15_000)
  }

  @Test func withSecurePasswordChangeAnOldSessionChangesNoPassword() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock) {
      $0.passwordChangeNeedsReauthentication = true
    }
    let session = try await emulation.signIn(email: Self.email, password: Self.password).signedIn()
    var password = FirebaseAccountChanges()
    password.password = "another-password-1"
    clock.advance(by: 24 * 3_600 + 1)
    let refreshed = try await emulation.refresh(refreshToken: session.refreshToken)
    #expect(
      await firebaseFailure { try await emulation.update(idToken: refreshed.idToken, password) }
        == .badRequest(.credentialTooOld))
    let fresh = try await emulation.signIn(email: Self.email, password: Self.password).signedIn()
    #expect(try await emulation.update(idToken: fresh.idToken, password).1 != nil)
  }
}

extension Date {
  fileprivate var millis: Int64 { Int64((timeIntervalSince1970 * 1_000).rounded()) }
}
