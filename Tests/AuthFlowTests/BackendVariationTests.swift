import AuthFlow
import Testing

/// What the backend states and the flow follows: Firebase signs new users in at once while
/// their email waits to be verified, and its reset codes only travel in links.
@MainActor
struct BackendVariationTests {
  let viewModel: AuthViewModel
  let service: MockAuthService
  let log: EventLog

  init() {
    (viewModel, service, log) = makeViewModel()
  }

  /// A view model on a backend whose reset codes come in links (Firebase).
  private func linkBackend() -> AuthViewModel {
    service.resetCodeFormat = .link
    return AuthViewModel(service: service)
  }

  @Test func signupSignedInPendingConfirmationSignsInAndSaysToCheckTheEmail() async {
    let session = makeSession(email: "new@example.com")
    service.stubSignUp(.success(.signedInPendingConfirmation(session)))
    viewModel.navigationState = .signup(consentAccepted: true)
    viewModel.email = "new@example.com"
    viewModel.password = "Password123"
    viewModel.confirmPassword = "Password123"

    await viewModel.submit()

    #expect(viewModel.session == session)
    #expect(viewModel.statusBanner == .verificationSent)
    #expect(viewModel.password == "" && viewModel.confirmPassword == "")
    #expect(SignUpResult.signedInPendingConfirmation(session).session == session)
    #expect(SignUpResult.confirmationRequired.session == nil)
  }

  @Test func aSignupWhoseVerificationEmailFailedSaysSo() async {
    let session = makeSession(email: "new@example.com")
    service.stubSignUp(.success(.signedInVerificationNotSent(session)))
    viewModel.navigationState = .signup(consentAccepted: true)
    viewModel.email = "new@example.com"
    viewModel.password = "Password123"
    viewModel.confirmPassword = "Password123"

    await viewModel.submit()

    #expect(viewModel.session == session)
    #expect(viewModel.statusBanner == .verificationNotSent)
    #expect(SignUpResult.signedInVerificationNotSent(session).session == session)
  }

  @Test func aLinkBackendSaysALinkIsOnItsWay() async {
    let viewModel = linkBackend()
    service.stubPasswordReset(.success(()))
    viewModel.navigationState = .resetRequest
    viewModel.email = "test@example.com"

    await viewModel.submit()

    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
    #expect(viewModel.statusBanner == .resetLinkSent)
  }

