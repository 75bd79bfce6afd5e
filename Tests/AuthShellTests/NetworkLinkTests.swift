import AuthFlow
import Foundation
import Synchronization
import Testing

@testable import AuthShell

/// `network unreachable`: the link passes every call to the backend while up, the defaulted
/// ones too (else the backend's own answer would be lost for the protocol's default), and
/// fails every request with "Can't reach the server" while cut.
struct NetworkLinkTests {
  /// A backend that answers each call with something the protocol's defaults never give.
  final class Backend: AuthService {
    let calls = Mutex<[String]>([])
    private func called(_ name: String) { calls.withLock { $0.append(name) } }
    let session = AuthSession(
      user: AuthUser(id: "u1", email: "a@example.com"), accessToken: "a", refreshToken: "r",
      expiresAt: Date(timeIntervalSince1970: 1_800_000_000))

    func signIn(email: String, password: String) async throws(AuthError) -> AuthSession {
      called("signIn")
      return session
    }
    func signUp(_ request: SignUpRequest) async throws(AuthError) -> SignUpResult {
      called("signUp")
      return .confirmationRequired
    }
    func requestPasswordReset(email: String) async throws(AuthError) { called("reset") }
    func resetPassword(email: String, code: String, newPassword: String) async throws(AuthError) {
      called("resetPassword")
    }
    func confirmEmail(email: String, code: String) async throws(AuthError) { called("confirm") }
    func resendConfirmation(email: String) async throws(AuthError) { called("resend") }
    func refresh(_ session: AuthSession) async throws(AuthError) -> AuthSession {
      called("refresh")
      return session
    }
    func restoreSession() async throws(AuthError) -> AuthSession? {
      called("restore")
      return session
    }
    func updatePassword(_ session: AuthSession, newPassword: String, nonce: String?)
      async throws(AuthError) -> PasswordChangeResult
    {
      called("updatePassword")
      return .reauthenticationCodeSent
    }
    func signOut(_ session: AuthSession) async throws(AuthError) { called("signOut") }
    func forgetSession() { called("forget") }
    func endForgottenSession(_ session: AuthSession) async throws(AuthError) { called("end") }
    var resetCodeFormat: ResetCodeFormat { .link }
    func emailForResetCode(_ code: String) async throws(AuthError) -> String? {
      called("emailForResetCode")
      return "a@example.com"
    }
    func deleteAccount(_ session: AuthSession) async throws(AuthError) { called("delete") }
    func reloadUser(_ session: AuthSession) async throws(AuthError) -> AuthUser? {
      called("reloadUser")
      return session.user
    }
  }

  @Test func upItPassesEveryCallOnWithTheBackendsAnswer() async throws {
    let backend = Backend()
    let link = NetworkLink(to: backend)
    let session = backend.session
    #expect(try await link.signIn(email: "a@example.com", password: "x") == session)
    #expect(
      try await link.signUp(SignUpRequest(email: "a", password: "b", consentAccepted: true))
        == .confirmationRequired)
    try await link.requestPasswordReset(email: "a@example.com")
    try await link.resetPassword(email: "a@example.com", code: "1", newPassword: "p")
    try await link.confirmEmail(email: "a@example.com", code: "1")
    try await link.resendConfirmation(email: "a@example.com")
    #expect(try await link.refresh(session) == session)
    #expect(try await link.restoreSession() == session)
    #expect(
      try await link.updatePassword(session, newPassword: "p", nonce: nil)
        == .reauthenticationCodeSent)
    try await link.signOut(session)
    link.forgetSession()
    try await link.endForgottenSession(session)
    #expect(link.resetCodeFormat == .link)
    #expect(try await link.emailForResetCode("c") == "a@example.com")
    try await link.deleteAccount(session)
    #expect(try await link.reloadUser(session) == session.user)
    #expect(
      backend.calls.withLock { $0 } == [
        "signIn", "signUp", "reset", "resetPassword", "confirm", "resend", "refresh", "restore",
        "updatePassword", "signOut", "forget", "end", "emailForResetCode", "delete", "reloadUser",
      ])
  }

  @Test func cutEveryRequestFailsAndSigningOutStillForgetsLocally() async throws {
    let backend = Backend()
    let link = NetworkLink(to: backend)
    link.isUp = false
    let session = backend.session
    await #expect(throws: AuthError.networkUnavailable) {
      try await link.signIn(email: "a@example.com", password: "x")
    }
    await #expect(throws: AuthError.networkUnavailable) { try await link.refresh(session) }
    await #expect(throws: AuthError.networkUnavailable) { try await link.reloadUser(session) }
    await #expect(throws: AuthError.networkUnavailable) { try await link.signOut(session) }
    #expect(backend.calls.withLock { $0 } == ["forget"], "only the local forgetting happened")
    link.isUp = true
    #expect(try await link.signIn(email: "a@example.com", password: "x") == session)
  }
}
