import AuthCrypto
import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// A server's emails: GoTrue's `/verify` links with token hashes, sign-in codes, the words of
/// each email.
struct EmailLinkTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  private func serverEngine(configure: (inout EngineConfiguration) -> Void = { _ in }) throws
    -> EmbeddedGoTrue
  {
    try makeEngine(clock: clock) {
      $0.emailLinks = .server(externalURL: "http://127.0.0.1:9999")
      configure(&$0)
    }
  }

  /// The `token` parameter of `link`.
  private func token(of link: String) throws -> String {
    let components = try #require(URLComponents(string: link))
    return try #require(components.queryItems?.first { $0.name == "token" }?.value)
  }

  @Test func theTokenHashIsKeyedSoTheAddressAndAGuessedCodeCannotMakeIt() {
    // GoTrue's would be hex(sha224("a@b.c" + "123456")) (Python's hashlib gives this one).
    let gotrue = "19fc8045654795b943ae7db4b637d9ee44d1dc98644c90a3fb01fa3f"
    let key = Array(repeating: UInt8(7), count: 32)
    let hash = EmailLink.tokenHash(email: "a@b.c", code: "123456", key: key)
    #expect(hash != gotrue)
    #expect(hash.utf8.count == 56 && hash.allSatisfy(\.isHexDigit), "GoTrue's shape")
    #expect(hash == EmailLink.tokenHash(email: "a@b.c", code: "123456", key: key))
    #expect(hash != EmailLink.tokenHash(email: "a@b.c", code: "123456", key: [8] + key.dropFirst()))
    #expect(hash != EmailLink.tokenHash(email: "a@b.c1", code: "23456", key: key))
  }

  @Test func serverLinksLeadToVerifyWithTheTokenHash() async throws {
    let engine = try serverEngine()
    try await engine.recover(email: "test@example.com", redirectTo: "http://127.0.0.1:3000/reset")
    let message = try #require(engine.outbox.newest(to: "test@example.com"))
    let hash = engine.linkToken(email: "test@example.com", code: message.code)
    #expect(
      message.link
        == "http://127.0.0.1:9999/verify?token=\(hash)&type=recovery&redirect_to=http://127.0.0.1:3000/reset"
    )
    #expect(message.text.contains(message.link))
    #expect(message.text.contains("Alternatively, enter the code: \(message.code)"))
    #expect(
      message.html.contains("href=\"http://127.0.0.1:9999/verify?token=\(hash)&amp;type=recovery"))
    #expect(message.sender == engine.configuration.sender)
  }

  @Test func aRedirectOffTheSiteGoesToTheSiteInstead() async throws {
    let engine = try serverEngine()
    try await engine.recover(email: "test@example.com", redirectTo: "https://evil.example/x")
    #expect(
      try #require(engine.outbox.newest(to: "test@example.com")).link.hasSuffix(
        "redirect_to=http://127.0.0.1:3000"))
    clock.advance(by: 61)
    // Loopback may use any port; a redirect with & is escaped so it cannot end the link early.
    try await engine.recover(
      email: "test@example.com", redirectTo: "http://127.0.0.1:5173/a?b=c&d=e")
    #expect(
      try #require(engine.outbox.newest(to: "test@example.com")).link.hasSuffix(
        "redirect_to=http%3A%2F%2F127.0.0.1%3A5173%2Fa%3Fb%3Dc%26d%3De"))
  }

  @Test func aRedirectIsJudgedAsABrowserWouldReadIt() throws {
    let engine = try serverEngine()
    let site = engine.configuration.siteURL
    let allowed = [
      "http://127.0.0.1:3000/welcome", "http://127.0.0.1:3000", "http://127.0.0.1:5173/cb",
      "http://127.0.0.2:8080/", "https://127.0.0.1/x", "http://[::1]:3000/",
    ]
    for target in allowed { #expect(engine.allowedRedirect(target) == target, "\(target)") }
    let refused = [
      // A browser goes to evil.example for each of these.
      #"http://evil.example\@127.0.0.1:3000/"#, "http://evil.example@127.0.0.1:3000/",
      "http:evil.example", "http://127.0.0.1:3000.evil.example/", "https://evil.example/",
      "http://0x7f.0.0.1:3000/x", "http://127.1:3000/",
      // Only http(s) to a loopback address; not the site's host under another scheme.
      "javascript://127.0.0.1/%0aalert(1)", "ftp://127.0.0.1/", "https://localhost:3000/",
      // Text that no header may carry would burn the link.
      "http://127.0.0.1:3000/\r\nSet-Cookie: a=b", "http://127.0.0.1:3000/a b", "",
    ]
    for target in refused { #expect(engine.allowedRedirect(target) == site, "\(target)") }
    #expect(engine.allowedRedirect(nil) == site)
  }

  @Test func aBackslashRedirectOnARecoveryLinkLeadsToTheSiteWithTheSession() async throws {
    let engine = try serverEngine()
    try await engine.recover(
      email: "test@example.com", redirectTo: #"http://evil.example\@127.0.0.1:3000/"#)
    let link = try #require(engine.outbox.newest(to: "test@example.com")).link
    #expect(link.hasSuffix("&redirect_to=http://127.0.0.1:3000"))
    #expect(!link.contains("evil"))
  }

  @Test func aTokenHashVerifiesOnceForItsOwnType() async throws {
    let engine = try serverEngine()
    try await engine.recover(email: "unverified@example.com", redirectTo: nil)
    let hash = try token(of: try #require(engine.outbox.newest(to: "unverified@example.com")).link)

    let wrongType = await failure { try await engine.verifyLink(type: .signup, tokenHash: hash) }
    #expect(
      wrongType?.apiError
        == GoTrueAPIError(
          status: 403, code: .otpInvalid, message: "Email link is invalid or has expired"))

    guard case .session(let session) = try await engine.verifyLink(type: .recovery, tokenHash: hash)
    else {
      Issue.record("expected a session")
      return
    }
    #expect(session.user.email == "unverified@example.com")
    #expect(session.user.emailConfirmedAt == testEpoch, "a recovery proves the address")
    #expect(session.user.userMetadata["email_verified"] == .bool(true))

    let again = await failure { try await engine.verifyLink(type: .recovery, tokenHash: hash) }
    #expect(again?.apiError?.code == .otpAlreadyUsed)
    let unknown = await failure {
      try await engine.verifyLink(type: .recovery, tokenHash: String(repeating: "0", count: 56))
    }
    #expect(unknown?.apiError?.code == .otpInvalid)
  }

  @Test func aLinkExpiresWithItsCode() async throws {
    let engine = try serverEngine()
    try await engine.resend(type: .signup, email: "unverified@example.com", redirectTo: nil)
    let hash = try token(of: try #require(engine.outbox.newest(to: "unverified@example.com")).link)
    clock.advance(by: 86_400)
    let expired = await failure { try await engine.verifyLink(type: .email, tokenHash: hash) }
    #expect(expired?.apiError?.code == .otpExpired)
  }

  @Test(.readsSQLiteTables) func theStoreKeepsNeitherCodesNorTokenHashes() async throws {
    let engine = try serverEngine()
    try await engine.recover(email: "test@example.com", redirectTo: nil)
    let message = try #require(engine.outbox.newest(to: "test@example.com"))
    let hash = try token(of: message.link)
    let stored = try engine.rows("SELECT hex(token_hash), hex(link_hash) FROM one_time_tokens")
    for value in stored.flatMap({ $0 }) where !value.isEmpty {
      #expect(!value.lowercased().contains(hash))
      #expect(!value.contains(Array(message.code.utf8).hexString.uppercased()))
    }
  }

  @Test func aSignInCodeForAConfirmedAccountSignsIn() async throws {
    let engine = try serverEngine()
    try await engine.sendSignInCode(
      email: "test@example.com", createUser: true, data: [:], redirectTo: nil)
    let message = try #require(engine.outbox.newest(to: "test@example.com"))
    #expect(message.kind == .magicLink)
    #expect(message.subject == "Your sign-in link")
    #expect(message.link.contains("type=magiclink"))
    let session = try await engine.verify(
      type: .email, email: "test@example.com", token: message.code)
    #expect(session.user.email == "test@example.com")
  }

  @Test func aSignInCodeForANewAddressMakesAnAccountConfirmedByTheEmail() async throws {
    let engine = try serverEngine()
    try await engine.sendSignInCode(
      email: "new@example.com", createUser: true, data: ["plan": .string("pro")], redirectTo: nil)
    let message = try #require(engine.outbox.newest(to: "new@example.com"))
    #expect(message.kind == .confirmation)
    let session = try await engine.verify(
      type: .email, email: "new@example.com", token: message.code)
    #expect(session.user.userMetadata["plan"] == .string("pro"))
    #expect(session.user.emailConfirmedAt != nil)
    // The account has no password anyone knows.
    let signIn = await failure {
      try await engine.signIn(email: "new@example.com", password: "")
    }
    #expect(signIn?.apiError?.code == .invalidCredentials)
  }

  @Test func aSignInCodeRespectsCreateUserAndDisabledSignups() async throws {
    let engine = try serverEngine()
    let refused = await failure {
      try await engine.sendSignInCode(
        email: "new@example.com", createUser: false, data: [:], redirectTo: nil)
    }
    #expect(
      refused?.apiError
        == GoTrueAPIError(status: 422, code: .otpDisabled, message: "Signups not allowed for otp"))

    let closed = try serverEngine { $0.disableSignup = true }
    let disabled = await failure {
      try await closed.sendSignInCode(
        email: "new@example.com", createUser: true, data: [:], redirectTo: nil)
    }
    #expect(disabled?.apiError?.code == .signupDisabled)
    // Existing accounts still get their codes.
    try await closed.sendSignInCode(
      email: "test@example.com", createUser: true, data: [:], redirectTo: nil)
    #expect(closed.outbox.messages.count == 1)
  }

  @Test func resendTakesSignupAndEmailChangeOnly() async throws {
    let engine = try serverEngine()
    let recovery = await failure {
      try await engine.resend(type: .recovery, email: "test@example.com", redirectTo: nil)
    }
    #expect(
      recovery?.apiError?.message
        == "Missing one of these types: signup, email_change, sms, phone_change")
    // Nothing is pending, so nothing is sent, and the answer is the same.
    try await engine.resend(type: .emailChange, email: "test@example.com", redirectTo: nil)
    #expect(engine.outbox.messages.isEmpty)
  }

  @Test func theHourlyEmailBudgetIsSharedByAllAddresses() async throws {
    let engine = try serverEngine {
      $0.rateLimits.emailSent = EngineConfiguration.Budget(capacity: 2, period: 3_600)
      $0.rateLimits.email = .unlimited
    }
    try await engine.recover(email: "test@example.com", redirectTo: nil)
    try await engine.resend(type: .signup, email: "unverified@example.com", redirectTo: nil)
    let third = await failure {
      try await engine.sendSignInCode(
        email: "new@example.com", createUser: true, data: [:], redirectTo: nil)
    }
    #expect(
      third?.apiError
        == GoTrueAPIError(
          status: 429, code: .overEmailSendRateLimit, message: "email rate limit exceeded"))
    // With autoconfirm GoTrue does not count emails.
    let open = try serverEngine {
      $0.rateLimits.emailSent = EngineConfiguration.Budget(capacity: 1, period: 3_600)
      $0.autoconfirm = true
    }
    try await open.recover(email: "test@example.com", redirectTo: nil)
    try await open.recover(email: "unverified@example.com", redirectTo: nil)
    #expect(open.outbox.messages.count == 2)
  }
}