  @Test func aLinkCodeKeepsItsDashesAndNeedsTheLink() async {
    let viewModel = linkBackend()
    service.stubResetPassword(.success(()))
    viewModel.navigationState = .resetVerify(pendingEmail: "test@example.com")
    viewModel.password = "NewPassword123"

    await viewModel.submit()
    #expect(viewModel.errorMessage == "Open the reset link from your email to fill in its code")
    #expect(service.calls.isEmpty)

    viewModel.otpCode = " Ab-c_12 "
    await viewModel.submit()
    #expect(
      service.calls == [
        .resetPassword(email: "test@example.com", code: "Ab-c_12", newPassword: "NewPassword123")
      ])
    #expect(viewModel.statusBanner == .passwordUpdated)
  }

  @Test(arguments: [
    ("Ab-c_12", ResetCodeFormat.link, nil),
    ("", .link, ValidationIssue.linkCodeInvalid),
    ("a b", .link, .linkCodeInvalid),
    (String(repeating: "x", count: 1_025), .link, .linkCodeInvalid),
    ("123 456", .sixDigits, nil),
    ("Ab-c_12", .sixDigits, .codeInvalid),
    (String(repeating: "a1", count: 28), .sixDigits, nil),
    (String(repeating: "g1", count: 28), .sixDigits, .codeInvalid),
  ])
  func codesAreCheckedInTheBackendsFormat(
    code: String, format: ResetCodeFormat, issue: ValidationIssue?
  ) {
    #expect(AuthValidation.checkCode(code, format: format) == issue)
  }

  @Test func aFirebaseResetLinkContinuesTheResetOnScreen() async {
    viewModel.navigationState = .resetVerify(pendingEmail: "test@example.com")
    let link = try? AuthDeepLink(
      parsing: "http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=en&oobCode=X-1_y"
        + "&apiKey=fake-api-key")

    await viewModel.open(link!)

    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
    #expect(viewModel.otpCode == "X-1_y")
    #expect(viewModel.statusBanner == .chooseNewPassword)
    #expect(service.calls.isEmpty)
  }

  @Test func aFirebaseResetLinkOpenedColdAsksWhoseCodeItIs() async {
    service.stubEmailForResetCode(.success("test@example.com"))
    let link = try? AuthDeepLink(
      parsing: "https://demo-app.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=K9")

    await viewModel.open(link!)

    #expect(service.calls == [.emailForResetCode("K9")])
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
    #expect(viewModel.otpCode == "K9")
    #expect(viewModel.statusBanner == .chooseNewPassword, "the banner survives the lookup")
    #expect(viewModel.errorMessage == nil)
  }

  @Test func aRejectedFirebaseResetLinkSaysWhyWhereANewOneIsAskedFor() async {
    service.stubEmailForResetCode(.failure(.otpExpired))
    service.stubRecipient(nil)
    let link = try? AuthDeepLink(
      parsing: "http://[::1]:9099/emulator/action?mode=resetPassword&oobCode=old")

    await viewModel.open(link!)

    #expect(viewModel.errorMessage == AuthError.otpExpired.message)
    #expect(viewModel.navigationState == .resetRequest)
    #expect(viewModel.email == "", "the backend could not tell whose it was")
  }

  @Test func aUsedResetLinkSaysSoAndKeepsItsAddressForANewOne() async {
    service.stubEmailForResetCode(.failure(.otpAlreadyUsed))
    service.stubRecipient("ada@example.com")

    await viewModel.open(.recovery(email: "", code: "spent-link-token"))

    #expect(
      viewModel.errorMessage
        == "This reset link has already been used. Please request a new one if needed.")
    #expect(viewModel.navigationState == .resetRequest)
    #expect(viewModel.email == "ada@example.com")
    #expect(viewModel.canSubmit, "send asks for a new link at once")
  }

  @Test func aUsedOrExpiredConfirmationLinkKeepsItsAddressForSignInAndResend() async {
    for error in [AuthError.emailAlreadyConfirmed, .confirmationExpired] {
      viewModel.navigateToChoice()
      service.stubConfirmEmail(.failure(error))
      service.stubRecipient("ada@example.com")

      await viewModel.open(.confirmation(email: "", code: "spent-link-token"))

      #expect(viewModel.errorMessage == error.message)
      #expect(viewModel.navigationState == .login)
      #expect(viewModel.email == "ada@example.com")
    }
  }

  @Test func firebaseLinksParse() throws {
    #expect(
      try AuthDeepLink(
        parsing: "http://127.0.0.1:9099/emulator/action?mode=verifyEmail&oobCode=V1&apiKey=k")
        == .confirmation(email: "", code: "V1"))
    #expect(
      try AuthDeepLink(
        parsing: "https://a.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=R"
          + "&email=Ada@Example.com")
        == .recovery(email: "ada@example.com", code: "R"))
  }

  @Test(arguments: [
    (
      "http://127.0.0.1:9099/emulator/action?mode=signIn&oobCode=1",
      AuthDeepLinkError.unsupportedMode("signIn"),
      "the link mode 'signIn' is not supported; use mode=verifyEmail or mode=resetPassword"
    ),
    (
      "http://127.0.0.1:9099/emulator/action?mode=resetPassword", .missingParameter("oobCode"),
      "the link has no oobCode parameter; expected <scheme>://auth/verify?token=…&type=signup&email=…"
    ),
    (
      "http://127.0.0.1:9099/emulator/action?oobCode=1&mode=a&mode=b", .repeatedParameter("mode"),
      "the link gives its mode parameter more than once; expected <scheme>://auth/verify?token=…&type=signup&email=…"
    ),
  ])
  func badFirebaseLinksSayWhatIsWrong(text: String, expected: AuthDeepLinkError, message: String) {
    do {
      let link = try AuthDeepLink(parsing: text)
      Issue.record("\(text) parsed as \(link)")
    } catch {
      #expect(error == expected)
      #expect(error.message == message)
    }
  }

  /// Seed 004's link forms: the email is optional, and the server's own `/verify` links count.
  @Test func seed004LinksParseWithOrWithoutAnEmail() throws {
    #expect(
      try AuthDeepLink(parsing: "volvoxsober://auth/forgot-password?token=abc123&type=recovery")
        == .recovery(email: "", code: "abc123"))
    #expect(
      try AuthDeepLink(
        parsing: "http://127.0.0.1:9999/verify?token=f6d753f4&type=signup"
          + "&redirect_to=http://127.0.0.1:3000")
        == .confirmation(email: "", code: "f6d753f4"))
    #expect(
      try AuthDeepLink(
        parsing: "https://proj.supabase.co/auth/v1/verify?token=9e&type=recovery&email=A@b.co")
        == .recovery(email: "a@b.co", code: "9e"))
    #expect(throws: AuthDeepLinkError.notAnAuthLink) {
      try AuthDeepLink(parsing: "https://example.com/elsewhere?token=1&type=signup")
    }
  }

  @Test func aSignedInUserCanAskForTheVerificationEmailAgain() async {
    service.stubResend(.success(()))
    viewModel.session = makeSession(email: "new@example.com")

    await viewModel.resendVerification()

    #expect(service.calls == [.resendConfirmation(email: "new@example.com")])
    #expect(viewModel.statusBanner == .verificationResent)
  }

  @Test func emailVerifiedFollowsTheConfirmationTimeUnlessStated() {
    #expect(!AuthUser(id: "1", email: "a@b.co").emailVerified)
    #expect(AuthUser(id: "1", email: "a@b.co", emailConfirmedAt: .distantPast).emailVerified)
    #expect(AuthUser(id: "1", email: "a@b.co", emailVerified: true).emailVerified)
  }
}
