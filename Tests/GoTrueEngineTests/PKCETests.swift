import AuthCrypto
import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// PKCE for emailed flows: flow states, `pkce_` links, auth codes and their exchange.
struct PKCETests {
  let clock = AdjustableClock(fixedAt: testEpoch)
  static let verifier = "a-verifier-of-forty-three-or-more-characters-0123456789"
  static let challenge = PKCEChallenge(
    challenge: Base64URL.encode(SHA256.hash(verifier)), method: .s256)

  /// An engine whose links lead to a server's `/verify`, as `authflow serve` makes them.
  func makeServerEngine() throws -> EmbeddedGoTrue {
    try makeEngine(clock: clock) { $0.emailLinks = .server(externalURL: "http://127.0.0.1:9999") }
  }

  /// The `token` of the newest link sent to `address`.
  func linkToken(_ engine: EmbeddedGoTrue, to address: String) throws -> String {
    let link = try #require(engine.outbox.newest(to: address)?.link)
    return try #require(
      URLComponents(string: link)?.queryItems?.first { $0.name == "token" }?.value)
  }

  @Test(.readsSQLiteTables) func aPKCESignUpsLinkGivesACodeThatTheVerifierExchangesOnce()
    async throws
  {
    let engine = try makeServerEngine()
    _ = try await engine.signUp(
      email: "ada@example.com", password: "secret123", data: [:], redirectTo: nil,
      pkce: Self.challenge)
    let token = try linkToken(engine, to: "ada@example.com")
    #expect(token.hasPrefix("pkce_"))

    let outcome = try await engine.verifyLink(type: .signup, tokenHash: token, inBrowser: true)
    guard case .authorizationCode(let code) = outcome else {
      Issue.record("expected an auth code, got \(outcome)")
      return
    }
    #expect(UUIDText.isValid(code))
    #expect(
      try engine.rows("SELECT count(*) FROM flow_states WHERE auth_code_hash IS NOT NULL")[0][0]
        == "1")
    #expect(
      try engine.rows("SELECT count(*) FROM flow_states WHERE instr(code_challenge, '\(code)')")[0][
        0]
        == "0", "the code itself is not stored")

    let wrong = await failure {
      try await engine.exchangeAuthCode(code, verifier: "x" + Self.verifier)
    }
    #expect(
      wrong?.apiError
        == GoTrueAPIError(
          status: 400, code: .badCodeVerifier,
          message: "code challenge does not match previously saved code verifier"))
    let session = try await engine.exchangeAuthCode(code, verifier: Self.verifier)
    #expect(session.user.email == "ada@example.com")
    #expect(session.user.emailConfirmedAt != nil)
    let claims = try JSONWebToken.verify(session.accessToken, secret: engine.secrets.jwt, now: nil)
    #expect(claims["amr"]?.arrayValue?.first?.objectValue?["method"] == .string("email/signup"))

    let again = await failure { try await engine.exchangeAuthCode(code, verifier: Self.verifier) }
    #expect(
      again?.apiError
        == GoTrueAPIError(
          status: 404, code: .flowStateNotFound,
          message: "invalid flow state, no valid flow state found"))
  }

  @Test func aPKCELinkWithoutItsPrefixIsNoLinkAtAll() async throws {
    let engine = try makeServerEngine()
    try await engine.recover(email: "test@example.com", redirectTo: nil, pkce: Self.challenge)
    let token = try linkToken(engine, to: "test@example.com")
    let bare = String(token.dropFirst("pkce_".count))
    let refused = await failure {
      try await engine.verifyLink(type: .recovery, tokenHash: bare, inBrowser: true)
    }
    #expect(refused?.apiError?.code == .otpInvalid)
    // The token as sent, posted to /verify, signs in as GoTrue's POST /verify does.
    let posted = try await engine.verifyLink(type: .recovery, tokenHash: token)
    guard case .session(let session) = posted else {
      Issue.record("expected a session, got \(posted)")
      return
    }
    #expect(session.user.email == "test@example.com")
  }

  @Test func theSixDigitCodeOfAPKCEFlowStillSignsIn() async throws {
    let engine = try makeServerEngine()
    try await engine.sendSignInCode(
      email: "test@example.com", createUser: false, data: [:], redirectTo: nil,
      pkce: Self.challenge)
    let code = try #require(engine.outbox.newest(to: "test@example.com")).code
    let session = try await engine.verify(type: .magiclink, email: "test@example.com", token: code)
    #expect(session.user.email == "test@example.com")
  }

  @Test func aFlowStateExpiresFromItsStartAndAMagicLinksFromItsCode() async throws {
    let engine = try makeServerEngine()
    try await engine.recover(email: "test@example.com", redirectTo: nil, pkce: Self.challenge)
    let recovery = try linkToken(engine, to: "test@example.com")
    clock.advance(by: 301)
    guard
      case .authorizationCode(let late) = try await engine.verifyLink(
        type: .recovery, tokenHash: recovery, inBrowser: true)
    else {
      Issue.record("expected an auth code")
      return
    }
    let expired = await failure { try await engine.exchangeAuthCode(late, verifier: Self.verifier) }
    #expect(
      expired?.apiError
        == GoTrueAPIError(
          status: 422, code: .flowStateExpired,
          message: "invalid flow state, flow state has expired"))

    clock.advance(by: 61)
    try await engine.sendSignInCode(
      email: "test@example.com", createUser: false, data: [:], redirectTo: nil,
      pkce: Self.challenge)
    let magic = try linkToken(engine, to: "test@example.com")
    clock.advance(by: 301)
    guard
      case .authorizationCode(let code) = try await engine.verifyLink(
        type: .magiclink, tokenHash: magic, inBrowser: true)
    else {
      Issue.record("expected an auth code")
      return
    }
    clock.advance(by: 299)
    _ = try await engine.exchangeAuthCode(code, verifier: Self.verifier)
  }

  @Test func aPlainChallengeIsTheVerifierItself() async throws {
    let engine = try makeServerEngine()
    let plain = PKCEChallenge(challenge: Self.verifier, method: .plain)
    try await engine.recover(email: "test@example.com", redirectTo: nil, pkce: plain)
    let token = try linkToken(engine, to: "test@example.com")
    guard
      case .authorizationCode(let code) = try await engine.verifyLink(
        type: .recovery, tokenHash: token, inBrowser: true)
    else {
      Issue.record("expected an auth code")
      return
    }
    let hashed = await failure {
      try await engine.exchangeAuthCode(code, verifier: Self.challenge.challenge)
    }
    #expect(hashed?.apiError?.code == .badCodeVerifier)
    _ = try await engine.exchangeAuthCode(code, verifier: Self.verifier)
  }

  @Test(.readsSQLiteTables) func aLinkWhoseFlowStateIsGoneIsNotSpent() async throws {
    let engine = try makeServerEngine()
    try await engine.recover(email: "test@example.com", redirectTo: nil, pkce: Self.challenge)
    let token = try linkToken(engine, to: "test@example.com")
    _ = try engine.rows("DELETE FROM flow_states")
    let missing = await failure {
      try await engine.verifyLink(type: .recovery, tokenHash: token, inBrowser: true)
    }
    #expect(
      missing?.apiError
        == GoTrueAPIError(
          status: 400, code: .flowStateNotFound,
          message: "No associated flow state found. No valid flow state found for user."))
    #expect(
      try engine.rows("SELECT count(*) FROM one_time_tokens WHERE used_at IS NULL")[0][0] == "1")
  }

  @Test func aPKCEEmailChangeGivesItsCodeOnceBothAddressesConfirm() async throws {
    let engine = try makeServerEngine()
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    _ = try await engine.updateUser(
      GoTrueUserAttributes(email: "new@example.com"), accessToken: session.accessToken,
      pkce: Self.challenge)
    let new = try linkToken(engine, to: "new@example.com")
    let current = try linkToken(engine, to: "test@example.com")
    #expect(new.hasPrefix("pkce_") && current.hasPrefix("pkce_"))
    let first = try await engine.verifyLink(type: .emailChange, tokenHash: new, inBrowser: true)
    #expect(first == .emailChangePending(message: GoTrueVerifyOutcome.otherAddressMustConfirm))
    guard
      case .authorizationCode(let code) = try await engine.verifyLink(
        type: .emailChange, tokenHash: current, inBrowser: true)
    else {
      Issue.record("expected an auth code")
      return
    }
    let changed = try await engine.exchangeAuthCode(code, verifier: Self.verifier)
    #expect(changed.user.email == "new@example.com")
  }
}
