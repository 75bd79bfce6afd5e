import AuthFlow
import AuthFlowGoTrue
import Clocks
import Foundation
import GoTrue
import GoTrueEngine
import SavedSessions
import TestSupport
import Testing

/// Seed 004's session on the engine through the view model: its shape, its end under GoTrue's
/// session limits, and a password changed while signed in.
@MainActor
struct SessionLifeOnEngineTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  private func signedIn(_ configure: (inout EngineConfiguration) -> Void = { _ in }) async throws
    -> (AuthViewModel, EmbeddedGoTrue, MemorySessionStore)
  {
    let engine = try makeEngine(clock: clock, configure: configure)
    let store = MemorySessionStore()
    let viewModel = AuthViewModel(
      service: GoTrueAuthService(api: engine, sessions: store, clock: clock),
      now: { [clock] in clock.now })
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "TestPassword123!"
    await viewModel.submit()
    try #require(viewModel.session != nil)
    return (viewModel, engine, store)
  }

  @Test func theSessionCarriesExpiresInAndTokenTypeFromTheWire() async throws {
    let (viewModel, _, store) = try await signedIn { $0.accessTokenLifetime = 900 }
    let session = try #require(viewModel.session)
    #expect(session.expiresIn == 900)
    #expect(session.tokenType == "bearer")
    #expect(session.expiresAt == testEpoch.addingTimeInterval(900))
    #expect(store.load() == session)
  }

  @Test func aSessionPastTheTimeboxEndsOnTheChoiceScreen() async throws {
    let (viewModel, _, store) = try await signedIn { $0.sessionLimits.timebox = 24 * 3_600 }
    clock.advance(by: 25 * 3_600)
    await viewModel.renewSessionIfDue()
    #expect(viewModel.session == nil)
    #expect(viewModel.navigationState == .choice)
    #expect(viewModel.errorMessage == "Your session has expired. Please sign in again.")
    #expect(store.load() == nil)
  }

  @Test func withoutLimitsTheSessionOutlivesFourHundredDays() async throws {
    let (viewModel, _, _) = try await signedIn()
    clock.advance(by: 400 * 86_400)
    await viewModel.renewSessionIfDue()
    #expect(viewModel.session?.user.email == "test@example.com")
    #expect(viewModel.errorMessage == nil)
  }

  @Test func aChangedPasswordKeepsTheUserSignedInAndSignsInNextTime() async throws {
    let (viewModel, engine, _) = try await signedIn()
    let before = try #require(viewModel.session)
    await viewModel.changePassword(to: "BrandNew123")
    #expect(viewModel.statusBanner == .passwordChanged)
    #expect(viewModel.session?.refreshToken == before.refreshToken)
    let again = try await engine.signIn(email: "test@example.com", password: "BrandNew123")
    #expect(again.user.email == "test@example.com")
  }

  @Test func theSamePasswordIsAnsweredClearly() async throws {
    let (viewModel, _, _) = try await signedIn()
    await viewModel.changePassword(to: "TestPassword123!")
    #expect(viewModel.errorMessage == "Your new password must be different from your current one.")
    #expect(viewModel.session != nil)
  }

  @Test func aNewPasswordFollowsTheSignupRules() async throws {
    let (viewModel, _, _) = try await signedIn()
    await viewModel.changePassword(to: "short1")
    #expect(viewModel.errorMessage == "Minimum 8 characters required")
    await viewModel.changePassword(to: "nodigitshere")
    #expect(viewModel.errorMessage == "Must contain at least one number")
  }

  @Test func aSecurePasswordChangeAsksForTheEmailedCode() async throws {
    let (viewModel, engine, _) = try await signedIn {
      $0.passwordChangeNeedsReauthentication = true
    }
    // A session over a day old: the access token is renewed first, as the shell does.
    clock.advance(by: 25 * 3_600)
    await viewModel.renewSessionIfDue()
    await viewModel.changePassword(to: "BrandNew123")
    #expect(viewModel.statusBanner == .reauthenticationCodeSent)
    let mail = try #require(engine.outbox.newest(to: "test@example.com"))
    #expect(mail.kind == .reauthentication)

    viewModel.otpCode = mail.code == "000000" ? "111111" : "000000"
    await viewModel.changePassword(to: "BrandNew123")
    #expect(viewModel.errorMessage == AuthError.otpIncorrect.message)
    #expect(viewModel.otpCode.isEmpty)

    viewModel.otpCode = mail.code
    await viewModel.changePassword(to: "BrandNew123")
    #expect(viewModel.statusBanner == .passwordChanged)
    #expect(viewModel.session != nil)
  }
}
