import AuthCrypto
import AuthFlow
import AuthFlowGoTrue
import Clocks
import Foundation
import GoTrue
import GoTrueEngine
import SavedSessions
import TestSupport
import Testing

/// The view model, the GoTrue adapter and the engine together: the quickstart on a real backend.
@MainActor
struct ViewModelOnEngineTests {
  let engine: EmbeddedGoTrue
  let viewModel: AuthViewModel
  let clock = AdjustableClock(fixedAt: testEpoch)

  init() throws {
    engine = try makeEngine(clock: clock)
    viewModel = AuthViewModel(
      service: GoTrueAuthService(api: engine, sessions: MemorySessionStore(), clock: clock))
  }

  /// `examples/03-login-valid-credentials`.
  @Test func loginWithValidCredentials() async {
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "TestPassword123!"
    await viewModel.submit()
    #expect(viewModel.session?.user.email == "test@example.com")
    #expect(viewModel.errorMessage == nil)
  }

  /// `examples/04-login-invalid-credentials`.
  @Test func loginWithInvalidCredentials() async {
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "WrongPassword"
    await viewModel.submit()
    #expect(viewModel.errorMessage == "That email or password looks incorrect")
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.password == "WrongPassword")
  }

  /// `examples/07-signup-duplicate-email`, with confirmation on (GoTrue's fake user) and off
  /// (422).
  @Test(arguments: [false, true])
  func signupWithDuplicateEmail(autoconfirm: Bool) async throws {
    let engine = try makeEngine(clock: clock) { $0.autoconfirm = autoconfirm }
    let viewModel = AuthViewModel(
      service: GoTrueAuthService(api: engine, sessions: MemorySessionStore(), clock: clock))
    viewModel.navigateToSignup()
    viewModel.updateConsent(true)
    viewModel.email = "test@example.com"
    viewModel.password = "NewPassword123!"
    viewModel.confirmPassword = "NewPassword123!"
    await viewModel.submit()
    #expect(
      viewModel.errorMessage == "An account with this email already exists. Try logging in instead."
    )
    #expect(try engine.accountCount() == 2)
  }

  @Test func resetFlowEndToEnd() async throws {
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.navigateToResetRequest()
    await viewModel.submit()
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
    #expect(viewModel.statusBanner == .resetCodeSent)

    viewModel.otpCode = try #require(engine.outbox.newest(to: "test@example.com")).code
    viewModel.password = "BrandNew123"
    await viewModel.submit()
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.email == "test@example.com")
    #expect(viewModel.statusBanner == .passwordUpdated)

    viewModel.password = "TestPassword123!"
    await viewModel.submit()
    #expect(viewModel.errorMessage == "That email or password looks incorrect", "the old one fails")
    viewModel.password = "BrandNew123"
    await viewModel.submit()
    #expect(viewModel.isLoggedIn)
  }

  @Test func expiredAndReusedResetCodesSayWhy() async throws {
    viewModel.navigationState = .resetRequest
    viewModel.email = "test@example.com"
    await viewModel.submit()
    let code = try #require(engine.outbox.newest(to: "test@example.com")).code
    clock.advance(by: 86_400)
    viewModel.otpCode = code
    viewModel.password = "BrandNew123"
    await viewModel.submit()
    #expect(viewModel.errorMessage == "This reset link has expired. Please request a new one.")
  }

  @Test func unconfirmedAccountConfirmedThroughItsLink() async throws {
    viewModel.navigateToLogin()
    viewModel.email = "unverified@example.com"
    viewModel.password = "Test1234"
    await viewModel.submit()
    #expect(viewModel.errorMessage == AuthError.emailUnverified.message)

    await viewModel.resendConfirmation()
    #expect(viewModel.statusBanner == .confirmationResent)
    let link = try #require(engine.outbox.newest(to: "unverified@example.com")).link
    await viewModel.open(try AuthDeepLink(parsing: link))
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.email == "unverified@example.com")
    #expect(viewModel.statusBanner == .emailConfirmed)

    viewModel.password = "Test1234"
    await viewModel.submit()
    #expect(viewModel.isLoggedIn)

    await viewModel.signOut()
    await viewModel.open(try AuthDeepLink(parsing: link))
    #expect(viewModel.errorMessage == "Email already verified")
  }

  @Test func newAccountConfirmsThenSignsIn() async throws {
    viewModel.navigateToSignup()
    viewModel.updateConsent(true)
    viewModel.email = "newuser@example.com"
    viewModel.password = "Password123!"
    viewModel.confirmPassword = "Password123!"
    await viewModel.submit()
    #expect(viewModel.statusBanner == .confirmationSent)

    let link = try #require(engine.outbox.newest(to: "newuser@example.com")).link
    await viewModel.open(try AuthDeepLink(parsing: link))
    viewModel.password = "Password123!"
    await viewModel.submit()
    #expect(viewModel.session?.user.email == "newuser@example.com")
  }

  @Test func sessionRestoresAcrossRunsUntilSignOut() async throws {
    let folder = NSTemporaryDirectory() + "authflow-tests-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: folder) }
    func run() throws -> AuthViewModel {
      let engine = try makeEngine(location: .file(folder + "/auth.db"), clock: clock)
      let sessions = SealedSessionFile(directory: folder + "/state", identity: folder + "/auth.db")
      return AuthViewModel(
        service: GoTrueAuthService(api: engine, sessions: sessions, clock: clock))
    }
    let first = try run()
    first.navigateToLogin()
    first.email = "test@example.com"
    first.password = "TestPassword123!"
    await first.submit()
    #expect(first.isLoggedIn)

    let second = try run()
    await second.restoreSession()
    #expect(second.session?.user.email == "test@example.com")

    clock.advance(by: 3_590)
    let third = try run()
    await third.restoreSession()
    #expect(third.isLoggedIn, "a session about to expire is refreshed")
    #expect(third.session?.accessToken != second.session?.accessToken)

    await third.signOut()
    let fourth = try run()
    await fourth.restoreSession()
    #expect(fourth.session == nil)
  }

  /// Signing out offline forgets the saved session at once (the next run restores nothing)
  /// and revokes the refresh token at the engine only once the network is back.
  @Test func signingOutOfflineRevokesTheSessionOnceOnline() async throws {
    let folder = NSTemporaryDirectory() + "authflow-tests-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let engine = try makeEngine(location: .file(folder + "/auth.db"), clock: clock)
    func service() -> GoTrueAuthService {
      let sessions = SealedSessionFile(directory: folder + "/state", identity: folder + "/auth.db")
      return GoTrueAuthService(api: engine, sessions: sessions, clock: clock)
    }
    let viewModel = AuthViewModel(service: service())
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "TestPassword123!"
    await viewModel.submit()
    let session = try #require(viewModel.session)

    viewModel.updateNetworkStatus(.offline)
    await viewModel.signOut()
    #expect(try await service().restoreSession() == nil, "the device forgot it")
    let stillValid = try await service().refresh(session)
    #expect(stillValid.user.email == "test@example.com", "the server was not told yet")

    viewModel.updateNetworkStatus(.online)
    await viewModel.sendPendingSignOuts()
    #expect(!viewModel.hasPendingSignOut)
    await #expect(throws: AuthError.sessionExpired) {
      try await service().refresh(stillValid)
    }
  }

  /// Two shells starting at once with a saved session about to expire: each opens the store on
  /// its own connection and restores; both stay signed in and the session stays valid, where a
  /// rotation racing a rotation used to count as token reuse and revoke it everywhere.
  @Test(arguments: 0..<5)
  func twoRestoresAtOnceKeepTheSession(round: Int) async throws {
    let folder = NSTemporaryDirectory() + "authflow-tests-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: folder) }
    func service() throws -> GoTrueAuthService {
      let engine = try makeEngine(location: .file(folder + "/auth.db"), clock: clock)
      let sessions = SealedSessionFile(directory: folder + "/state", identity: folder + "/auth.db")
      return GoTrueAuthService(api: engine, sessions: sessions, clock: clock)
    }
    _ = try await service().signIn(email: "test@example.com", password: "TestPassword123!")
    clock.advance(by: 3_590)
    let (a, b) = (try service(), try service())
    async let first = a.restoreSession()
    async let second = b.restoreSession()
    let sessions = try await [first, second]
    #expect(sessions.allSatisfy { $0?.user.email == "test@example.com" })
    let later = try await service().restoreSession()
    #expect(later?.user.email == "test@example.com", "the session survived the race")
    let refreshed = try await service().refresh(try #require(later))
    #expect(refreshed.refreshToken != later?.refreshToken)
  }
}
