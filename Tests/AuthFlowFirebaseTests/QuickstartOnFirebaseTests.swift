import AuthFlow
import AuthFlowFirebase
import Clocks
import Foundation
import SavedSessions
import TestSupport
import Testing

/// Seed 002's quickstart through the view model on the Firebase backend (the emulator's
/// answers, replayed), with the reset by link that Firebase has instead of a 6-digit code.
@MainActor
struct QuickstartOnFirebaseTests {
  let transport = ReplayTransport()
  let store = MemorySessionStore()
  let clock = AdjustableClock(fixedAt: epoch)
  let viewModel: AuthViewModel

  init() {
    let client = FirebaseClient(project: emulatorProject, transport: transport)
    let service = FirebaseAuthService(client: client, sessions: store, clock: clock)
    viewModel = AuthViewModel(service: service, now: { [clock] in clock.now })
  }

  private let resetLink =
    "http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=en&oobCode=OOB-reset-1"
    + "&apiKey=fake-api-key"

  private func login(_ password: String) async {
    viewModel.navigationState = .login
    viewModel.email = "test@example.com"
    viewModel.password = password
    await viewModel.submit()
  }

  private func signUp(_ email: String, password: String = "NewPassword123!") async {
    viewModel.navigateToSignup()
    viewModel.updateConsent(true)
    viewModel.email = email
    viewModel.password = "NewPassword123!"
    viewModel.confirmPassword = password
    await viewModel.submit()
  }

  /// Scenario 3.
  @Test func loginWithValidCredentials() async {
    transport.then(signInAnswer())
    await login("TestPassword123!")
    #expect(viewModel.isLoggedIn)
    #expect(viewModel.errorMessage == nil)
    #expect(viewModel.session?.user.email == "test@example.com")
    #expect(viewModel.session?.user.emailVerified == false)
    #expect(store.load() == viewModel.session)
    #expect(transport.calls == ["accounts:signInWithPassword"])
  }

