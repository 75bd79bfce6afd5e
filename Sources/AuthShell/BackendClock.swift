import Clocks
import SupabaseREST

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The clock `clock advance` moves: the embedded engine's own (on a throw-away store), or the
/// clock of `authflow serve` behind the Supabase backend, moved over HTTP, with the shell's
/// clock beside it so the client judges its tokens by the same time.
enum BackendClock: Sendable {
  /// The embedded engine's clock, which is also the shell's.
  case local(AdjustableClock)
  /// `authflow serve`'s clock, and the shell's own, which follows it.
  case server(ServeClock, shell: AdjustableClock)

  /// Moves the clock forward by `seconds`; the backend's time after the move, or why it did not
  /// move (then the shell's clock stays where it was too).
  func advance(by seconds: Double) async throws(ShellError) -> Date {
    switch self {
    case .local(let clock):
      clock.advance(by: seconds)
      return clock.now
    case .server(let server, let shell):
      let reading: ClockReading
      do {
        reading = try await server.advance(by: seconds)
      } catch {
        throw .clockNotMoved(error.description)
      }
      shell.advance(by: seconds)
      return reading.date ?? shell.now
    }
  }
}
