#if canImport(Glibc)
  import Glibc
#endif

/// One physical line of input.
enum LineInput: Equatable, Sendable {
  /// A line of text, without its newline.
  case line(String)
  /// A line that is not text; the reason says why.
  case unreadable(ShellError)
  /// Ctrl-C at the prompt: the line was dropped.
  case interrupted
  /// Nothing was entered for as long as the caller asked to wait: the prompt can be shown
  /// again, with what was typed of the line kept.
  case idle

  /// The longest line accepted, in bytes.
  static let maximumLength = 1 << 16

  /// The line in `bytes`, checked: UTF-8, no NUL or other control character (a tab is text,
  /// and a carriage return may end the line), not over the length limit.
  init(bytes: UnsafeBufferPointer<UInt8>) {
    if bytes.count > Self.maximumLength {
      self = .unreadable(Self.tooLong)
    } else if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil {
      self = .unreadable(.nulByte)
    } else if let ascii = Self.asciiLine(bytes) {
      // Most lines are ASCII, which is valid UTF-8 as it stands.
      self = ascii
    } else if let text = String(validating: bytes, as: UTF8.self) {
      self = Self.hasControl(text) ? .unreadable(.controlCharacter) : .line(text)
    } else {
      self = .unreadable(.notUTF8)
    }
  }

  /// The line when it is all ASCII, checked for controls in the same pass; `nil` otherwise.
  private static func asciiLine(_ bytes: UnsafeBufferPointer<UInt8>) -> LineInput? {
    let last = bytes.count - 1
    var control = false
    for index in bytes.indices {
      let byte = bytes[index]
      if byte >= 0x80 { return nil }
      if byte < 0x20 || byte == 0x7F, byte != .tab, !(byte == .carriageReturn && index == last) {
        control = true
      }
    }
    return control ? .unreadable(.controlCharacter) : .line(String(decoding: bytes, as: UTF8.self))
  }

  /// Whether `text` holds a character that drives a terminal rather than shows on it.
  private static func hasControl(_ text: String) -> Bool {
    let scalars = text.unicodeScalars
    return scalars.indices.contains { index in
      let scalar = scalars[index]
      if scalar == "\t" { return false }
      if scalar == "\r" { return scalars.index(after: index) != scalars.endIndex }
      return TerminalText.isControl(scalar)
    }
  }

  /// The line in `bytes`, checked.
  init(bytes: some Collection<UInt8>) {
    self = Array(bytes).withUnsafeBufferPointer { LineInput(bytes: $0) }
  }

  static let tooLong = ShellError.lineTooLong(maximum: maximumLength)
}

/// Where the shell's lines come from: a terminal, a script, or a test.
@MainActor
protocol LineSource: AnyObject {
  /// The next line, showing `prompt` first where there is a terminal; `nil` at the end.
  func nextLine(prompt: String) -> LineInput?
  /// The next line as ``nextLine(prompt:)`` reads it, or ``LineInput/idle`` once nothing has
  /// been typed for `idleAfter` seconds, where a person types (scripts never idle).
  func nextLine(prompt: String, idleAfter: Double?) -> LineInput?
  /// Whether lines are kept in a history (then the runner hands them over, masked).
  var keepsHistory: Bool { get }
  /// Keeps `line` (already stripped of secrets) in the history.
  func remember(_ line: String)
}

extension LineSource {
  /// Lines that never wait on a person: the same as ``nextLine(prompt:)``.
  func nextLine(prompt: String, idleAfter: Double?) -> LineInput? {
    nextLine(prompt: prompt)
  }
}

/// Lines read from a file descriptor in large chunks (scripts, pipes).
///
/// A line is handed over as soon as its newline is read; before a read that would wait (a pipe
/// with nothing in it yet), ``beforeWaiting`` runs, so whatever drives the shell over a pipe
/// gets each command's answer before it sends the next, as `sqlite3` answers each statement.
/// A file, or a pipe that keeps up, is read in large chunks without a flush per line.
final class DescriptorLineSource: LineSource {
  private let descriptor: Int32
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var atEnd = false
  /// Runs before a read that would wait for input (the runner flushes its output).
  var beforeWaiting: (() -> Void)?

  /// Lines from `descriptor`.
  init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer = [UInt8](repeating: 0, count: 1 << 16)
  }

  /// The first line, read (waiting for it if need be) but left to be handed over by
  /// ``nextLine(prompt:)``; `nil` when the input ends first or the line is longer than a line
  /// may be. A script on standard input shows its `#!` line here.
  func peekFirstLine() -> String? {
    while true {
      if let newline = buffer[start..<end].firstIndex(of: .newline) {
        return String(decoding: buffer[start..<newline], as: UTF8.self)
      }
      if atEnd {
        return start < end ? String(decoding: buffer[start..<end], as: UTF8.self) : nil
      }
      if end - start > LineInput.maximumLength { return nil }
      fill()
    }
  }

  /// The next line; a last line without a newline counts.
  func nextLine(prompt: String) -> LineInput? {
    var skipping = false
    while true {
      if let newline = buffer[start..<end].firstIndex(of: .newline) {
        defer { start = newline + 1 }
        if skipping { return .unreadable(LineInput.tooLong) }
        return line(start..<newline)
      }
      if end - start > LineInput.maximumLength {
        // Drop what is buffered of an over-long line and read on to its end.
        skipping = true
        start = end
      }
      if atEnd {
        guard start < end || skipping else { return nil }
        defer { start = end }
        return skipping ? .unreadable(LineInput.tooLong) : line(start..<end)
      }
      fill()
    }
  }

  private func line(_ range: Range<Int>) -> LineInput {
    buffer.withUnsafeBufferPointer { LineInput(bytes: UnsafeBufferPointer(rebasing: $0[range])) }
  }

  /// Whether a read would return at once: input is waiting, the input ended, or it is a file.
  private var hasInput: Bool {
    var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&waiting, 1, 0) != 0
  }

  /// Scripts keep no history.
  var keepsHistory: Bool { false }

  /// Scripts keep no history.
  func remember(_ line: String) {}

  private func fill() {
    if start > 0 {
      buffer.withUnsafeMutableBufferPointer { storage in
        guard let base = storage.baseAddress else { return }
        _ = memmove(base, base + start, end - start)
      }
      end -= start
      start = 0
    }
    if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
    if let beforeWaiting, !hasInput { beforeWaiting() }
    while true {
      let count = buffer.withUnsafeMutableBytes { storage in
        read(descriptor, storage.baseAddress.map { $0 + end }, storage.count - end)
      }
      if count < 0, errno == EINTR { continue }
      if count <= 0 {
        atEnd = true
      } else {
        end += count
      }
      return
    }
  }
}

/// Lines from strings: `-c` and tests.
final class StringLineSource: LineSource {
  private var lines: [String]
  private var index = 0
  /// What was remembered, for tests.
  private(set) var remembered: [String] = []

  /// The given lines, in order.
  init(_ lines: [String]) {
    self.lines = lines
  }

  /// The next line, checked like any input.
  func nextLine(prompt: String) -> LineInput? {
    guard index < lines.count else { return nil }
    defer { index += 1 }
    return LineInput(bytes: lines[index].utf8)
  }

  /// Kept, so tests can read what a terminal would store.
  var keepsHistory: Bool { true }

  /// Keeps `line` for tests to read.
  func remember(_ line: String) {
    remembered.append(line)
  }
}
