import AuthFlow
import Synchronization

/// The connection between the app and its backend, which the shell can cut (`network
/// unreachable`): the device still reports a network, so the app makes its requests, and each
/// fails as a request fails when the server cannot be reached (Wi-Fi without internet, the
/// server down). `network offline` is the other case: the app knows, and asks nothing.
///
/// Every requirement of ``AuthService`` is passed on, those with a default too, so the backend's
/// own answers are the ones the app gets while the link is up.
final class NetworkLink: AuthService {
  private let backend: any AuthService
  private let cut = Atomic<Bool>(false)
  /// The inbox the device reads, where a link the backend cannot place was delivered.
  private let mailbox: (any ShellMailbox)?

  /// A link to `backend`, up; `mailbox` is the inbox the shell's links come from.
  init(to backend: any AuthService, mailbox: (any ShellMailbox)? = nil) {
    self.backend = backend
    self.mailbox = mailbox
  }

  /// Whether requests reach the backend.
  var isUp: Bool {
    get { !cut.load(ordering: .relaxed) }
    set { cut.store(!newValue, ordering: .relaxed) }
  }

  /// The backend's answer, or "can't reach the server" while the link is cut.
  private func request<Value>(_ body: () async throws(AuthError) -> Value)
    async throws(AuthError) -> Value
  {
    guard isUp else { throw .networkUnavailable }
    return try await body()
  }

  func signIn(email: String, password: String) async throws(AuthError) -> AuthSession {
    try await request { () async throws(AuthError) in
      try await backend.signIn(email: email, password: password)
    }
  }

  func signUp(_ request: SignUpRequest) async throws(AuthError) -> SignUpResult {
    try await self.request { () async throws(AuthError) in try await backend.signUp(request) }
  }

  func requestPasswordReset(email: String) async throws(AuthError) {
    try await request { () async throws(AuthError) in
      try await backend.requestPasswordReset(email: email)
    }
  }

  func resetPassword(email: String, code: String, newPassword: String) async throws(AuthError) {
    try await request { () async throws(AuthError) in
      try await backend.resetPassword(email: email, code: code, newPassword: newPassword)
    }
  }

  func confirmEmail(email: String, code: String) async throws(AuthError) {
    try await request { () async throws(AuthError) in
      try await backend.confirmEmail(email: email, code: code)
    }
  }

  func resendConfirmation(email: String) async throws(AuthError) {
    try await request { () async throws(AuthError) in
      try await backend.resendConfirmation(email: email)
    }
  }

  func refresh(_ session: AuthSession) async throws(AuthError) -> AuthSession {
    try await request { () async throws(AuthError) in try await backend.refresh(session) }
  }

  func restoreSession() async throws(AuthError) -> AuthSession? {
    try await request { () async throws(AuthError) in try await backend.restoreSession() }
  }

  func updatePassword(_ session: AuthSession, newPassword: String, nonce: String?)
    async throws(AuthError) -> PasswordChangeResult
  {
    try await request { () async throws(AuthError) in
      try await backend.updatePassword(session, newPassword: newPassword, nonce: nonce)
    }
  }

  func signOut(_ session: AuthSession) async throws(AuthError) {
    // The backend forgets the session locally even when its server cannot be told.
    guard isUp else {
      backend.forgetSession()
      throw .networkUnavailable
    }
    try await backend.signOut(session)
  }

  func forgetSession() {
    backend.forgetSession()
  }

  func endForgottenSession(_ session: AuthSession) async throws(AuthError) {
    try await request { () async throws(AuthError) in
      try await backend.endForgottenSession(session)
    }
  }

  var resetCodeFormat: ResetCodeFormat { backend.resetCodeFormat }

  func emailForResetCode(_ code: String) async throws(AuthError) -> String? {
    try await request { () async throws(AuthError) in try await backend.emailForResetCode(code) }
  }

  /// The backend's answer, or, when it cannot tell (GoTrue's API), the address of the email in
  /// the inbox whose link carries `code`: the phone knows which of its emails a link came from.
  func recipient(ofLinkCode code: String) async -> String? {
    if let known = await backend.recipient(ofLinkCode: code) { return known }
    guard let items = try? await mailbox?.items() else { return nil }
    return items.last { item in
      switch item.link.flatMap({ try? AuthDeepLink(parsing: $0) }) {
      case .confirmation(_, let linked)?, .recovery(_, let linked)?: linked == code
      case nil: false
      }
    }?.recipient
  }

  func deleteAccount(_ session: AuthSession) async throws(AuthError) {
    try await request { () async throws(AuthError) in try await backend.deleteAccount(session) }
  }

  func reloadUser(_ session: AuthSession) async throws(AuthError) -> AuthUser? {
    try await request { () async throws(AuthError) in try await backend.reloadUser(session) }
  }
}
