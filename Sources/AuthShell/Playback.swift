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

  /// `authflow play` reads `--pace MS` and `--step` and leaves the rest to the shell's options;
  /// the playback and the rest, or a one-line mistake.
  static func parse(_ arguments: [String]) -> Result<(Playback, [String]), ShellError> {
    var playback = Playback(waitForEnter: enterFromTerminal())
    var rest: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--step" {
        playback.step = true
      } else if argument == "--pace" || argument.hasPrefix("--pace=") {
        let value =
          argument.hasPrefix("--pace=")
          ? String(argument.dropFirst("--pace=".count))
          : (index + 1 < arguments.count ? arguments[index + 1] : "")
        if !argument.hasPrefix("--pace=") { index += 1 }
        guard let pace = Int(value), (0...2_000).contains(pace) else {
          return .failure(
            .option(
              OptionError.badValue(
                option: "--pace", expected: "milliseconds per character, 0 to 2000 (default 40)")))
        }
        playback.pace = pace
      } else {
        rest.append(argument)
      }
      index += 1
    }
    return .success((playback, rest))
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
