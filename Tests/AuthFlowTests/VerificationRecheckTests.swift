import AuthFlow
import Testing

/// Seed 003's verification screen, which "periodically checks isEmailVerified": a signed-in
/// user whose address waits for verification is checked again quietly, and told once it is.
@MainActor
struct VerificationRecheckTests {
  let viewModel: AuthViewModel
  let service: MockAuthService
  let log: EventLog
  let session = makeSession(email: "new@example.com")

  init() async {
    (viewModel, service, log) = makeViewModel()
    service.stubSignUp(.success(.signedInPendingConfirmation(session)))
    viewModel.navigationState = .signup(consentAccepted: true)
    viewModel.email = "new@example.com"
    viewModel.password = "Password123"
    viewModel.confirmPassword = "Password123"
    await viewModel.submit()
  }

  private var verifiedUser: AuthUser {
    var user = session.user
    user.emailVerified = true
    return user
  }

  @Test func theVerificationBannerWaitsForTheAddress() {
    #expect(viewModel.statusBanner == .verificationSent)
    #expect(viewModel.awaitsEmailVerification)
    viewModel.statusBanner = nil
    #expect(!viewModel.awaitsEmailVerification, "only while the banner asks for it")
  }

  @Test func anUnverifiedAddressChangesNothingAndLeavesNoEvent() async {
    service.stubReloadUser(.success(session.user))
    let events = log.events

    #expect(await viewModel.recheckEmailVerification() == false)

    #expect(viewModel.statusBanner == .verificationSent)
    #expect(viewModel.session == session)
    #expect(log.events == events, "a poll is not the user's doing")
    #expect(service.calls.last == .reloadUser(session))
  }

  @Test func aVerifiedAddressRenewsTheSessionAndSaysSo() async {
    service.stubReloadUser(.success(verifiedUser))
    var renewed = makeSession(email: "new@example.com", token: "access-2")
    renewed.user.emailVerified = true
    service.stubRefresh(.success(renewed))

    #expect(await viewModel.recheckEmailVerification())

    #expect(viewModel.statusBanner == .emailVerified)
    #expect(viewModel.session == renewed)
    #expect(service.calls.suffix(2) == [.reloadUser(session), .refresh(session)])
    #expect(!viewModel.awaitsEmailVerification)
  }

  @Test func aFailedCheckWaitsForTheNextOne() async {
    service.stubReloadUser(.failure(.networkUnavailable))

    #expect(await viewModel.recheckEmailVerification() == false)

    #expect(viewModel.statusBanner == .verificationSent)
    #expect(viewModel.errorMessage == nil)
  }

  @Test func offlineNothingIsAsked() async {
    viewModel.updateNetworkStatus(.offline)
    let calls = service.calls.count

    #expect(await viewModel.recheckEmailVerification() == false)

    #expect(service.calls.count == calls)
  }

  @Test func aBackendThatCannotTellIsNotAskedToRenew() async {
    service.stubReloadUser(.success(nil))

    #expect(await viewModel.recheckEmailVerification() == false)

    #expect(service.calls.last == .reloadUser(session))
    #expect(viewModel.statusBanner == .verificationSent)
  }
}
