import AuthFlow
import Foundation
import Testing

/// The signed-in user's password change (seed 004's `updatePassword`) as the view model runs it.
@MainActor
struct ChangePasswordTests {
  @Test func aChangeKeepsTheUserSignedInWithTheSessionTheBackendGave() async {
    let (viewModel, service, _) = makeViewModel()
    let session = makeSession()
    viewModel.session = session
    let renewed = makeSession(token: "access-2")
    service.stubUpdatePassword(.success(.changed(renewed)))
    await viewModel.changePassword(to: "BrandNew123")
    #expect(service.calls == [.updatePassword(session, newPassword: "BrandNew123", nonce: nil)])
    #expect(viewModel.session == renewed)
    #expect(viewModel.statusBanner == .passwordChanged)
    #expect(viewModel.state.inFlight == nil)
  }

  @Test func aWeakPasswordIsRefusedBeforeTheBackendIsAsked() async {
    let (viewModel, service, _) = makeViewModel()
    viewModel.session = makeSession()
    await viewModel.changePassword(to: "abc")
    #expect(viewModel.errorMessage == ValidationIssue.passwordTooShort.message)
    #expect(service.calls.isEmpty)
  }

  @Test func aRequestedCodeIsSentBackAsTheNonceAndSpent() async {
    let (viewModel, service, _) = makeViewModel()
    let session = makeSession()
    viewModel.session = session
    service.stubUpdatePassword(.success(.reauthenticationCodeSent))
    await viewModel.changePassword(to: "BrandNew123")
    #expect(viewModel.statusBanner == .reauthenticationCodeSent)
    #expect(viewModel.session == session)

    viewModel.otpCode = "123 456"
    service.stubUpdatePassword(.success(.changed(session)))
    await viewModel.changePassword(to: "BrandNew123")
    #expect(
      service.calls.last == .updatePassword(session, newPassword: "BrandNew123", nonce: "123456"))
    #expect(viewModel.otpCode.isEmpty)
    #expect(viewModel.statusBanner == .passwordChanged)
  }

  @Test func anEndedSessionReturnsToTheChoiceScreen() async {
    let (viewModel, service, _) = makeViewModel()
    viewModel.session = makeSession()
    service.stubUpdatePassword(.failure(.sessionExpired))
    await viewModel.changePassword(to: "BrandNew123")
    #expect(viewModel.session == nil)
    #expect(viewModel.navigationState == .choice)
    #expect(viewModel.errorMessage == "Your session has expired. Please sign in again.")
  }

  @Test func signedOutThereIsNothingToChange() async {
    let (viewModel, service, _) = makeViewModel()
    await viewModel.changePassword(to: "BrandNew123")
    #expect(service.calls.isEmpty)
    #expect(viewModel.state.message == nil)
  }
}
