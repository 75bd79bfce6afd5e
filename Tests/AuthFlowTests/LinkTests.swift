import AuthFlow
import Foundation
import Synchronization
import Testing

/// The link the view model sends every request over (the shell's `network unreachable`): up,
/// each request reaches the service; cut, each fails with "Can't reach the server" and the
/// service hears nothing but a sign-out's local forgetting. Every intent that asks the backend
/// is driven both ways, so a request that went around the link would show here.
@MainActor
struct LinkTests {
  /// A link the test cuts, on a device whose inbox holds the email of the code `known`.
  final class TestLink: AuthLink {
    private let up = Mutex(true)
    var isUp: Bool {
      get { up.withLock { $0 } }
      set { up.withLock { $0 = newValue } }
    }
    func recipient(ofLinkCode code: String) async -> String? {
      code == "known" ? "inbox@example.com" : nil
    }
  }

  let service = MockAuthService()
  let link = TestLink()
  let viewModel: AuthViewModel

  init() {
    viewModel = AuthViewModel(service: service, link: link, now: { testNow })
  }

  /// An intent that asks the backend: whether it needs a user signed in, and how it is made.
  typealias Intent = (signedIn: Bool, run: @MainActor (AuthViewModel) async -> AuthOutcome)

  static func fill(_ viewModel: AuthViewModel, on screen: AuthNavigationState) {
    viewModel.navigationState = screen
    viewModel.email = "a@example.com"
    viewModel.password = "Password123!"
    viewModel.confirmPassword = "Password123!"
    viewModel.otpCode = "123456"
  }

  /// Every intent that asks the backend, with the call it makes and what it comes to.
  static let intents: [(Intent, MockAuthService.Call, AuthOutcome)] = {
    let session = makeSession()
    let signup = SignUpRequest(
      email: "a@example.com", password: "Password123!", consentAccepted: true,
      consentAcceptedAt: testNow)
    return [
      (
        (
          false,
          {
            fill($0, on: .login); return await $0.submit()
          }
        ),
        .signIn(email: "a@example.com", password: "Password123!"), .succeeded(.signedIn)
      ),
      (
        (
          false,
          {
            fill($0, on: .signup(consentAccepted: true)); return await $0.submit()
          }
        ),
        .signUp(signup), .succeeded(.signedUp(.confirmationRequired))
      ),
      (
        (
          false,
          {
            fill($0, on: .resetRequest); return await $0.submit()
          }
        ),
        .requestPasswordReset(email: "a@example.com"),
        .succeeded(.resetCodeSent(email: "a@example.com"))
      ),
      (
        (
          false,
          {
            fill($0, on: .resetVerify(pendingEmail: "a@example.com")); return await $0.submit()
          }
        ),
        .resetPassword(email: "a@example.com", code: "123456", newPassword: "Password123!"),
        .succeeded(.passwordReset(email: "a@example.com"))
      ),
      (
        (
          false,
          {
            fill($0, on: .login); return await $0.resendConfirmation()
          }
        ),
        .resendConfirmation(email: "a@example.com"), .succeeded(.done)
      ),
      (
        (false, { await $0.open(.recovery(email: "", code: "c")) }), .emailForResetCode("c"),
        .succeeded(.done)
      ),
      (
        (false, { await $0.open(.confirmation(email: "a@example.com", code: "c")) }),
        .confirmEmail(email: "a@example.com", code: "c"), .succeeded(.done)
      ),
      ((false, { await $0.restoreSession() }), .restoreSession, .succeeded(.signedIn)),
      ((true, { await $0.refreshSession() }), .refresh(session), .succeeded(.done)),
      (
        (true, { await $0.changePassword(to: "Password123!") }),
        .updatePassword(session, newPassword: "Password123!", nonce: nil),
        .succeeded(.reauthenticationCodeSent)
      ),
      (
        (true, { await $0.resendVerification() }), .resendConfirmation(email: "test@example.com"),
        .succeeded(.done)
      ),
      ((true, { await $0.deleteAccount() }), .deleteAccount(session), .succeeded(.done)),
      ((true, { await $0.signOut() }), .signOut(session), .succeeded(.done)),
    ]
  }()

  static func stubEverything(_ service: MockAuthService) {
    service.stubSignIn(.success(makeSession()))
    service.stubSignUp(.success(.confirmationRequired))
    service.stubPasswordReset(.success(()))
    service.stubResetPassword(.success(()))
    service.stubResend(.success(()))
    service.stubEmailForResetCode(.success("a@example.com"))
    service.stubConfirmEmail(.success(()))
    service.stubRestore(.success(makeSession()))
    service.stubRefresh(.success(makeSession()))
    service.stubUpdatePassword(.success(.reauthenticationCodeSent))
    service.stubDeleteAccount(.success(()))
    service.stubSignOut(.success(()))
  }

  @Test func upEveryRequestReachesTheBackend() async {
    for ((signedIn, run), call, outcome) in Self.intents {
      let service = MockAuthService()
      let viewModel = AuthViewModel(service: service, link: link, now: { testNow })
      Self.stubEverything(service)
      if signedIn { viewModel.session = makeSession() }
      #expect(await run(viewModel) == outcome)
      #expect(service.calls == [call])
    }
  }

  @Test func cutEveryRequestFailsAndSigningOutStillForgetsLocally() async {
    link.isUp = false
    for ((signedIn, run), call, _) in Self.intents {
      let service = MockAuthService()
      let viewModel = AuthViewModel(service: service, link: link, now: { testNow })
      if signedIn { viewModel.session = makeSession() }
      #expect(await run(viewModel) == .failed(.networkUnavailable), "\(call)")
      let forgets = if case .signOut = call { true } else { false }
      #expect(service.calls == (forgets ? [.forgetSession] : []), "only the local forgetting")
      #expect(viewModel.errorMessage == (forgets ? nil : AuthError.networkUnavailable.message))
    }
  }

  @Test func aRecheckAndPendingSignOutsGoOverTheLinkToo() async {
    let session = makeSession()
    viewModel.session = session
    viewModel.statusBanner = .verificationSent
    link.isUp = false
    #expect(await viewModel.recheckEmailVerification() == false)
    viewModel.updateNetworkStatus(.offline)
    #expect(await viewModel.signOut() == .succeeded(.done))
    viewModel.updateNetworkStatus(.online)
    #expect(await viewModel.sendPendingSignOuts() == .failed(.networkUnavailable))
    #expect(viewModel.hasPendingSignOut, "still to be told")
    #expect(service.calls == [.forgetSession], "the recheck and the sign-out cut off")

    link.isUp = true
    service.stubEndForgottenSession(.success(()))
    #expect(await viewModel.sendPendingSignOuts() == .succeeded(.done))
    #expect(!viewModel.hasPendingSignOut)
    viewModel.session = session
    viewModel.statusBanner = .verificationSent
    service.stubReloadUser(.success(session.user))
    #expect(await viewModel.recheckEmailVerification() == false, "the backend says not yet")
    #expect(service.calls == [.forgetSession, .endForgottenSession(session), .reloadUser(session)])
  }

  @Test func aLinkTheBackendCannotPlaceTakesTheAddressTheDeviceKnows() async {
    service.stubConfirmEmail(.failure(.confirmationExpired))
    service.stubRecipient(nil)
    #expect(
      await viewModel.open(.confirmation(email: "", code: "known"))
        == .failed(.confirmationExpired))
    #expect(viewModel.email == "inbox@example.com", "the inbox the link came in")
    #expect(service.calls.last == .recipient("known"), "the backend was asked first")
  }
}
