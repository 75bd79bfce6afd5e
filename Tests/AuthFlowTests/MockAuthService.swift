import AuthFlow
import Foundation
import Synchronization
import Testing

/// A scripted `AuthService` that records every call and fails the test when a call arrives
/// that the test did not stub.
final class MockAuthService: AuthService {
  enum Call: Equatable {
    case signIn(email: String, password: String)
    case signUp(SignUpRequest)
    case requestPasswordReset(email: String)
    case resetPassword(email: String, code: String, newPassword: String)
    case confirmEmail(email: String, code: String)
    case resendConfirmation(email: String)
    case refresh(AuthSession)
    case restoreSession
    case signOut(AuthSession)
    case forgetSession
    case endForgottenSession(AuthSession)
    case emailForResetCode(String)
    case recipient(String)
    case deleteAccount(AuthSession)
    case reloadUser(AuthSession)
    case updatePassword(AuthSession, newPassword: String, nonce: String?)
  }

  private struct State {
    var calls: [Call] = []
    var mockError: AuthError?
    var signIn: Result<AuthSession, AuthError>?
    var signUp: Result<SignUpResult, AuthError>?
    var requestPasswordReset: Result<Void, AuthError>?
    var resetPassword: Result<Void, AuthError>?
    var confirmEmail: Result<Void, AuthError>?
    var resendConfirmation: Result<Void, AuthError>?
    var refresh: Result<AuthSession, AuthError>?
    var restoreSession: Result<AuthSession?, AuthError>?
    var signOut: Result<Void, AuthError>?
    var endForgottenSession: Result<Void, AuthError>?
    var emailForResetCode: Result<String?, AuthError>?
    var recipient: Result<String?, AuthError>?
    var deleteAccount: Result<Void, AuthError>?
    var reloadUser: Result<AuthUser?, AuthError>?
    var updatePassword: Result<PasswordChangeResult, AuthError>?
    var resetCodeFormat = ResetCodeFormat.sixDigits
    var gate: Gate?
  }

  private let state = Mutex(State())

  /// Every call so far, in order.
  var calls: [Call] { state.withLock { $0.calls } }

  /// When set, every call fails with this error.
  var mockError: AuthError? {
    get { state.withLock { $0.mockError } }
    set { state.withLock { $0.mockError = newValue } }
  }

  func stubSignIn(_ result: Result<AuthSession, AuthError>) {
    state.withLock { $0.signIn = result }
  }
  func stubSignUp(_ result: Result<SignUpResult, AuthError>) {
    state.withLock { $0.signUp = result }
  }
  func stubPasswordReset(_ result: Result<Void, AuthError>) {
    state.withLock { $0.requestPasswordReset = result }
  }
  func stubResetPassword(_ result: Result<Void, AuthError>) {
    state.withLock { $0.resetPassword = result }
  }
  func stubConfirmEmail(_ result: Result<Void, AuthError>) {
    state.withLock { $0.confirmEmail = result }
  }
  func stubResend(_ result: Result<Void, AuthError>) {
    state.withLock { $0.resendConfirmation = result }
  }
  func stubRefresh(_ result: Result<AuthSession, AuthError>) {
    state.withLock { $0.refresh = result }
  }
  func stubRestore(_ result: Result<AuthSession?, AuthError>) {
    state.withLock { $0.restoreSession = result }
  }
  func stubSignOut(_ result: Result<Void, AuthError>) { state.withLock { $0.signOut = result } }
  func stubEndForgottenSession(_ result: Result<Void, AuthError>) {
    state.withLock { $0.endForgottenSession = result }
  }
  func stubDeleteAccount(_ result: Result<Void, AuthError>) {
    state.withLock { $0.deleteAccount = result }
  }
  func stubReloadUser(_ result: Result<AuthUser?, AuthError>) {
    state.withLock { $0.reloadUser = result }
  }
  func stubUpdatePassword(_ result: Result<PasswordChangeResult, AuthError>) {
    state.withLock { $0.updatePassword = result }
  }
  func stubEmailForResetCode(_ result: Result<String?, AuthError>) {
    state.withLock { $0.emailForResetCode = result }
  }
  func stubRecipient(_ address: String?) {
    state.withLock { $0.recipient = .success(address) }
  }

  /// The reset codes' format this backend states (GoTrue's six digits unless set).
  var resetCodeFormat: ResetCodeFormat {
    get { state.withLock { $0.resetCodeFormat } }
    set { state.withLock { $0.resetCodeFormat = newValue } }
  }

  /// Makes the next call wait at the returned gate until the test opens it.
  func holdNextCall() -> Gate {
    let gate = Gate()
    state.withLock { $0.gate = gate }
    return gate
  }

  func signIn(email: String, password: String) async throws(AuthError) -> AuthSession {
    try await answer(.signIn(email: email, password: password), \.signIn)
  }