  /// Scenario 4, with the emulator's default answers and a protected project's.
  @Test(arguments: ["INVALID_PASSWORD", "EMAIL_NOT_FOUND", "INVALID_LOGIN_CREDENTIALS"])
  func loginWithInvalidCredentials(code: String) async {
    transport.then(googleError(code))
    await login("WrongPassword1")
    #expect(viewModel.errorMessage == "That email or password looks incorrect")
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.email == "test@example.com")
    #expect(viewModel.password == "WrongPassword1")
    #expect(viewModel.session == nil)
  }

  /// Scenario 6: nothing is sent.
  @Test func signupWithPasswordMismatch() async {
    await signUp("newuser@example.com", password: "Password456!")
    #expect(viewModel.errorMessage == "Passwords don't match")
    #expect(transport.requests.isEmpty)
  }

  /// Scenario 7.
  @Test func signupWithDuplicateEmail() async {
    transport.then(googleError("EMAIL_EXISTS"))
    await signUp("test@example.com")
    #expect(
      viewModel.errorMessage == "An account with this email already exists. Try logging in instead."
    )
    #expect(viewModel.navigationState == .signup(consentAccepted: true))
    #expect(viewModel.session == nil)
  }

  /// Seed 003: the new account is signed in at once and its verification email sent.
  @Test func signupSignsInAndSendsTheVerification() async {
    transport.then(signInAnswer(email: "newuser@example.com"), oobAnswer("newuser@example.com"))
    await signUp("newuser@example.com")
    #expect(viewModel.isLoggedIn)
    #expect(viewModel.statusBanner == .verificationSent)
    #expect(viewModel.session?.user.emailVerified == false)
    #expect(transport.calls == ["accounts:signUp", "accounts:sendOobCode"])
  }

  /// Scenario 11: offline, nothing is sent.
  @Test func offlineHandling() async {
    viewModel.updateNetworkStatus(.offline)
    await login("TestPassword123!")
    #expect(viewModel.statusBanner == .offline)
    #expect(transport.requests.isEmpty)
  }

  @Test func resetByLinkRequestOpenNewPassword() async throws {
    transport.then(oobAnswer())
    viewModel.navigationState = .resetRequest
    viewModel.email = "test@example.com"
    await viewModel.submit()
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
    #expect(viewModel.statusBanner == .resetLinkSent)

    await viewModel.open(try AuthDeepLink(parsing: resetLink))
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
    #expect(viewModel.otpCode == "OOB-reset-1")
    #expect(viewModel.statusBanner == .chooseNewPassword)

    transport.then(ok(#"{"requestType":"PASSWORD_RESET","email":"test@example.com"}"#))
    viewModel.password = "BrandNew123"
    await viewModel.submit()
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.statusBanner == .passwordUpdated)
    #expect(viewModel.email == "test@example.com")
    #expect(
      transport.calls == ["accounts:sendOobCode", "accounts:resetPassword"],
      "the link's code was not checked on its own: the email was known")
    #expect(transport.body(1)["oobCode"] as? String == "OOB-reset-1")
  }

  @Test func resetForAnUnknownAddressLooksTheSame() async {
    transport.then(googleError("EMAIL_NOT_FOUND"))
    viewModel.navigationState = .resetRequest
    viewModel.email = "nobody@example.com"
    await viewModel.submit()
    #expect(viewModel.errorMessage == nil)
    #expect(viewModel.statusBanner == .resetLinkSent)
  }

  @Test func aResetLinkOpenedColdAsksWhoseCodeItIs() async throws {
    transport.then(ok(#"{"requestType":"PASSWORD_RESET","email":"test@example.com"}"#))
    let link =
      "https://clarity-pulse.firebaseapp.com/__/auth/action?mode=resetPassword"
      + "&oobCode=OOB-2&apiKey=AIza"
    await viewModel.open(try AuthDeepLink(parsing: link))
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
    #expect(transport.calls == ["accounts:resetPassword"])
    #expect(transport.body(0).keys.sorted() == ["oobCode"])
  }

  @Test func aUsedResetLinkSaysSo() async throws {
    transport.then(ok(#"{"requestType":"PASSWORD_RESET","email":"test@example.com"}"#))
    await viewModel.open(try AuthDeepLink(parsing: resetLink))
    transport.then(googleError("INVALID_OOB_CODE"))
    viewModel.password = "BrandNew123"
    await viewModel.submit()
    #expect(viewModel.errorMessage == AuthError.otpRejected.message)
  }

  @Test func theVerificationLinkThenARefreshShowsTheEmailVerified() async throws {
    transport.then(signInAnswer())
    await login("TestPassword123!")
    transport.then(
      ok(#"{"localId":"uid-1","email":"test@example.com","emailVerified":true}"#),
      tokenAnswer(token: idToken(verified: true)),
      tokenAnswer(token: idToken(verified: true), refreshToken: "refresh-2b"))
    let link =
      "http://127.0.0.1:9099/emulator/action?mode=verifyEmail&lang=en&oobCode=V1"
      + "&apiKey=fake-api-key"
    // Signed in already: the link verifies, and the session on show says so at once.
    await viewModel.open(try AuthDeepLink(parsing: link))
    #expect(viewModel.statusBanner == .emailVerified)
    #expect(viewModel.session?.user.emailVerified == true)
    #expect(store.load()?.user.emailVerified == true)

    transport.then(tokenAnswer(token: idToken(verified: true), refreshToken: "refresh-3"))
    await viewModel.refreshSession()
    #expect(viewModel.session?.user.emailVerified == true)
  }

  @Test func aRevokedRefreshTokenSignsOut() async {
    transport.then(signInAnswer(), googleError("USER_NOT_FOUND"))
    await login("TestPassword123!")
    await viewModel.refreshSession()
    #expect(viewModel.session == nil)
    #expect(viewModel.errorMessage == "Your session has expired. Please sign in again.")
    #expect(store.load() == nil)
  }

  @Test func signOutForgetsTheSessionWithoutACall() async {
    transport.then(signInAnswer())
    await login("TestPassword123!")
    await viewModel.signOut()
    #expect(viewModel.session == nil)
    #expect(viewModel.navigationState == .choice)
    #expect(store.load() == nil)
    #expect(transport.calls == ["accounts:signInWithPassword"])
  }

  @Test func timeoutSaysTheNetworkIsUnavailable() async {
    transport.then(.failure(.timedOut))
    await login("TestPassword123!")
    #expect(viewModel.errorMessage == AuthError.networkUnavailable.message)
  }
}
