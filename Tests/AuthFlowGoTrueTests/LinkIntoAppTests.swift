import AuthFlow
import AuthFlowGoTrue
import Clocks
import Foundation
import GoTrue
import GoTrueEngine
import SavedSessions
import TestSupport
import Testing

/// Seed 004's app asks for its confirmation links back into it (`emailRedirectTo:
/// 'volvoxsober://auth/verify'`): the email's link goes to the server's `GET /verify`, which
/// sends the browser on into the app with the session, and the app signs in with it.
@MainActor
struct LinkIntoAppTests {
  let clock = AdjustableClock(fixedAt: testEpoch)
  let engine: EmbeddedGoTrue
  let viewModel: AuthViewModel

  init() throws {
    let allowed = try RedirectPattern("volvoxsober://auth/*")
    engine = try makeEngine(clock: clock) {
      $0.emailLinks = .server(externalURL: "http://localhost:9999")
      $0.redirectAllowList = [allowed]
    }
    viewModel = AuthViewModel(
      service: GoTrueAuthService(
        api: engine, sessions: MemorySessionStore(), clock: clock,
        redirects: .app(scheme: "volvoxsober")))
  }

  private func signUp(_ email: String) async {
    viewModel.navigateToSignup()
    viewModel.updateConsent(true)
    viewModel.email = email
    viewModel.password = "Hopper1906"
    viewModel.confirmPassword = "Hopper1906"
    await viewModel.submit()
  }

  /// The token of the newest link mailed to `email`, and where it asks to lead.
  private func link(to email: String) throws -> (token: String, redirect: String?) {
    let message = try #require(engine.outbox.newest(to: email))
    let items = try #require(URLComponents(string: message.link)?.queryItems)
    let token = try #require(items.first { $0.name == "token" }?.value)
    return (token, items.first { $0.name == "redirect_to" }?.value)
  }

  /// What the server's `GET /verify` hands the app for `token`.
  private func landing(_ token: String) async throws -> LinkTokens {
    guard
      case .session(let session) = try await engine.verifyLink(
        type: .signup, tokenHash: token, inBrowser: true)
    else { throw CancellationError() }
    return LinkTokens(
      accessToken: session.accessToken, refreshToken: session.refreshToken,
      expiresIn: session.expiresIn, expiresAt: session.expiresAt, type: "signup")
  }

  @Test func theConfirmationLinkLeadsIntoTheAppWhichSignsInWithItsSession() async throws {
    await signUp("grace@example.com")
    let (token, redirect) = try link(to: "grace@example.com")
    #expect(redirect == "volvoxsober://auth/verify")
    await viewModel.open(.signedIn(try await landing(token)))
    #expect(viewModel.session?.user.email == "grace@example.com")
    #expect(viewModel.session?.user.emailVerified == true)
    #expect(viewModel.statusBanner == .emailVerified)
    #expect(viewModel.errorMessage == nil)
    // The session is a real one: it renews.
    #expect(await viewModel.renewSessionIfDue(margin: .infinity) == nil)
    #expect(viewModel.session?.user.email == "grace@example.com")
  }

  @Test func tokensTheServerDoesNotAcceptSignNobodyIn() async {
    let forged = LinkTokens(
      accessToken: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", refreshToken: "r",
      expiresIn: 3_600, type: "signup")
    await viewModel.open(.signedIn(forged))
    #expect(viewModel.session == nil)
    #expect(viewModel.errorMessage == AuthError.linkInvalid.message)
    #expect(viewModel.navigationState == .login)
  }

  @Test func aRefusedLinkPointsToTheLatestEmailAndKeepsTheTypedAddress() async {
    viewModel.navigateToLogin()
    viewModel.email = "Grace@Example.com"
    await viewModel.open(.refused(errorCode: "otp_expired"))
    #expect(viewModel.errorMessage == AuthError.linkInvalid.message)
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.email == "grace@example.com")
    #expect(viewModel.session == nil)
  }

  @Test func aRedirectTheServerDoesNotAllowFallsBackToTheSiteURL() async throws {
    let engine = try makeEngine(clock: clock) {
      $0.emailLinks = .server(externalURL: "http://localhost:9999")
    }
    let viewModel = AuthViewModel(
      service: GoTrueAuthService(
        api: engine, sessions: MemorySessionStore(), clock: clock,
        redirects: .app(scheme: "volvoxsober")))
    viewModel.navigateToSignup()
    viewModel.updateConsent(true)
    viewModel.email = "ada@example.com"
    viewModel.password = "Analytical1"
    viewModel.confirmPassword = "Analytical1"
    await viewModel.submit()
    let message = try #require(engine.outbox.newest(to: "ada@example.com"))
    #expect(message.link.hasSuffix("&redirect_to=\(engine.configuration.siteURL)"))
  }
}
