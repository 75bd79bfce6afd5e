import AuthCrypto
import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// An engine on a clock that stands still (15 s into a TOTP step, so a step either side is
/// a whole step away), with the demo user, and the steps of TOTP MFA as one-liners.
struct MFAFixture {
  let clock = AdjustableClock(fixedAt: testEpoch.addingTimeInterval(15))
  let engine: EmbeddedGoTrue
  static let email = "test@example.com"
  static let password = "TestPassword123!"
  static let ip = "127.0.0.1"

  init(configure: (inout EngineConfiguration) -> Void = { _ in }) throws {
    engine = try makeEngine(clock: clock, configure: configure)
  }

  /// A new session of the demo user.
  func signIn() async throws -> GoTrueSession {
    try await engine.signIn(email: Self.email, password: Self.password)
  }

  /// Enrols a TOTP factor from `session`; the enrolment and a generator for its secret.
  func enroll(_ session: GoTrueSession, name: String = "", issuer: String = "") async throws
    -> (factor: GoTrueFactorEnrollment, totp: TOTP)
  {
    let factor = try await engine.enrollTOTP(
      accessToken: session.accessToken, friendlyName: name, issuer: issuer)
    let setup = try #require(factor.totp)
    return (factor, TOTP(secret: try #require(Base32.decode(setup.secret))))
  }

  /// The clock in Unix seconds.
  var now: Int64 { Int64(clock.now.timeIntervalSince1970) }

  /// The code of the step `offset` steps from now.
  func code(_ totp: TOTP, offset: Int64 = 0) -> String {
    totp.code(forStep: totp.step(at: now) + offset)
  }

  /// A challenge of the factor from `session`, from `ip`.
  func challenge(_ session: GoTrueSession, _ factorID: String, ip: String = ip) throws -> String {
    try engine.challengeFactor(accessToken: session.accessToken, factorID: factorID, clientIP: ip)
      .id
  }

  /// Challenges the factor and verifies `code` for it: the raised session.
  func verify(_ session: GoTrueSession, _ factorID: String, code: String) async throws
    -> GoTrueSession
  {
    let challengeID = try challenge(session, factorID)
    return try await engine.verifyFactor(
      accessToken: session.accessToken, factorID: factorID, challengeID: challengeID,
      code: code, clientIP: Self.ip)
  }

  /// A session raised to aal2 by a new verified factor; the session, the factor and its
  /// generator.
  func aal2Session(name: String = "") async throws
    -> (session: GoTrueSession, factorID: String, totp: TOTP)
  {
    let session = try await signIn()
    let (factor, totp) = try await enroll(session, name: name)
    let raised = try await verify(session, factor.id, code: code(totp))
    return (raised, factor.id, totp)
  }

  /// The claims of `token`, checked with the engine's secret.
  func claims(_ token: String) throws -> [String: JSONValue] {
    try JSONWebToken.verify(token, secret: engine.secrets.jwt, now: Int(now))
  }

  /// The `amr` claim of `token`: its methods, newest first.
  func methods(_ token: String) -> [String] {
    guard case .array(let entries)? = try? claims(token)["amr"] else { return [] }
    return entries.compactMap { $0.objectValue?["method"]?.stringValue }
  }

  /// The `amr` claim of `token`: its timestamps, newest first.
  func methodTimes(_ token: String) -> [Double] {
    guard case .array(let entries)? = try? claims(token)["amr"] else { return [] }
    return entries.compactMap { $0.objectValue?["timestamp"]?.numberValue }
  }

  /// The GoTrue error `body` fails with.
  func error<T>(_ body: () async throws -> T) async -> GoTrueAPIError? {
    await failure(body)?.apiError
  }
}
