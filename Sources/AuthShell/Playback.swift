import CommandLineOptions

#if canImport(Glibc)
  import Glibc
#endif

/// A presenter's playback (`authflow play FILE`): each command typed out after its prompt at a
/// human pace, then run; a pause at `# pause` comments, or with `step` before every command,
/// until Enter. Secrets are typed as their mask (the line's display).
struct Playback: Sendable {
  /// Milliseconds between two typed characters.
  var pace: Int = 40
  /// Whether to wait for Enter before every command.
  var step = false
  /// Waits `milliseconds`; injected so tests run at once and can see the pace.
  var sleep: @Sendable (Int) -> Void = { milliseconds in usleep(useconds_t(milliseconds) * 1_000) }
  /// Waits for Enter; `nil` when there is no terminal to read it from (pauses are skipped).
  var waitForEnter: (@Sendable () -> Void)?
  /// `--help`: print the playback's usage.
  var help = false

  /// Types `prompt` at once, then `text` a character at a time, then the newline.
  func type(_ text: String, after prompt: String, to output: ShellOutput) {
    if step, let waitForEnter {
      output.text(prompt)
      output.flush()
      waitForEnter()
    } else {
      output.text(prompt)
    }
    output.flush()
    for character in text {
      sleep(pace)
      output.text(String(character))
      output.flush()
    }
    output.line("")
    output.flush()
  }

  /// `authflow play` reads its options (``table``) and leaves the rest to the shell's options;
  /// the playback and the rest, or a one-line mistake.
  static func parse(_ arguments: [String]) -> Result<(Playback, [String]), ShellError> {
    var own: [String] = []
    var rest: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      let name = argument.hasPrefix("--") ? String(argument.prefix { $0 != "=" }) : argument
      guard let spec = table.first(where: { $0.names.contains(name) }) else {
        rest.append(argument)
        continue
      }
      own.append(argument)
      if spec.value != nil, !argument.contains("=") {
        // A missing value is the parser's to report.
        if let value = remaining.popFirst() { own.append(value) }
      }
    }
    do {
      let playback = try OptionParser.parse(
        own, table: table, into: Playback(waitForEnter: enterFromTerminal())
      ).options
      return .success((playback, rest))
    } catch {
      return .failure(.option(error))
    }
  }

  /// Whether `comment` (a whole line) asks for a pause: `# pause`.
  static func isPause(_ comment: Substring) -> Bool {
    comment.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      == ["#", "pause"]
  }

  /// Reads a line from the controlling terminal, if there is one.
  static func enterFromTerminal() -> (@Sendable () -> Void)? {
    let terminal = open("/dev/tty", O_RDONLY | O_CLOEXEC)
    guard terminal >= 0 else { return nil }
    return {
      var byte: UInt8 = 0
      while read(terminal, &byte, 1) == 1, byte != UInt8(ascii: "\n") {}
    }
  }
}
