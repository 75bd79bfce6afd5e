import AccountStore
import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// The Firebase surface of a throw-away engine, project `demo-app`, links to port 9099.
func makeEmulation(
  clock: AdjustableClock = AdjustableClock(fixedAt: testEpoch),
  configure: (inout EngineConfiguration) -> Void = { _ in }
) throws -> FirebaseEmulation {
  FirebaseEmulation(
    engine: try makeEngine(clock: clock, configure: configure), projectID: "demo-app",
    linkBase: "http://127.0.0.1:9099")
}

/// The Firebase error `body` ends with, or `nil` when it succeeds.
func firebaseFailure<T>(_ body: () async throws -> T) async -> IdentityToolkitError? {
  do {
    _ = try await body()
    return nil
  } catch let error as IdentityToolkitError {
    return error
  } catch {
    Issue.record("expected an IdentityToolkitError, got \(error)")
    return nil
  }
}

extension FirebaseEmulation {
  /// The verified claims of an ID token this emulation signed.
  func claims(of idToken: String) throws -> [String: JSONValue] {
    try JSONWebToken.verify(idToken, secret: engine.secrets.jwt, now: nil)
  }

  /// A new account `email` with the password `secret123`, signed in.
  func newUser(_ email: String, displayName: String? = nil) async throws -> FirebaseSession {
    try await signUp(email: email, password: "secret123", displayName: displayName)
  }
}

extension FirebaseEmulation {
  /// The stored row of the account `id` (any id: GoTrue's admin API takes UUIDs only).
  func record(_ id: String) throws -> UserRecord {
    try #require(
      try engine.withDatabase { database throws(GoTrueAPIError) in try database.user(id: id) })
  }
}

extension FirebaseSignInOutcome {
  /// The session of a sign-in that needed no second factor; the test fails otherwise.
  func signedIn(sourceLocation: SourceLocation = #_sourceLocation) throws -> FirebaseSession {
    try #require(session, "the sign-in waits for a second factor", sourceLocation: sourceLocation)
  }
}
