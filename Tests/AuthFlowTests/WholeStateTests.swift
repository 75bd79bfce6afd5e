import AuthFlow
import Testing

/// The whole state, one value, asserted after each step of a flow: nothing changes that the
/// step does not mention.
@MainActor
struct WholeStateTests {
  let viewModel: AuthViewModel
  let service: MockAuthService

  init() {
    (viewModel, service, _) = makeViewModel()
  }

  @Test func signInWrongThenRightThenSignOut() async {
    #expect(viewModel.state == AuthFlowState())

    viewModel.navigateToLogin()
    var expected = AuthFlowState(navigation: .login)
    #expect(viewModel.state == expected)

    viewModel.email = "test@example.com"
    viewModel.password = "wrong"
    expected.form = AuthForm(email: "test@example.com", password: "wrong")
    #expect(viewModel.state == expected)

    service.stubSignIn(.failure(.invalidCredentials))
    await viewModel.submit()
    expected.message = .error("That email or password looks incorrect")
    #expect(viewModel.state == expected, "the fields stay so the password can be fixed")

    viewModel.password = "TestPassword123!"
    service.stubSignIn(.success(makeSession()))
    await viewModel.submit()
    expected.form.password = ""
    expected.message = nil
    expected.session = makeSession()
    #expect(viewModel.state == expected, "the password is not kept once it worked")

    service.stubSignOut(.success(()))
    await viewModel.signOut()
    #expect(viewModel.state == AuthFlowState(), "signing out clears everything")
  }

  @Test func resetFromLoginKeepsTheEmailAndCarriesItToVerify() async {
    viewModel.navigateToLogin()
    viewModel.email = "ada@example.com"
    viewModel.password = "typo"
    viewModel.navigateToResetRequest()
    #expect(
      viewModel.state
        == AuthFlowState(navigation: .resetRequest, form: AuthForm(email: "ada@example.com")))

    service.stubPasswordReset(.success(()))
    await viewModel.submit()
    #expect(
      viewModel.state
        == AuthFlowState(
          navigation: .resetVerify(pendingEmail: "ada@example.com"),
          form: AuthForm(email: "ada@example.com"), message: .banner(.resetCodeSent)))

    viewModel.otpCode = "123456"
    viewModel.password = "BrandNew123"
    service.stubResetPassword(.success(()))
    await viewModel.submit()
    #expect(
      viewModel.state
        == AuthFlowState(
          navigation: .login, form: AuthForm(email: "ada@example.com"),
          message: .banner(.passwordUpdated)))
  }

  @Test func aRefreshTheBackendRefusesEndsOnTheEntryScreenWithWhy() async {
    viewModel.session = makeSession()
    service.stubRefresh(.failure(.sessionExpired))
    await viewModel.refreshSession()
    #expect(
      viewModel.state
        == AuthFlowState(navigation: .choice, message: .error(AuthError.sessionExpired.message)))
  }

  @Test func theFormNeverShowsInDescriptions() {
    viewModel.navigateToLogin()
    viewModel.password = "Hunter22"
    #expect(!"\(viewModel.state)".contains("Hunter22"))
    var dumped = ""
    dump(viewModel.state, to: &dumped)
    #expect(!dumped.contains("Hunter22"))
    #expect(AuthForm(email: "a@b.co").description.contains("a@b.co"))
  }
}