  func signUp(_ request: SignUpRequest) async throws(AuthError) -> SignUpResult {
    try await answer(.signUp(request), \.signUp)
  }

  func requestPasswordReset(email: String) async throws(AuthError) {
    try await answer(.requestPasswordReset(email: email), \.requestPasswordReset)
  }

  func resetPassword(email: String, code: String, newPassword: String) async throws(AuthError) {
    try await answer(
      .resetPassword(email: email, code: code, newPassword: newPassword), \.resetPassword)
  }

  func confirmEmail(email: String, code: String) async throws(AuthError) {
    try await answer(.confirmEmail(email: email, code: code), \.confirmEmail)
  }

  func resendConfirmation(email: String) async throws(AuthError) {
    try await answer(.resendConfirmation(email: email), \.resendConfirmation)
  }

  func refresh(_ session: AuthSession) async throws(AuthError) -> AuthSession {
    try await answer(.refresh(session), \.refresh)
  }

  func restoreSession() async throws(AuthError) -> AuthSession? {
    try await answer(.restoreSession, \.restoreSession)
  }

  func signOut(_ session: AuthSession) async throws(AuthError) {
    try await answer(.signOut(session), \.signOut)
  }

  /// Local only: recorded, never stubbed.
  func forgetSession() {
    state.withLock { $0.calls.append(.forgetSession) }
  }

  func endForgottenSession(_ session: AuthSession) async throws(AuthError) {
    try await answer(.endForgottenSession(session), \.endForgottenSession)
  }

  func deleteAccount(_ session: AuthSession) async throws(AuthError) {
    try await answer(.deleteAccount(session), \.deleteAccount)
  }

  func reloadUser(_ session: AuthSession) async throws(AuthError) -> AuthUser? {
    try await answer(.reloadUser(session), \.reloadUser)
  }

  func updatePassword(_ session: AuthSession, newPassword: String, nonce: String?)
    async throws(AuthError) -> PasswordChangeResult
  {
    try await answer(
      .updatePassword(session, newPassword: newPassword, nonce: nonce), \.updatePassword)
  }

  func emailForResetCode(_ code: String) async throws(AuthError) -> String? {
    try await answer(.emailForResetCode(code), \.emailForResetCode)
  }

  func recipient(ofLinkCode code: String) async -> String? {
    (try? await answer(.recipient(code), \.recipient)) ?? nil
  }

  private func answer<Value: Sendable>(
    _ call: Call, _ stub: KeyPath<State, Result<Value, AuthError>?>
  ) async throws(AuthError) -> Value {
    let (result, mockError, gate) = state.withLock { state in
      state.calls.append(call)
      defer { state.gate = nil }
      return (state[keyPath: stub], state.mockError, state.gate)
    }
    if let gate { await gate.pass() }
    if let mockError { throw mockError }
    guard let result else {
      Issue.record("MockAuthService received \(call) without a stub")
      throw .unknown
    }
    return try result.get()
  }
}

/// A point where a mocked call waits until the test lets it go.
final class Gate: Sendable {
  private struct State {
    var arrived = false
    var opened = false
    var arrivalWaiters: [CheckedContinuation<Void, Never>] = []
    var passers: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Mutex(State())

  /// Called by the service: signals arrival, then waits until ``open()``.
  func pass() async {
    await withCheckedContinuation { continuation in
      let waiters = state.withLock { state in
        state.arrived = true
        if state.opened {
          continuation.resume()
        } else {
          state.passers.append(continuation)
        }
        defer { state.arrivalWaiters = [] }
        return state.arrivalWaiters
      }
      for waiter in waiters { waiter.resume() }
    }
  }

  /// Returns once a call has reached the gate.
  func waitForArrival() async {
    await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state in
        if state.arrived { return true }
        state.arrivalWaiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  /// Lets the waiting call go on.
  func open() {
    let passers = state.withLock { state in
      state.opened = true
      defer { state.passers = [] }
      return state.passers
    }
    for passer in passers { passer.resume() }
  }
}

/// The events a view model reported, in order.
@MainActor
final class EventLog {
  var events: [AuthEvent] = []
  var sink: AuthEventSink { AuthEventSink { [self] in events.append($0) } }
}

/// The time of the view models under test (before ``makeSession()``'s expiry).
let testNow = Date(timeIntervalSince1970: 1_700_000_000)

/// A fixed session for tests.
func makeSession(email: String = "test@example.com", token: String = "access-1") -> AuthSession {
  AuthSession(
    user: AuthUser(id: "00000000-0000-4000-8000-000000000001", email: email),
    accessToken: token, refreshToken: "refresh-1",
    expiresAt: Date(timeIntervalSince1970: 1_800_000_000))
}

/// A view model with a fresh mock service and event log.
@MainActor
func makeViewModel() -> (AuthViewModel, MockAuthService, EventLog) {
  let service = MockAuthService()
  let log = EventLog()
  return (AuthViewModel(service: service, events: log.sink, now: { testNow }), service, log)
}
