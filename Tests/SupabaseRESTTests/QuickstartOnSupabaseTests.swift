import AuthFlow
import AuthFlowGoTrue
import Clocks
import Foundation
import GoTrue
import HTTPClient
import SavedSessions
import SupabaseREST
import TestSupport
import Testing

/// The quickstart through the view model on the Supabase backend, with replayed answers.
@MainActor
struct QuickstartOnSupabaseTests {
  let transport = ReplayTransport()
  let store = MemorySessionStore()
  let clock = AdjustableClock(fixedAt: Date(timeIntervalSince1970: 1_735_689_600))
  let viewModel: AuthViewModel

  init() {
    let client = SupabaseGoTrueClient(project: testProject, transport: transport)
    viewModel = AuthViewModel(
      service: GoTrueAuthService(api: client, sessions: store, clock: clock))
  }

  private func login(_ password: String) async {
    viewModel.navigationState = .login
    viewModel.email = "test@example.com"
    viewModel.password = password
    await viewModel.submit()
  }

  @Test func signInKeepsTheSession() async {
    transport.then(reply(200, "session.json"))
    await login("TestPassword123!")
    #expect(viewModel.session?.user.email == "test@example.com")
    #expect(viewModel.session?.user.emailConfirmedAt != nil)
    #expect(viewModel.session?.expiresAt == Date(timeIntervalSince1970: 1_735_693_200))
    #expect(store.load() == viewModel.session)
    #expect(transport.calls == ["POST /token?grant_type=password"])
  }

  @Test func wrongPassword() async {
    transport.then(reply(400, "error-invalid-credentials.json"))
    await login("WrongPassword")
    #expect(viewModel.errorMessage == "That email or password looks incorrect")
    #expect(viewModel.session == nil)
  }

  private func signUp(_ email: String) async {
    viewModel.navigateToSignup()
    viewModel.updateConsent(true)
    viewModel.email = email
    viewModel.password = "NewPassword123!"
    viewModel.confirmPassword = "NewPassword123!"
    await viewModel.submit()
  }

  @Test func duplicateSignupByEmptyIdentities() async {
    transport.then(reply(200, "user-repeated-signup.json"))
    await signUp("test@example.com")
    #expect(
      viewModel.errorMessage == "An account with this email already exists. Try logging in instead."
    )
  }

  @Test func newSignupWaitsForConfirmation() async {
    transport.then(reply(200, "user-unconfirmed.json"))
    await signUp("newuser@example.com")
    #expect(viewModel.statusBanner == .confirmationSent)
  }

  @Test func resetRequestVerifyNewPassword() async throws {
    transport.then(
      .response(HTTPResponse(status: 200, body: Data("{}".utf8))), reply(200, "session.json"),
      reply(200, "user.json"), .response(HTTPResponse(status: 204)))
    viewModel.navigationState = .resetRequest
    viewModel.email = "test@example.com"
    await viewModel.submit()
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))

    viewModel.otpCode = "123456"
    viewModel.password = "BrandNew123"
    await viewModel.submit()
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.statusBanner == .passwordUpdated)
    #expect(
      transport.calls == [
        "POST /recover", "POST /verify", "PUT /user", "POST /logout?scope=local",
      ])
    let update = try #require(transport.requests.first { $0.method == "PUT" })
    #expect(
      update.headers.contains(HTTPRequest.Header("Authorization", "Bearer " + sessionToken())))
    #expect(store.load() == nil)
  }

  @Test func offlineSignOutStillForgetsTheSession() async {
    transport.then(reply(200, "session.json"), .failure(.unreachable("Network is unreachable")))
    await login("TestPassword123!")
    await viewModel.signOut()
    #expect(viewModel.session == nil)
    #expect(store.load() == nil)
  }

  @Test func refreshAndARevokedRefreshToken() async {
    transport.then(reply(200, "session.json"), reply(200, "session-refreshed.json"))
    await login("TestPassword123!")
    await viewModel.refreshSession()
    #expect(viewModel.session?.refreshToken == "k9Pq2mW7sT4e")
    transport.then(reply(400, "error-refresh-token-already-used.json"))
    await viewModel.refreshSession()
    #expect(viewModel.session == nil)
    #expect(viewModel.errorMessage == "Your session has expired. Please sign in again.")
    #expect(store.load() == nil)
  }

  @Test func timeoutSaysTheNetworkIsUnavailable() async {
    transport.then(.failure(.timedOut))
    await login("TestPassword123!")
    #expect(viewModel.errorMessage == AuthError.networkUnavailable.message)
  }

  private func sessionToken() -> String {
    let session = try? GoTrueCoding.decoder().decode(
      GoTrueSession.self, from: fixture("session.json"))
    return session?.accessToken ?? ""
  }
}
