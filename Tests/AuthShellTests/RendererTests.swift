import AuthCrypto
import AuthFlow
import AuthFlowGoTrue
import Clocks
import Foundation
import PrivateFiles
import Testing

@testable import AuthShell

/// Rendering as pure functions of state: a snapshot of each screen, as text.
@MainActor
struct RendererTests {
  let viewModel = AuthViewModel(service: UnusedService())
  let now = Date(timeIntervalSince1970: 1_735_689_600)

  private func screen(_ style: RenderStyle = .script) -> String {
    Renderer.screen(viewModel.state, label: nil, style: style, now: now).joined(separator: "\n")
  }

  @Test func choiceViewRenderedForChoiceState() {
    #expect(
      screen() == """
        Welcome
          [Sign In]                 signin
          [Create Account]          create
        """)
  }

  @Test func loginViewRenderedForLoginState() {
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "hunter2"
    viewModel.errorMessage = "That email or password looks incorrect"
    #expect(
      screen() == """
        Sign In
          Email                     test@example.com
          Password                  ••••••••
          [Sign In]                 submit    enabled
          [Forgot password?]        forgot
          [Resend confirmation]     resend
          [Autofill]                autofill
          [Back]                    back
          ✗ That email or password looks incorrect
        """)
    #expect(!screen(RenderStyle(colour: false, plain: true)).contains("hunter2"))
  }

  @Test func signupViewRenderedForSignupState() {
    viewModel.navigateToSignup()
    viewModel.email = "new@example.com"
    #expect(
      screen() == """
        Create Account
          Email                     new@example.com
          Password                  (empty)
          Confirm password          (empty)
          First name (optional)     (empty)
          Last name (optional)      (empty)
          [ ] I accept the terms    consent on|off
          [Create Account]          submit    disabled: password is empty
          [Suggest strong password] suggest-password
          [Back]                    back
        """)
    viewModel.password = "Password1"
    viewModel.confirmPassword = "Password1"
    #expect(screen().contains("disabled: accept the terms first (consent on)"))
    viewModel.updateConsent(true)
    #expect(screen().contains("[x] I accept the terms"))
    #expect(screen().contains("submit    enabled"))
  }

  @Test func resetViewsRenderedForResetStates() {
    viewModel.navigationState = .resetRequest
    viewModel.updateNetworkStatus(.offline)
    viewModel.statusBanner = .offline
    #expect(
      screen() == """
        Forgot Password
          Email                     (empty)
          [Send code]               send      disabled: offline
          [Back]                    back
          network: offline
          [warning] You're offline. Try again once you're connected.
        """)
    viewModel.updateNetworkStatus(.online)
    viewModel.navigationState = .resetVerify(pendingEmail: "test@example.com")
    viewModel.otpCode = "123456"
    #expect(
      screen() == """
        Reset Password
          If an account exists for test@example.com, we sent it a 6-digit code.
          Code                      ••••••••
          New password              (empty)
          [Reset password]          verify    disabled: password is empty
          [Back]                    back
        """)
  }

  @Test func signedInViewShowsTheAccountNotTheTokens() {
    viewModel.session = AuthSession(
      user: AuthUser(id: "u-1", email: "test@example.com", emailConfirmedAt: now),
      accessToken: "eyJ.secret.sig", refreshToken: "refresh-secret",
      expiresAt: now.addingTimeInterval(90))
    let text = screen()
    #expect(text.hasPrefix("Signed in\n  Email                     test@example.com"))
    #expect(text.contains("Session expires           in 1m 30s (2025-01-01T00:01:30Z)"))
    #expect(!text.contains("secret"))
  }

  @Test func durationsUseTheTwoLargestUnits() {
    #expect(Renderer.duration(45) == "45s")
    #expect(Renderer.duration(3_570) == "59m 30s")
    #expect(Renderer.duration(18_000) == "5h 0m")
    #expect(Renderer.duration(183_600) == "2d 3h")
    #expect(Renderer.expiry(now, now: now.addingTimeInterval(300)) == "expired 5m 0s ago")
  }

  @Test func plainStyleUsesWords() {
    viewModel.navigateToLogin()
    viewModel.errorMessage = "Password is required"
    let plain = RenderStyle(colour: false, plain: true)
    #expect(screen(plain).contains("error: Password is required"))
    #expect(!screen(plain).contains("✗"))
    #expect(plain.mask == "********")
  }

  @Test func colourOnlyWhenAsked() {
    viewModel.errorMessage = "Nope"
    #expect(screen(RenderStyle(colour: true, plain: false)).contains("\u{1B}[31m✗ Nope\u{1B}[0m"))
    #expect(!screen().contains("\u{1B}"))
  }

  @Test func promptShowsStateDetailAndFlags() {
    func prompt() -> String { Renderer.prompt(viewModel.state, label: nil, style: .script) }
    #expect(prompt() == "choice> ")
    viewModel.navigateToSignup()
    #expect(prompt() == "signup(consent off)> ")
    viewModel.updateConsent(true)
    #expect(prompt() == "signup(consent on)> ")
    viewModel.navigationState = .resetVerify(pendingEmail: "a@b.co")
    #expect(prompt() == "reset-verify(a@b.co)> ")
    viewModel.updateNetworkStatus(.offline)
    #expect(prompt() == "reset-verify(a@b.co) [offline]> ")
    viewModel.session = AuthSession(
      user: AuthUser(id: "u", email: "a@b.co"), accessToken: "a", refreshToken: "r", expiresAt: now)
    #expect(prompt() == "signed-in(a@b.co) [offline]> ")
    let coloured = Renderer.prompt(
      viewModel.state, label: nil, style: RenderStyle(colour: true, plain: false))
    #expect(
      coloured.hasPrefix("\u{1}\u{1B}[1;32m\u{1}signed-in\u{1}\u{1B}[0m\u{1}"),
      "colour is fenced for libedit")
  }

  @Test func expiriesFarOutsideAnySessionStillRender() {
    #expect(
      Renderer.expiry(Date(timeIntervalSince1970: -9_223_372_036_854_775_808), now: now)
        .hasPrefix("expired "))
    #expect(Renderer.expiry(Date(timeIntervalSince1970: 1e300), now: now).hasPrefix("in "))
  }

  @Test func tokenClaimsOutOfRangeAreShownAsSent() throws {
    let backend = try ShellBackend.embedded(
      store: .memory, configuration: .init(), seed: 1, stateDirectory: "/nonexistent")
    let session = ShellSession(backend: backend, style: .script)
    let payload = Base64URL.encode(
      Array(#"{"exp":1e300,"iat":-1e300,"n":123456789012345678901}"#.utf8))
    session.viewModel.session = AuthSession(
      user: AuthUser(id: "u", email: "a@b.co"), accessToken: "eyJhbGciOiJIUzI1NiJ9.\(payload).sig",
      refreshToken: "r", expiresAt: now)
    let lines = session.showToken()
    #expect(lines.contains("  exp: 1e+300"))
    #expect(lines.contains("  iat: -1e+300"))
    #expect(lines.contains("  n: 1.2345678901234568e+20"))
  }

  @Test func aSessionEndedByAnErrorIsToldOnce() {
    var signedIn = viewModel.state
    signedIn.navigation = .login
    signedIn.session = AuthSession(
      user: AuthUser(id: "u", email: "a@b.co"), accessToken: "a", refreshToken: "r1",
      expiresAt: now)
    var ended = signedIn
    ended.session = nil
    ended.navigation = .choice
    ended.message = .error(AuthError.sessionExpired.message)
    #expect(
      Renderer.changes(from: signedIn, to: ended, answered: true, style: .script) == [
        "→ Welcome", "✗ Your session has expired. Please sign in again.",
      ])
  }

  @Test func changesTellTransitionsSessionsAndMessages() {
    let before = viewModel.state
    viewModel.navigateToLogin()
    viewModel.statusBanner = .passwordUpdated
    viewModel.updateNetworkStatus(.offline)
    #expect(
      Renderer.changes(from: before, to: viewModel.state, answered: false, style: .script) == [
        "→ Sign In", "network: offline",
        "[success] Your password has been updated. Sign in with your new password.",
      ])
    let same = viewModel.state
    #expect(Renderer.changes(from: same, to: same, answered: false, style: .script).isEmpty)
    #expect(
      Renderer.changes(from: same, to: same, answered: true, style: .script)
        == ["[success] Your password has been updated. Sign in with your new password."])
    var signedIn = same
    signedIn.session = AuthSession(
      user: AuthUser(id: "u", email: "a@b.co"), accessToken: "a", refreshToken: "r1",
      expiresAt: now)
    #expect(
      Renderer.changes(from: same, to: signedIn, answered: false, style: .script)
        == ["✓ Signed in as a@b.co"])
    var refreshed = signedIn
    refreshed.session?.refreshToken = "r2"
    #expect(
      Renderer.changes(from: signedIn, to: refreshed, answered: false, style: .script)
        == ["✓ Session refreshed"])
    #expect(
      Renderer.changes(from: refreshed, to: same, answered: false, style: .script)
        == ["✓ Signed out"])
  }
}

/// A service for rendering tests, which never call it.
struct UnusedService: AuthService {
  func signIn(email: String, password: String) async throws(AuthError) -> AuthSession {
    throw .unknown
  }
  func signUp(_ request: SignUpRequest) async throws(AuthError) -> SignUpResult { throw .unknown }
  func requestPasswordReset(email: String) async throws(AuthError) { throw .unknown }
  func resetPassword(email: String, code: String, newPassword: String) async throws(AuthError) {
    throw .unknown
  }
  func confirmEmail(email: String, code: String) async throws(AuthError) { throw .unknown }
  func resendConfirmation(email: String) async throws(AuthError) { throw .unknown }
  func refresh(_ session: AuthSession) async throws(AuthError) -> AuthSession { throw .unknown }
  func restoreSession() async throws(AuthError) -> AuthSession? { nil }
  func signOut(_ session: AuthSession) async throws(AuthError) {}
  func forgetSession() { Issue.record("rendering forgot a session") }
  func endForgottenSession(_ session: AuthSession) async throws(AuthError) { throw .unknown }
  func updatePassword(_ session: AuthSession, newPassword: String, nonce: String?)
    async throws(AuthError) -> PasswordChangeResult
  { throw .unknown }
}
