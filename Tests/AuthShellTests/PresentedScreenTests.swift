import AuthFlow
import Foundation
import Testing

@testable import AuthShell

/// The presented page's JSON of each screen (`--present`): the terminal's labels, the seeds'
/// accessibility labels, buttons with why they are disabled, and never a secret.
@MainActor
struct PresentedScreenTests {
  let viewModel = AuthViewModel(service: UnusedService())
  let now = Date(timeIntervalSince1970: 1_735_689_600)

  private var screen: PresentedScreen {
    PresentedScreen(viewModel.state, backend: "embedded", now: now)
  }

  private func json(_ screen: PresentedScreen) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(screen), as: UTF8.self)
  }

  private func control(_ label: String, in screen: PresentedScreen) throws
    -> PresentedScreen.Control
  {
    try #require(screen.controls.first { $0.label == label }, "no \(label) on \(screen.screen)")
  }

  @Test func theChoiceScreenOffersTheQuickstartsButtons() {
    let choice = screen
    #expect(choice.screen == "choice")
    #expect(choice.title == "Welcome")
    #expect(choice.fields.isEmpty)
    #expect(choice.controls.map(\.label) == ["Sign In", "Create Account"])
    #expect(choice.controls.map(\.command) == ["signin", "create"])
    #expect(
      choice.controls.map(\.spoken.hint) == [
        "Opens the sign-in form.", "Opens the form to create an account.",
      ])
    #expect(choice.controls.allSatisfy { $0.enabled })
    #expect(choice.message == nil && !choice.offline && choice.session == nil)
  }

  @Test func theSignInScreenMasksThePasswordAndLinksForgotPassword() throws {
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "hunter2-secret"
    let login = screen
    #expect(login.title == "Sign In")
    #expect(login.fields.map(\.label) == ["Email", "Password"])
    #expect(login.fields.map(\.spoken.label) == ["Email address", "Password"])
    #expect(login.fields.map(\.spoken.trait) == ["text field", "secure text field"])
    #expect(login.fields.map(\.value) == ["test@example.com", Redaction.mask])
    #expect(login.fields.map(\.secret) == [false, true])
    let forgot = try control("Forgot password?", in: login)
    #expect(forgot.link && !forgot.primary && forgot.command == "forgot")
    let submit = try control("Sign In", in: login)
    #expect(submit.primary && submit.enabled && submit.reason == nil)
    #expect(submit.spoken.hint == "Signs in with the email address and password.")
    let text = try json(login)
    #expect(!text.contains("hunter2"))
  }

  @Test func theSubmitButtonSaysWhyItIsDisabled() throws {
    viewModel.navigateToLogin()
    #expect(try control("Sign In", in: screen).reason == "email is empty")
    #expect(try control("Sign In", in: screen).enabled == false)
    viewModel.email = "test@example.com"
    viewModel.password = "x"
    viewModel.updateNetworkStatus(.offline)
    let offline = screen
    #expect(offline.offline)
    #expect(try control("Sign In", in: offline).reason == "offline")
    // Only the submit button depends on the form.
    #expect(try control("Forgot password?", in: offline).enabled)
  }

  @Test func theSignupScreenHasConfirmPasswordAndTheConsentSwitch() throws {
    viewModel.navigateToSignup()
    viewModel.email = "ada@example.com"
    viewModel.password = "Analytical1"
    viewModel.confirmPassword = "Analytical1"
    var signup = screen
    #expect(signup.title == "Create Account")
    #expect(signup.fields.map(\.label).prefix(3) == ["Email", "Password", "Confirm password"])
    #expect(signup.fields[2].spoken.label == "Confirm password")
    #expect(signup.fields[2].value == Redaction.mask)
    let consent = try #require(signup.consent)
    #expect(consent.label == "I accept the terms" && !consent.on)
    #expect(consent.spoken.label == "Consent" && consent.spoken.trait == "switch")
    let submit = try control("Create Account", in: signup)
    #expect(!submit.enabled && submit.reason == "accept the terms first (consent on)")
    viewModel.updateConsent(true)
    signup = screen
    #expect(signup.consent?.on == true)
    #expect(try control("Create Account", in: signup).enabled)
    let text = try json(signup)
    #expect(!text.contains("Analytical1"))
  }

  @Test func theResetFormSaysWhereTheCodeWentAndMasksIt() throws {
    viewModel.navigationState = .resetVerify(pendingEmail: "ada@example.com")
    viewModel.otpCode = "123456"
    viewModel.password = "BrandNew123"
    let reset = screen
    #expect(reset.title == "Reset Password")
    #expect(reset.note == "If an account exists for ada@example.com, we sent it a 6-digit code.")
    #expect(reset.fields.map(\.label) == ["Code", "New password"])
    #expect(reset.fields.map(\.spoken.label) == ["Reset code", "New password"])
    #expect(reset.fields.map(\.value) == [Redaction.mask, Redaction.mask])
    let text = try json(reset)
    #expect(!text.contains("123456") && !text.contains("BrandNew123"))
  }

  @Test func messagesKeepTheirKindAndAnnouncement() throws {
    viewModel.navigateToLogin()
    viewModel.errorMessage = "That email or password looks incorrect"
    #expect(
      screen.message
        == PresentedScreen.Message(
          kind: "error", text: "That email or password looks incorrect",
          announcement: "Error: That email or password looks incorrect"))
    viewModel.statusBanner = .offline
    #expect(screen.message?.kind == "warning")
    #expect(screen.message?.announcement == "Warning: \(AuthBanner.offline.message)")
    viewModel.statusBanner = .emailConfirmed
    #expect(screen.message?.kind == "success")
  }

  @Test func theSignedInScreenShowsTheUserNeverTheTokens() throws {
    viewModel.session = AuthSession(
      user: AuthUser(id: "u-1", email: "test@example.com", emailConfirmedAt: now),
      accessToken: "access-token-secret", refreshToken: "refresh-token-secret",
      expiresAt: now.addingTimeInterval(3_600))
    let signedIn = screen
    #expect(signedIn.screen == "signed-in")
    #expect(signedIn.title == "Signed in")
    #expect(signedIn.fields.isEmpty && signedIn.consent == nil)
    let rows = try #require(signedIn.session)
    #expect(rows.map(\.label) == ["Email", "User ID", "Email confirmed", "Session expires"])
    #expect(rows[0].value == "test@example.com" && rows[1].value == "u-1")
    #expect(rows[3].value.hasPrefix("in 1h 0m"))
    #expect(signedIn.controls.map(\.label).contains("Sign out"))
    let text = try json(signedIn)
    #expect(!text.contains("token-secret"))
  }

  @Test func theScreensLabelsAreTheTerminalsOwn() {
    // The page and `show` read the same words: every button and field label on the terminal's
    // screen is one the page shows.
    viewModel.navigateToSignup()
    let terminal = Renderer.screen(viewModel.state, label: nil, style: .script, now: now)
      .joined(separator: "\n")
    let page = screen
    let labels = page.fields.map(\.label) + page.controls.map { "[\($0.label)]" }
    for label in labels {
      #expect(terminal.contains(label), "\(label) is not on the terminal's screen")
    }
    #expect(terminal.contains(page.consent?.label ?? "?"))
  }
}
