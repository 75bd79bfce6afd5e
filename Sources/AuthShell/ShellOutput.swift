#if canImport(Glibc)
  import Glibc
#endif

/// Where the shell writes: standard output buffered, standard error at once (after flushing
/// standard output, so the two interleave in order when they share a file). Values read from
/// the environment are written as their `$NAME` (``masks``).
final class ShellOutput {
  /// The two streams.
  enum Stream: Sendable {
    /// Standard output.
    case standardOutput
    /// Standard error.
    case standardError
  }

  private var buffer: [UInt8] = []
  private let drain: (Stream, [UInt8]) -> Void
  private let threshold: Int
  /// The values read from the environment that no stream shows; `nil` or empty (most runs),
  /// text is written as it is.
  var masks: EnvironmentMasks?

  /// Output that hands its bytes to `drain`, standard output in chunks of about `threshold`.
  init(threshold: Int = 1 << 16, drain: @escaping (Stream, [UInt8]) -> Void) {
    self.drain = drain
    self.threshold = threshold
    buffer.reserveCapacity(threshold + 1_024)
  }

  /// Output to file descriptors 1 and 2.
  static func standardStreams() -> ShellOutput {
    ShellOutput { stream, bytes in
      let descriptor: Int32 = stream == .standardOutput ? 1 : 2
      var offset = 0
      while offset < bytes.count {
        let written = bytes.withUnsafeBytes {
          write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset)
        }
        if written < 0 {
          if errno == EINTR { continue }
          return
        }
        offset += written
      }
    }
  }

  /// Writes `text` and a newline to standard output.
  func line(_ text: String) {
    buffer.append(contentsOf: (masks?.apply(text) ?? text).utf8)
    buffer.append(.newline)
    if buffer.count >= threshold { flush() }
  }

  /// Writes `text` without a newline to standard output.
  func text(_ text: String) {
    buffer.append(contentsOf: (masks?.apply(text) ?? text).utf8)
    if buffer.count >= threshold { flush() }
  }

  /// Writes `text` and a newline to standard error, after what standard output holds. Errors
  /// are never coloured, so any control character in them is shown as an escape.
  func error(_ text: String) {
    flush()
    let shown = TerminalText.visible(masks?.apply(text) ?? text)
    drain(.standardError, Array(shown.utf8) + [.newline])
  }

  /// Hands buffered standard output to the stream.
  func flush() {
    guard !buffer.isEmpty else { return }
    drain(.standardOutput, buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}
