import AuthFlow
import AuthFlowGoTrue
import Clocks
import Foundation
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

    // The link that reset the password was used (seed 004's message), and the form that asks
    // for a new one has its address.
    viewModel.navigateToResetRequest()
    await viewModel.open(try AuthDeepLink(parsing: link))
    #expect(
      viewModel.errorMessage
        == "This reset link has already been used. Please request a new one if needed.")
    #expect(viewModel.navigationState == .resetRequest)
    #expect(viewModel.email == "test@example.com")
    clock.advance(by: 61)  // past the email interval since the first link
    await viewModel.submit()
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
  }

  @Test func aSecondPasswordChangeLeavesAnEarlierLinkUsedNotUnknown() async throws {
    try await engine.recover(email: "test@example.com")
    let link = try #require(engine.outbox.newest(to: "test@example.com")).link
    await viewModel.open(try AuthDeepLink(parsing: link))
    viewModel.password = "BrandNew123"
    await viewModel.submit()
    // Signed in, the user changes the password again: codes still pending go, spent ones stay.
    let session = try await engine.signIn(email: "test@example.com", password: "BrandNew123")
    _ = try await engine.updatePassword("Another123", accessToken: session.accessToken, nonce: nil)
    #expect(await engine.recipient(ofLinkTokenHash: try tokenHash(of: link)) == "test@example.com")
    await viewModel.open(try AuthDeepLink(parsing: link))
    #expect(viewModel.errorMessage == AuthError.otpAlreadyUsed.message)
  }

  @Test func anExpiredConfirmationLinkKeepsItsAddressToResend() async throws {
    _ = try await engine.signUp(email: "late@example.com", password: "Password123", data: [:])
    let link = try #require(engine.outbox.newest(to: "late@example.com")).link
    clock.advance(by: 25 * 3_600)
    await viewModel.open(try AuthDeepLink(parsing: link))
    #expect(viewModel.errorMessage == AuthError.confirmationExpired.message)
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.email == "late@example.com")
    await viewModel.resendConfirmation()
    #expect(viewModel.statusBanner == .confirmationResent)
    #expect(engine.outbox.messages.filter { $0.recipient == "late@example.com" }.count == 2)
  }

  @Test func aUsedConfirmationLinkSaysTheEmailIsVerifiedAndKeepsItsAddress() async throws {
    _ = try await engine.signUp(email: "twice@example.com", password: "Password123", data: [:])
    let link = try AuthDeepLink(
      parsing: try #require(engine.outbox.newest(to: "twice@example.com")).link)
    await viewModel.open(link)
    #expect(viewModel.statusBanner == .emailConfirmed)
    viewModel.navigateToChoice()
    await viewModel.open(link)
    #expect(viewModel.errorMessage == "Email already verified")
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.email == "twice@example.com")
  }

  private func tokenHash(of link: String) throws -> String {
    let query = try #require(URLComponents(string: link)?.queryItems)
    return try #require(query.first { $0.name == "token" }?.value)
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
    #expect(other.navigationState == .resetRequest)
    #expect(other.email == "test@example.com", "the link's address, to ask for a new one")
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
