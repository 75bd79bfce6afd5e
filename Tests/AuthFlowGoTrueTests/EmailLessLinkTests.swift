import AuthFlow
import AuthFlowGoTrue
import Clocks
import GoTrue
import GoTrueEngine
import SavedSessions
import TestSupport
import Testing

/// Seed 004's links, which carry a token and no email, opened in the app on the engine.
@MainActor
struct EmailLessLinkTests {
  let engine: EmbeddedGoTrue
  let viewModel: AuthViewModel
  let clock = AdjustableClock(fixedAt: testEpoch)

  init() throws {
    engine = try makeEngine(clock: clock) { $0.emailLinks = .app(scheme: "volvoxsober") }
    viewModel = AuthViewModel(
      service: GoTrueAuthService(api: engine, sessions: MemorySessionStore(), clock: clock))
  }

  @Test func theEmailsLinksHaveTheSeedsShapesWithATokenThatIsNotTheCode() async throws {
    try await engine.recover(email: "test@example.com")
    let message = try #require(engine.outbox.newest(to: "test@example.com"))
    let prefix = "volvoxsober://auth/forgot-password?token="
    #expect(message.link.hasPrefix(prefix) && message.link.hasSuffix("&type=recovery"))
    let token = message.link.dropFirst(prefix.count).prefix { $0 != "&" }
    #expect(token.count == 56 && !token.contains(message.code))
    #expect(!message.link.contains("email="))
  }

  @Test func aRecoveryLinkLeadsToTheNewPasswordStepOfItsAccount() async throws {
    try await engine.recover(email: "test@example.com")
    let link = try #require(engine.outbox.newest(to: "test@example.com")).link
    await viewModel.open(try AuthDeepLink(parsing: link))
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
    #expect(viewModel.statusBanner == .chooseNewPassword)
    viewModel.password = "BrandNew123"
    await viewModel.submit()
    #expect(viewModel.statusBanner == .passwordUpdated)
    _ = try await engine.signIn(email: "test@example.com", password: "BrandNew123")

    // A new password voids every pending code (as GoTrue's does): the link names none now.
    await viewModel.open(try AuthDeepLink(parsing: link))
    #expect(viewModel.errorMessage == AuthError.linkInvalid.message)
  }

  @Test func aRecoveryLinkOpenedTwiceSaysItWasUsed() async throws {
    try await engine.recover(email: "test@example.com")
    let link = try AuthDeepLink(
      parsing: try #require(engine.outbox.newest(to: "test@example.com")).link)
    await viewModel.open(link)
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
    // Another device (its own app, its own service) opens the same email's link.
    let other = AuthViewModel(
      service: GoTrueAuthService(api: engine, sessions: MemorySessionStore(), clock: clock))
    await other.open(link)
    #expect(
      other.errorMessage
        == "This reset link has already been used. Please request a new one if needed.")
  }

  @Test func aConfirmationLinkConfirmsTheAccount() async throws {
    viewModel.navigateToSignup()
    viewModel.updateConsent(true)
    viewModel.email = "newuser@example.com"
    viewModel.password = "Password123"
    viewModel.confirmPassword = "Password123"
    await viewModel.submit()
    let link = try #require(engine.outbox.newest(to: "newuser@example.com")).link
    #expect(link.hasPrefix("volvoxsober://auth/verify?token=") && link.hasSuffix("&type=signup"))
    viewModel.navigateToChoice()
    await viewModel.open(try AuthDeepLink(parsing: link + "&redirect_to=/"))
    #expect(viewModel.statusBanner == .emailConfirmed)
    _ = try await engine.signIn(email: "newuser@example.com", password: "Password123")
  }

  @Test(arguments: [
    "volvoxsober://auth/forgot-password?token=123456&type=recovery",
    "volvoxsober://auth/forgot-password?token=\(String(repeating: "0", count: 56))&type=recovery",
    "volvoxsober://auth/verify?token=123456&type=signup&redirect_to=/",
    "volvoxsober://auth/verify?token=\(String(repeating: "0", count: 56))&type=signup",
  ])
  func aLinkNoEmailSentAsksForTheLatestEmailsLink(link: String) async throws {
    await viewModel.open(try AuthDeepLink(parsing: link))
    #expect(
      viewModel.errorMessage
        == "This link is invalid or has expired. Open the link from your latest email.")
  }

  @Test func aRecoveryLinksTokenDoesNotConfirmAnAccount() async throws {
    try await engine.recover(email: "test@example.com")
    let link = try #require(engine.outbox.newest(to: "test@example.com")).link
    let confirmation = link.replacing("forgot-password", with: "verify")
      .replacing("type=recovery", with: "type=signup")
    await viewModel.open(try AuthDeepLink(parsing: confirmation))
    #expect(viewModel.errorMessage == AuthError.linkInvalid.message)
  }
}
