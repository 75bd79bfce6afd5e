import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// Several processes on one store, and processes killed in the middle of writing.
@Suite(.serialized)
struct MultiProcessTests {
  /// The `authflow-lab` binary built beside this test bundle.
  static let lab: String = {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    return URL(fileURLWithPath: executable).deletingLastPathComponent()
      .appendingPathComponent("authflow-lab").path
  }()

  private func launch(_ arguments: [String]) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.lab)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    return (process, output)
  }

  /// Sixteen processes creating one brand-new store at the same instant, four times over: a
  /// new file's switch to WAL answers "busy" at once, which used to fail a start now and then.
  @Test func racingStartsOnANewStoreAllOpenIt() throws {
    for round in 0..<4 {
      let folder = makeTemporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let startAt = Int64(Date().timeIntervalSince1970 * 1_000) + 1_000
      let processes = try (0..<16).map { _ in
        try launch(["open", "--store", folder + "/auth.db", "--start-at", "\(startAt)"])
      }
      for (process, output) in processes {
        process.waitUntilExit()
        let text = String(
          decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "round \(round): \(text)")
        #expect(text == "opened\n", "round \(round)")
      }
      let engine = try makeEngine(location: .file(folder + "/auth.db"))
      #expect(try engine.accountCount() == 2, "the demo accounts were made once")
    }
  }

  @Test(arguments: [true, false])
  func racingSignupsOfOneEmailMakeExactlyOneAccount(autoconfirm: Bool) throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/auth.db"
    let startAt = Int64(Date().timeIntervalSince1970 * 1_000) + 1_500
    var arguments = [
      "signup", "--store", store, "--email", "race@example.com", "--start-at", "\(startAt)",
    ]
    if autoconfirm { arguments.append("--autoconfirm") }

    // Eight processes open (and create) the store together, then sign up at the same instant.
    let processes = try (0..<8).map { _ in try launch(arguments) }
    var outcomes: [String] = []
    for (process, output) in processes {
      process.waitUntilExit()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      outcomes.append(text.trimmingCharacters(in: .whitespacesAndNewlines))
      #expect(process.terminationStatus == 0, "\(text)")
    }

    #expect(outcomes.filter { $0 == "created" }.count == 1, "\(outcomes)")
    // With confirmation on, GoTrue resends to the unconfirmed account: the others are inside
    // its 60-second email interval.
    let others = autoconfirm ? "user_already_exists" : "over_email_send_rate_limit"
    #expect(outcomes.filter { $0 == others }.count == 7, "\(outcomes)")
    let engine = try makeEngine(location: .file(store))
    #expect(
      try engine.rows("SELECT count(*) FROM users WHERE email = 'race@example.com'")[0][0] == "1")
    #expect(try engine.accountCount() == 3, "the demo accounts were created once")
    #expect(try engine.rows("PRAGMA integrity_check")[0][0] == "ok")
  }

  @Test func killedWritersLeaveAConsistentStore() async throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/auth.db"
    for round in 0..<4 {
      let (process, output) = try launch(["churn", "--store", store])
      let ready = output.fileHandleForReading.availableData
      #expect(String(decoding: ready, as: UTF8.self).contains("ready"), "round \(round)")
      usleep(UInt32(20_000 + round * 37_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal)
    }

    let engine = try makeEngine(location: .file(store))
    #expect(try engine.rows("PRAGMA integrity_check")[0][0] == "ok")
    #expect(try engine.rows("PRAGMA foreign_key_check").isEmpty)
    let churned =
      Int(try engine.rows("SELECT count(*) FROM users WHERE email LIKE 'churn-%'")[0][0]) ?? 0
    #expect(churned >= 4)
    // Every account is whole: an unconfirmed user always has its confirmation code.
    let halfMade = try engine.rows(
      """
      SELECT count(*) FROM users
      WHERE email LIKE 'churn-%' AND email_confirmed_at IS NULL AND NOT EXISTS (
        SELECT 1 FROM one_time_tokens
        WHERE one_time_tokens.user_id = users.id AND kind = 'confirmation')
      """)
    #expect(halfMade[0][0] == "0")
    _ = try await engine.signUp(email: "after@example.com", password: "Password123", data: [:])
  }
}
