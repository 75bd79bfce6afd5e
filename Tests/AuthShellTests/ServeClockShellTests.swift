import Foundation
import Testing

/// `clock advance` on the Supabase backend: it moves the clock of the `authflow serve` behind
/// it, and the shell's own, so the client sees its token expire and refreshes it.
@Suite(.serialized)
struct ServeClockShellTests {
  private let signIn = "signin; set email test@example.com; set password TestPassword123!; submit"

  private func shell(_ server: RunningServer, _ commands: String) throws -> ProcessResult {
    try runAuthflow([
      "--backend", "supabase", "--supabase-url", server.url, "--supabase-key", server.anonKey,
      "--seed", "1", "-c", commands,
    ])
  }

  @Test func advancingTheServersClockRefreshesTheSession() throws {
    let server = try RunningServer(["--store", ":memory:", "--seed", "1", "--hash-cost", "4"])
    defer { server.stop() }
    let result = try shell(
      server, signIn + "; token; clock advance 2h; token; expect signed-in test@example.com")
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.contains("clock: 2025-01-01T02:00:00Z\n"))
    // The token before the move was issued at the seeded epoch; the one after, by the refresh
    // the expired session needed, two hours later on the server's clock.
    let issued = result.output.split(separator: "\n").filter { $0.hasPrefix("  iat: ") }
    #expect(
      issued == [
        "  iat: 1735689600 (2025-01-01T00:00:00Z)", "  iat: 1735696800 (2025-01-01T02:00:00Z)",
      ])
  }

  @Test func aServerThatMayNotMoveItsClockSaysSoInOneLine() throws {
    let folder = NSTemporaryDirectory() + "authflow-clock-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let server = try RunningServer(["--store", folder + "/auth.db", "--hash-cost", "4"])
    defer { server.stop() }
    let result = try shell(server, "clock advance 1h; version")
    #expect(
      result.error
        == "line 1 (command 1): the clock did not move: the server refused (403): the clock "
        + "moves only on a throw-away store: time travelled here would reach the store other "
        + "processes share; start authflow serve with --store :memory:, or with --allow-clock "
        + "to move it anyway\n")
    #expect(!result.output.contains("clock: "))
  }
}
