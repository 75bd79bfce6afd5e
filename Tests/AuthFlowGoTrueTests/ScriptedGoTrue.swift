import AuthFlow
import AuthFlowGoTrue
import Clocks
import Foundation
import GoTrue
import Synchronization
import TestSupport
import Testing

/// A `GoTrueAPI` that answers from a script and records requests; an unscripted request fails
/// the test.
final class ScriptedGoTrue: GoTrueAPI {
  enum Request: Equatable {
    case signUp(email: String, data: [String: JSONValue])
    case signIn(email: String)
    case refresh(String)
    case recover(String)
    case verify(GoTrueOTPType, email: String, token: String)
    case verifyLink(GoTrueOTPType, tokenHash: String)
    case resend(GoTrueOTPType, String)
    case updatePassword(accessToken: String, nonce: String?)
    case reauthenticate(accessToken: String)
    case logout(accessToken: String, GoTrueLogoutScope)
    case user(accessToken: String)
    case deleteUser(accessToken: String)
  }

  enum Answer {
    case signUp(GoTrueSignUpResponse)
    case session(GoTrueSession)
    case user(GoTrueUser)
    case empty
    case failure(GoTrueFailure)
  }

  private let state = Mutex<(requests: [Request], answers: [Answer])>(([], []))

  /// Queues answers, consumed in order.
  func script(_ answers: Answer...) { state.withLock { $0.answers += answers } }

  var requests: [Request] { state.withLock { $0.requests } }

  private func next(_ request: Request) throws(GoTrueFailure) -> Answer {
    let answer = state.withLock { state -> Answer? in
      state.requests.append(request)
      return state.answers.isEmpty ? nil : state.answers.removeFirst()
    }
    guard let answer else {
      Issue.record("unscripted request \(request)")
      throw .transport("unscripted")
    }
    if case .failure(let failure) = answer { throw failure }
    return answer
  }

  private func session(_ request: Request) throws(GoTrueFailure) -> GoTrueSession {
    guard case .session(let session) = try next(request) else {
      throw .malformedResponse("not a session")
    }
    return session
  }

  func signUp(email: String, password: String, data: [String: JSONValue], redirectTo: String?)
    async throws(GoTrueFailure)
    -> GoTrueSignUpResponse
  {
    guard case .signUp(let response) = try next(.signUp(email: email, data: data)) else {
      throw .malformedResponse("not a signup answer")
    }
    return response
  }

  func signIn(email: String, password: String) async throws(GoTrueFailure) -> GoTrueSession {
    try session(.signIn(email: email))
  }

  func refresh(refreshToken: String) async throws(GoTrueFailure) -> GoTrueSession {
    try session(.refresh(refreshToken))
  }

  func recover(email: String, redirectTo: String?) async throws(GoTrueFailure) {
    _ = try next(.recover(email))
  }

  func verify(type: GoTrueOTPType, email: String, token: String) async throws(GoTrueFailure)
    -> GoTrueSession
  {
    try session(.verify(type, email: email, token: token))
  }

  func verify(type: GoTrueOTPType, tokenHash: String) async throws(GoTrueFailure) -> GoTrueSession {
    try session(.verifyLink(type, tokenHash: tokenHash))
  }

  func resend(type: GoTrueOTPType, email: String, redirectTo: String?) async throws(GoTrueFailure) {
    _ = try next(.resend(type, email))
  }

  func updatePassword(_ password: String, accessToken: String, nonce: String?)
    async throws(GoTrueFailure) -> GoTrueUser
  {
    guard case .user(let user) = try next(.updatePassword(accessToken: accessToken, nonce: nonce))
    else {
      throw .malformedResponse("not a user")
    }
    return user
  }

  func reauthenticate(accessToken: String) async throws(GoTrueFailure) {
    _ = try next(.reauthenticate(accessToken: accessToken))
  }

  func logout(accessToken: String, scope: GoTrueLogoutScope) async throws(GoTrueFailure) {
    _ = try next(.logout(accessToken: accessToken, scope))
  }

  func user(accessToken: String) async throws(GoTrueFailure) -> GoTrueUser {
    guard case .user(let user) = try next(.user(accessToken: accessToken)) else {
      throw .malformedResponse("not a user")
    }
    return user
  }

  func deleteUser(accessToken: String) async throws(GoTrueFailure) {
    _ = try next(.deleteUser(accessToken: accessToken))
  }
}

let epoch = Date(timeIntervalSince1970: 1_735_689_600)

func goTrueUser(_ email: String = "test@example.com", identities: Int = 1) -> GoTrueUser {
  GoTrueUser(
    id: "user-1", email: email,
    identities: (0..<identities).map { _ in
      GoTrueIdentity(identityId: "i", userId: "user-1", provider: "email")
    })
}

func goTrueSession(
  _ access: String = "access-1", refresh: String = "refresh-1",
  expiresAt: Date = epoch.addingTimeInterval(3_600)
)
  -> GoTrueSession
{
  GoTrueSession(
    accessToken: access, expiresIn: 3_600, expiresAt: Int(expiresAt.timeIntervalSince1970),
    refreshToken: refresh, user: goTrueUser())
}

func apiError(_ status: Int, _ code: GoTrueErrorCode?, _ message: String = "m") -> GoTrueFailure {
  .api(GoTrueAPIError(status: status, code: code, message: message))
}
