import AuthFlow
import Foundation
import Synchronization
import Testing

/// Signing out, refreshing, restoring, resending and following email links.
@MainActor
struct SessionTests {
  let viewModel: AuthViewModel
  let service: MockAuthService
  let log: EventLog

  init() {
    (viewModel, service, log) = makeViewModel()
  }

  @Test func signOutEndsTheSessionAndReturnsToAnEmptyChoice() async {
    service.stubSignOut(.success(()))
    viewModel.session = makeSession()
    viewModel.navigationState = .login
    viewModel.email = "test@example.com"

    await viewModel.signOut()

    #expect(service.calls == [.signOut(makeSession())])
    #expect(viewModel.session == nil)
    #expect(viewModel.navigationState == .choice)
    #expect(viewModel.email == "")
    #expect(
      log.events.suffix(4) == [
        .submitted(.signOut), .succeeded(.signOut), .screenViewed(.choice),
        .sessionChanged(.signedOut),
      ])
  }

  @Test func signOutSucceedsLocallyWhenTheBackendFails() async {
    service.stubSignOut(.failure(.networkUnavailable))
    viewModel.session = makeSession()

    await viewModel.signOut()

    #expect(viewModel.session == nil)
    #expect(viewModel.isLoading == false)
    #expect(log.events.contains(.failed(.signOut, reason: .service(.networkUnavailable))))
  }

  @Test func signOutWhenSignedOutDoesNothing() async {
    await viewModel.signOut()
    #expect(service.calls.isEmpty)
  }

  @Test func refreshReplacesTheSession() async {
    let fresh = makeSession(token: "access-2")
    service.stubRefresh(.success(fresh))
    viewModel.session = makeSession()

    await viewModel.refreshSession()

    #expect(viewModel.session == fresh)
    #expect(viewModel.errorMessage == nil)
  }

  @Test func refreshOfARevokedSessionSignsOutToTheEntryScreen() async {
    service.stubRefresh(.failure(.sessionExpired))
    viewModel.session = makeSession()
    viewModel.navigationState = .login

    await viewModel.refreshSession()

    #expect(viewModel.session == nil)
    #expect(viewModel.navigationState == .choice)
    #expect(viewModel.errorMessage == "Your session has expired. Please sign in again.")
  }

  @Test func refreshFailingForNetworkKeepsTheSession() async {
    service.stubRefresh(.failure(.networkUnavailable))
    viewModel.session = makeSession()

    await viewModel.refreshSession()

    #expect(viewModel.session == makeSession())
    #expect(viewModel.errorMessage == AuthError.networkUnavailable.message)
  }

  @Test func refreshOfflineMakesNoCall() async {
    viewModel.session = makeSession()
    viewModel.updateNetworkStatus(.offline)

    await viewModel.refreshSession()

    #expect(service.calls.isEmpty)
    #expect(viewModel.statusBanner == .offline)
  }

  @Test func restoreSignsInWithTheSavedSession() async {
    service.stubRestore(.success(makeSession()))

    await viewModel.restoreSession()

    #expect(viewModel.session == makeSession())
    #expect(viewModel.navigationState == .choice)
  }

  @Test func restoreWithNothingSavedStaysSignedOut() async {
    service.stubRestore(.success(nil))

    await viewModel.restoreSession()

    #expect(viewModel.session == nil)
    #expect(viewModel.errorMessage == nil)
  }

  @Test func restoreFailureSaysWhy() async {
    service.stubRestore(.failure(.sessionExpired))

    await viewModel.restoreSession()

    #expect(viewModel.session == nil)
    #expect(viewModel.errorMessage == AuthError.sessionExpired.message)
    #expect(log.events.last == .failed(.restoreSession, reason: .service(.sessionExpired)))
  }

  @Test func resendShowsANeutralBanner() async {
    service.stubResend(.success(()))
    viewModel.navigateToLogin()
    viewModel.email = "Unverified@example.com"

    await viewModel.resendConfirmation()

    #expect(service.calls == [.resendConfirmation(email: "unverified@example.com")])
    #expect(viewModel.statusBanner == .confirmationResent)
  }

  @Test func resendNeedsAnEmail() async {
    viewModel.navigateToLogin()

    await viewModel.resendConfirmation()

    #expect(viewModel.errorMessage == "Email is required")
    #expect(service.calls.isEmpty)
  }

  @Test func confirmationLinkConfirmsAndLandsOnLogin() async {
    service.stubConfirmEmail(.success(()))
    viewModel.navigateToSignup()
    viewModel.password = "Password123"

    await viewModel.open(.confirmation(email: "new@example.com", code: "123456"))

    #expect(service.calls == [.confirmEmail(email: "new@example.com", code: "123456")])
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.email == "new@example.com")
    #expect(viewModel.password == "")
    #expect(viewModel.statusBanner == .emailConfirmed)
  }

  @Test func expiredConfirmationLinkShowsWhyOnLogin() async {
    service.stubConfirmEmail(.failure(.confirmationExpired))

    await viewModel.open(.confirmation(email: "new@example.com", code: "123456"))

    #expect(viewModel.navigationState == .login)
    #expect(viewModel.email == "new@example.com")
    #expect(viewModel.errorMessage == AuthError.confirmationExpired.message)
  }

  @Test func recoveryLinkFillsTheCodeWithoutACall() async {
    viewModel.navigateToLogin()
    viewModel.password = "half-typed"

    await viewModel.open(.recovery(email: "test@example.com", code: "654321"))

    #expect(service.calls.isEmpty)
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
    #expect(viewModel.otpCode == "654321")
    #expect(viewModel.password == "")
    #expect(viewModel.statusBanner == .chooseNewPassword)
  }

  // MARK: Sessions that stay true (seed 003's tokenProvider, seed 004's auto refresh)

  @Test func theTokenProviderRenewsATokenCloseToExpiry() async throws {
    let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000 - 30))
    let (viewModel, service) = viewModel(at: clock)
    let fresh = makeSession(token: "access-2")
    service.stubRefresh(.success(fresh))
    viewModel.session = makeSession()

    #expect(try await viewModel.currentAccessToken() == "access-2")
    #expect(service.calls == [.refresh(makeSession())])
    #expect(viewModel.session == fresh)
  }

  @Test func aTokenFarFromExpiryIsGivenAsItIs() async throws {
    let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000 - 3_000))
    let (viewModel, service) = viewModel(at: clock)
    viewModel.session = makeSession()

    #expect(try await viewModel.currentAccessToken() == "access-1")
    #expect(service.calls.isEmpty)
  }

  @Test func noTokenWithoutASessionOrWhenRenewalFails() async {
    let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000 + 7_200))
    let (viewModel, service) = viewModel(at: clock)
    await #expect(throws: AuthError.sessionExpired) { try await viewModel.currentAccessToken() }

    service.stubRefresh(.failure(.networkUnavailable))
    viewModel.session = makeSession()
    await #expect(throws: AuthError.networkUnavailable) {
      try await viewModel.currentAccessToken()
    }
    #expect(viewModel.errorMessage == AuthError.networkUnavailable.message)

    service.stubRefresh(.failure(.sessionExpired))
    await #expect(throws: AuthError.sessionExpired) { try await viewModel.currentAccessToken() }
    #expect(viewModel.session == nil && viewModel.navigationState == .choice)
  }

  @Test func renewalWaitsForTheNetwork() async {
    let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000 + 7_200))
    let (viewModel, service) = viewModel(at: clock)
    viewModel.session = makeSession()
    viewModel.updateNetworkStatus(.offline)

    await viewModel.renewSessionIfDue()

    #expect(service.calls.isEmpty)
  }

  private func viewModel(at clock: TestClock) -> (AuthViewModel, MockAuthService) {
    let service = MockAuthService()
    return (AuthViewModel(service: service, now: { clock.now }), service)
  }

  // MARK: The user-state stream (seed 003's publisher, seed 004's onAuthStateChange)

  @Test func theStreamTellsEveryChangeOfTheSession() async {
    let updates = viewModel.sessionUpdates()
    service.stubSignIn(.success(makeSession()))
    var renewed = makeSession(token: "access-2")
    renewed.refreshToken = "refresh-2"
    service.stubRefresh(.success(renewed))
    service.stubSignOut(.success(()))
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "TestPassword123!"
    await viewModel.submit()
    await viewModel.refreshSession()
    await viewModel.signOut()

    let seen = await first(3, of: updates)
    #expect(seen.map(\.change) == [.signedIn, .refreshed, .signedOut])
    #expect(seen.first?.session == makeSession() && seen.last?.session == nil)
    #expect(log.events.contains(.sessionChanged(.refreshed)))
  }

  @Test func restoredAndExpiredSessionsAreTold() async {
    let updates = viewModel.sessionUpdates()
    service.stubRestore(.success(makeSession()))
    await viewModel.restoreSession()
    service.stubRefresh(.failure(.sessionExpired))
    await viewModel.refreshSession()

    #expect(await first(2, of: updates).map(\.change) == [.restored, .expired])
  }

  /// The first `count` updates, or fewer if they do not come within two seconds.
  private func first(_ count: Int, of updates: AsyncStream<SessionUpdate>) async
    -> [SessionUpdate]
  {
    await withTaskGroup(of: [SessionUpdate]?.self) { group in
      group.addTask {
        var seen: [SessionUpdate] = []
        for await update in updates {
          seen.append(update)
          if seen.count == count { break }
        }
        return seen
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(2))
        return nil
      }
      let result = await group.next() ?? nil
      group.cancelAll()
      return result ?? []
    }
  }
}

/// A settable time for the view model's `now`.
final class TestClock: Sendable {
  private let time: Mutex<Date>
  init(_ date: Date) { time = Mutex(date) }
  var now: Date { time.withLock { $0 } }
}
