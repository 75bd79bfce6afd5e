import AuthFlow
import Testing

/// Analytics events: what is reported, and that no secret or email ever is.
@MainActor
struct AnalyticsEventTests {
  let viewModel: AuthViewModel
  let service: MockAuthService
  let log: EventLog

  init() {
    (viewModel, service, log) = makeViewModel()
  }

  @Test func screenViewsAreReportedOncePerScreenChange() {
    viewModel.navigateToSignup()
    viewModel.updateConsent(true)
    viewModel.updateConsent(false)
    viewModel.navigateToChoice()
    #expect(log.events == [.screenViewed(.choice), .screenViewed(.signup), .screenViewed(.choice)])
  }

  @Test func eventNamesAndPropertiesAreStable() {
    #expect(AuthEvent.screenViewed(.resetVerify).name == "auth_screen_viewed")
    #expect(Array(AuthEvent.screenViewed(.resetVerify).properties).map(\.value) == ["reset-verify"])
    #expect(AuthEvent.submitted(.signIn).name == "auth_submitted")
    #expect(AuthEvent.succeeded(.signUp).name == "auth_succeeded")
    let failure = AuthEvent.failed(.resetVerify, reason: .validation(.codeInvalid))
    #expect(failure.name == "auth_failed")
    #expect(Array(failure.properties).map(\.key) == ["action", "reason"])
    #expect(Array(failure.properties).map(\.value) == ["reset_verify", "validation.code_invalid"])
    #expect(AuthFailureReason.offline.code == "offline")
    #expect(AuthFailureReason.cancelled.code == "cancelled")
    #expect(AuthFailureReason.service(.duplicateEmail).code == "duplicate_email")
  }

  @Test func noEventCarriesAnEmailPasswordOrCode() async {
    let email = "secret.person@example.com"
    let password = "Sup3rSecretPassw0rd"
    let code = "918273"
    service.stubSignIn(.failure(.invalidCredentials))
    service.stubPasswordReset(.success(()))
    service.stubResetPassword(.failure(.otpIncorrect))
    service.stubSignUp(.failure(.duplicateEmail))

    viewModel.navigateToLogin()
    viewModel.email = email
    viewModel.password = password
    await viewModel.submit()
    viewModel.navigateToResetRequest()
    await viewModel.submit()
    viewModel.otpCode = code
    viewModel.password = password
    await viewModel.submit()
    viewModel.navigateToChoice()
    viewModel.navigateToSignup()
    viewModel.updateConsent(true)
    viewModel.email = email
    viewModel.password = password
    viewModel.confirmPassword = password
    await viewModel.submit()

    #expect(
      log.events == [
        .screenViewed(.choice), .screenViewed(.login),
        .submitted(.signIn), .failed(.signIn, reason: .service(.invalidCredentials)),
        .screenViewed(.resetRequest), .submitted(.resetRequest), .succeeded(.resetRequest),
        .screenViewed(.resetVerify),
        .submitted(.resetVerify), .failed(.resetVerify, reason: .service(.otpIncorrect)),
        .screenViewed(.choice), .screenViewed(.signup),
        .submitted(.signUp), .failed(.signUp, reason: .service(.duplicateEmail)),
      ])
    for event in log.events {
      let text = "\(event) \(event.name) \(Array(event.properties))"
      #expect(!text.contains(email) && !text.contains("secret.person"), "\(event)")
      #expect(!text.contains(password), "\(event)")
      #expect(!text.contains(code), "\(event)")
    }
  }

  @Test func everyActionHasASnakeCaseName() {
    for action in AuthAction.allCases {
      #expect(action.rawValue.allSatisfy { $0.isLowercase || $0 == "_" }, "\(action)")
    }
  }
}
