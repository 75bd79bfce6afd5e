import AuthCrypto
import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// `POST /token?grant_type=password` on the demo accounts.
struct SignInTests {
  @Test func demoAccountSignsIn() async throws {
    let engine = try makeEngine()
    let session = try await engine.signIn(email: "Test@Example.com", password: "TestPassword123!")
    #expect(session.user.email == "test@example.com")
    #expect(session.tokenType == "bearer")
    #expect(session.expiresIn == 3_600)
    #expect(session.expiresAt == Int(testEpoch.timeIntervalSince1970) + 3_600)
    #expect(session.user.lastSignInAt == testEpoch)
    #expect(session.refreshToken.count == 43)
  }

  @Test(arguments: [
    ("test@example.com", "WrongPassword"),
    ("nobody@example.com", "TestPassword123!"),
    ("unverified@example.com", "WrongPassword"),
    ("test@example.com", ""),
  ])
  func wrongPasswordAndUnknownEmailAreTheSameAnswer(email: String, password: String) async throws {
    let engine = try makeEngine()
    let failure = await failure { try await engine.signIn(email: email, password: password) }
    #expect(
      failure?.apiError
        == GoTrueAPIError(
          status: 400, code: .invalidCredentials, message: "Invalid login credentials"))
  }

  @Test func unconfirmedEmailIsToldOnlyAfterThePasswordIsRight() async throws {
    let engine = try makeEngine()
    let failure = await failure {
      try await engine.signIn(email: "unverified@example.com", password: "Test1234")
    }
    #expect(failure?.apiError?.code == .emailNotConfirmed)
  }

  @Test(.readsSQLiteTables) func everySignInIsItsOwnSession() async throws {
    let engine = try makeEngine()
    let first = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    let second = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    #expect(first.refreshToken != second.refreshToken)
    #expect(try engine.rows("SELECT count(*) FROM sessions")[0][0] == "2")
    let stored = try engine.rows("SELECT token_hash FROM refresh_tokens")
    #expect(stored.count == 2)
    let allStored = try engine.rows("SELECT hex(token_hash) FROM refresh_tokens").flatMap { $0 }
    #expect(!allStored.contains(first.refreshToken), "refresh tokens are stored as hashes")
  }

  /// An unknown email is checked against a decoy at the cost the engine runs at, not the cost
  /// the store was made with: otherwise it answers faster than a wrong password.
  @Test func theDecoyFollowsTheConfiguredCost() async throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/auth.db"
    _ = try makeEngine(location: .file(path)) { $0.hashCost = 4 }
    let engine = try makeEngine(location: .file(path)) { $0.hashCost = 5 }
    let decoys = try engine.rows("SELECT key FROM meta WHERE key LIKE 'decoy_hash%' ORDER BY key")
      .map { $0[0] }
    #expect(decoys == ["decoy_hash:4", "decoy_hash:5"])
    #expect(Bcrypt.cost(of: engine.secrets.decoyHash) == 5)
    let failure = await failure {
      try await engine.signIn(email: "nobody@example.com", password: "whatever")
    }
    #expect(failure?.apiError?.code == .invalidCredentials)
  }
}
