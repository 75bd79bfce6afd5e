import AuthFlow
import Foundation
import Testing

/// Errors and their messages, the deprecated `AuthMode`, sessions and deep links.
struct ErrorLinkAndSessionTests {
  static let allErrors = AuthError.allCases

  @Test func allCasesListsEveryCaseOnce() {
    #expect(AuthError.allCases.map(\.ordinal) == Array(0..<AuthError.allCases.count))
  }

  @Test func seedErrorMessagesAreExact() {
    #expect(AuthError.invalidCredentials.message == "That email or password looks incorrect")
    #expect(
      AuthError.duplicateEmail.message
        == "An account with this email already exists. Try logging in instead.")
    #expect(
      AuthError.otpExpired.message == "This reset link has expired. Please request a new one.")
    #expect(
      AuthError.otpAlreadyUsed.message
        == "This reset link has already been used. Please request a new one if needed.")
    #expect(AuthError.emailAlreadyConfirmed.message == "Email already verified")
  }

  @Test func everyErrorHasItsOwnMessageAndCode() {
    #expect(Set(Self.allErrors.map(\.message)).count == Self.allErrors.count)
    #expect(Set(Self.allErrors.map(\.code)).count == Self.allErrors.count)
    for error in Self.allErrors {
      #expect(!error.message.isEmpty)
      #expect(!error.message.contains("\n"), "messages are one line")
    }
  }

  @available(*, deprecated)
  @Test @MainActor func modeMirrorsTheNavigationState() {
    let (viewModel, _, _) = makeViewModel()
    #expect(viewModel.mode == nil)
    viewModel.mode = .signup(consentAccepted: true)
    #expect(viewModel.navigationState == .signup(consentAccepted: true))
    #expect(viewModel.mode == .signup(consentAccepted: true))
    viewModel.mode = .resetVerify(pendingEmail: "a@b.co")
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "a@b.co"))
    viewModel.mode = .resetRequest
    #expect(viewModel.mode == .resetRequest)
    viewModel.mode = .login
    #expect(viewModel.navigationState == .login)
    viewModel.mode = nil
    #expect(viewModel.navigationState == .choice)
  }

  @Test func sessionDescriptionsHideTheTokens() {
    let session = makeSession(token: "eyJhbGciOiJIUzI1NiJ9.secret-part")
    var dumped = ""
    dump(session, to: &dumped)
    for text in [session.description, session.debugDescription, "\(session)", dumped] {
      #expect(!text.contains("secret-part"))
      #expect(!text.contains("refresh-1"))
      #expect(text.contains("test@example.com"))
    }
  }

  @Test func sessionDescriptionsShowSeed004sShapeStillWithoutTokens() {
    let session = AuthSession(
      user: AuthUser(id: "u1", email: "a@b.co"), accessToken: "secret-access",
      refreshToken: "secret-refresh", expiresAt: testNow, expiresIn: 900, tokenType: "Bearer")
    var dumped = ""
    dump(session, to: &dumped)
    for text in [session.description, dumped] {
      #expect(text.contains("900"))
      #expect(text.contains("Bearer"))
      #expect(!text.contains("secret-"))
    }
    #expect(makeSession().expiresIn == 3_600)
    #expect(makeSession().tokenType == "bearer")
  }

  @Test func signUpRequestDescriptionsHideThePassword() {
    let request = SignUpRequest(
      email: "a@b.co", password: "Hunter2Hunter2", consentAccepted: true, firstName: "Ada")
    var dumped = ""
    dump(request, to: &dumped)
    for text in [request.description, request.debugDescription, dumped] {
      #expect(!text.contains("Hunter2"))
    }
    #expect(dumped.contains("Ada"))
  }

  @Test func sessionExpiry() {
    let session = makeSession()
    #expect(session.isExpired(at: session.expiresAt))
    #expect(!session.isExpired(at: session.expiresAt.addingTimeInterval(-60)))
    #expect(session.isExpired(at: session.expiresAt.addingTimeInterval(-20), leeway: 30))
  }

  @Test func emailLinksParse() throws {
    #expect(
      try AuthDeepLink(
        parsing: "authflow://auth/reset?token=000042&type=recovery&email=test@example.com")
        == .recovery(email: "test@example.com", code: "000042"))
    #expect(
      try AuthDeepLink(
        parsing: "authflow://auth/verify?token=123456&type=signup&email=new%2Btag@example.com")
        == .confirmation(email: "new+tag@example.com", code: "123456"))
    #expect(AuthDeepLink.recovery(email: "a@b.co", code: "1").email == "a@b.co")
  }

  @Test func seedLinkShapesParse() throws {
    #expect(
      try AuthDeepLink(
        parsing: "volvoxsober://auth/verify?token=111111&type=signup&redirect_to=/&email=A@B.co")
        == .confirmation(email: "a@b.co", code: "111111"))
    #expect(
      try AuthDeepLink(
        parsing: "volvoxsober://auth/forgot-password?token=222222&type=recovery&email=a@b.co")
        == .recovery(email: "a@b.co", code: "222222"))
  }

  /// Where GoTrue's `GET /verify` sends the browser after verifying: the session, or the
  /// error, in the fragment of the app's `redirect_to`.
  @Test func aServersRedirectIntoTheAppCarriesTheSessionOrTheError() throws {
    let landing =
      "volvoxsober://auth/verify#access_token=eyJ.a.b&expires_at=1735693200&expires_in=3600"
      + "&refresh_token=r3fr3sh&sb=&token_type=bearer&type=signup"
    let tokens = LinkTokens(
      accessToken: "eyJ.a.b", refreshToken: "r3fr3sh", expiresIn: 3_600, expiresAt: 1_735_693_200,
      type: "signup")
    #expect(try AuthDeepLink(parsing: landing) == .signedIn(tokens))
    #expect(AuthDeepLink.signedIn(tokens).email.isEmpty)
    // Printed or logged, the tokens never show.
    #expect(!"\(tokens)".contains("eyJ") && !"\(tokens)".contains("r3fr3sh"))
    #expect(!String(reflecting: tokens).contains("r3fr3sh"))
    #expect(
      try AuthDeepLink(
        parsing: "volvoxsober://auth/verify#error=access_denied&error_code=otp_expired"
          + "&error_description=Email+link+is+invalid+or+has+expired&sb=")
        == .refused(errorCode: "otp_expired"))
  }

  @Test(arguments: [
    (
      "volvoxsober://auth/verify#refresh_token=r&type=signup",
      AuthDeepLinkError.missingParameter("access_token"),
      "the link has no access_token parameter; expected <scheme>://auth/verify?token=…"
        + "&type=signup&email=…"
    ),
    (
      "volvoxsober://auth/verify#access_token=a&type=signup", .missingParameter("refresh_token"),
      "the link has no refresh_token parameter; expected <scheme>://auth/verify?token=…"
        + "&type=signup&email=…"
    ),
    (
      "volvoxsober://auth/forgot-password#access_token=a&refresh_token=r&type=recovery",
      .unsupportedSessionType("recovery"),
      "the app does not sign in from a 'recovery' session link; only type=signup, email, "
        + "magiclink or invite sign in"
    ),
    (
      "volvoxsober://auth/verify#access_token=a&access_token=b&refresh_token=r&type=signup",
      .repeatedParameter("access_token"),
      "the link gives its access_token parameter more than once; expected <scheme>://auth/verify"
        + "?token=…&type=signup&email=…"
    ),
  ])
  func aRedirectWithoutAUsableSessionSaysWhatIsMissing(
    text: String, expected: AuthDeepLinkError, message: String
  ) {
    #expect(throws: expected) { try AuthDeepLink(parsing: text) }
    #expect(expected.message == message)
  }

  @Test(arguments: [
    (
      "not a link", AuthDeepLinkError.notAnAuthLink,
      "not an authentication link; expected <scheme>://auth/verify?token=…&type=signup&email=…"
    ),
    (
      "https://example.com/auth?token=1&type=signup&email=a@b.co", .notAnAuthLink,
      "not an authentication link; expected <scheme>://auth/verify?token=…&type=signup&email=…"
    ),
    (
      "authflow://auth/verify?token=123456&email=a@b.co", .missingParameter("type"),
      "the link has no type parameter; expected <scheme>://auth/verify?token=…&type=signup&email=…"
    ),
    (
      "authflow://auth/verify?type=signup&email=a@b.co", .missingParameter("token"),
      "the link has no token parameter; expected <scheme>://auth/verify?token=…&type=signup&email=…"
    ),
    (
      "authflow://auth/verify?token=1&type=magiclink&email=a@b.co", .unsupportedType("magiclink"),
      "the link type 'magiclink' is not supported; use type=signup or type=recovery"
    ),
  ])
  func badLinksSayWhatIsWrong(text: String, expected: AuthDeepLinkError, message: String) {
    do {
      let link = try AuthDeepLink(parsing: text)
      Issue.record("\(text) parsed as \(link)")
    } catch {
      #expect(error == expected)
      #expect(error.message == message)
    }
  }
}
