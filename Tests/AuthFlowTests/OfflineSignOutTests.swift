import AuthFlow
import Foundation
import Testing

/// Signing out while offline: no call is attempted (seed 002's offline rule), the device
/// forgets the session at once, and the backend is told once the network is back.
@MainActor
struct OfflineSignOutTests {
  let viewModel: AuthViewModel
  let service: MockAuthService
  let log: EventLog

  init() {
    (viewModel, service, log) = makeViewModel()
  }

  private func signOutOffline() async {
    viewModel.session = makeSession()
    viewModel.navigationState = .login
    viewModel.updateNetworkStatus(.offline)
    log.events.removeAll()
    await viewModel.signOut()
  }

  @Test func signingOutOfflineForgetsTheSessionWithoutACall() async {
    await signOutOffline()

    #expect(service.calls == [.forgetSession])
    #expect(
      viewModel.state
        == AuthFlowState(
          navigation: .choice, message: .banner(.signedOutOffline), session: nil,
          network: .offline))
    #expect(viewModel.hasPendingSignOut)
    #expect(log.events == [.screenViewed(.choice), .sessionChanged(.signedOut)])
    #expect(
      AuthBanner.signedOutOffline.message
        == "You're signed out on this device. We'll tell the server once you're connected.")
  }

  @Test func theBackendIsToldOnceTheNetworkIsBack() async {
    service.stubEndForgottenSession(.success(()))
    await signOutOffline()

    await viewModel.sendPendingSignOuts()
    #expect(service.calls == [.forgetSession], "still offline: nothing is sent")

    viewModel.updateNetworkStatus(.online)
    await viewModel.sendPendingSignOuts()

    #expect(service.calls == [.forgetSession, .endForgottenSession(makeSession())])
    #expect(!viewModel.hasPendingSignOut)
    #expect(viewModel.statusBanner == nil, "the banner promised it; it is done")
    #expect(log.events.suffix(2) == [.submitted(.signOut), .succeeded(.signOut)])
    #expect(viewModel.isLoading == false)

    await viewModel.sendPendingSignOuts()
    #expect(service.calls.count == 2, "told once")
  }

  @Test func aBackendStillOutOfReachKeepsTheSignOutPending() async {
    service.stubEndForgottenSession(.failure(.networkUnavailable))
    await signOutOffline()
    viewModel.updateNetworkStatus(.online)

    await viewModel.sendPendingSignOuts()

    #expect(viewModel.hasPendingSignOut)
    #expect(viewModel.statusBanner == .signedOutOffline)
    #expect(log.events.last == .failed(.signOut, reason: .service(.networkUnavailable)))
  }

  @Test func aBackendThatRefusesTheSessionHasNothingMoreToBeTold() async {
    service.stubEndForgottenSession(.failure(.sessionExpired))
    await signOutOffline()
    viewModel.updateNetworkStatus(.online)

    await viewModel.sendPendingSignOuts()

    #expect(!viewModel.hasPendingSignOut)
    #expect(viewModel.statusBanner == nil)
  }

  @Test func signingOutOnlineStillCallsTheBackendAtOnce() async {
    service.stubSignOut(.success(()))
    viewModel.session = makeSession()

    await viewModel.signOut()

    #expect(service.calls == [.signOut(makeSession())])
    #expect(!viewModel.hasPendingSignOut)
    #expect(viewModel.statusBanner == nil)
  }
}
