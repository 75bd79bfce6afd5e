import CEditLine
import PrivateFiles

#if canImport(Glibc)
  import Glibc
#endif

/// The interactive terminal: libedit for editing, history and completion; unseen input for
/// secrets; a spinner while a request is in flight.
@MainActor
final class LineEditor: LineSource, ShellTerminal {
  private let editor: OpaquePointer
  private let history: OpaquePointer
  private let historyPath: String?
  private let colour: Bool
  /// The prompt libedit draws; read from its C callback on the main thread, inside `el_gets`.
  nonisolated(unsafe) private var prompt: UnsafeMutablePointer<CChar>?
  private let complete: @MainActor (String) -> [String]
  /// How long the current prompt waits for a keystroke before it idles, if it does.
  private var idleAfter: Double?
  /// Whether the last read ended because nothing was typed for `idleAfter` seconds.
  private var idled = false
  /// What was typed of the line when the prompt idled, typed in again at the next prompt.
  private var keptLine: String?

  /// An editor keeping history at `historyPath` (0600) and completing with `complete`.
  init?(
    historyPath: String?, colour: Bool, complete: @escaping @MainActor (String) -> [String]
  ) {
    // NB: libedit decodes UTF-8 only when the C locale says so; Swift never sets it.
    setlocale(LC_CTYPE, "")
    Interrupts.install()
    guard let editor = cedit_init("authflow"), let history = cedit_history_init(1_000) else {
      return nil
    }
    self.editor = editor
    self.history = history
    self.historyPath = historyPath
    self.colour = colour
    self.complete = complete
    cedit_set_client_data(editor, Unmanaged.passUnretained(self).toOpaque())
    cedit_set_prompt(
      editor,
      { editLine in
        guard let data = cedit_client_data(editLine) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue().prompt
      }, 1)
    // NB: libedit's own reader misses a Ctrl-C that lands outside its read(); this one polls.
    cedit_set_read(
      editor,
      { editLine, character in
        guard let editLine, let data = cedit_client_data(editLine) else { return -1 }
        let editor = Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
        return MainActor.assumeIsolated { editor.readCharacter(editLine, into: character) }
      })
    cedit_set_editor(editor, "emacs")
    cedit_set_signal(editor, 1)
    cedit_use_history(editor, history)
    cedit_add_function(
      editor, "authflow-complete", "Complete a command or argument",
      { editLine, _ in
        guard let editLine, let data = cedit_client_data(editLine) else { return UInt8(CC_ERROR) }
        let editor = Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
        return MainActor.assumeIsolated { editor.completeWord(editLine) }
      })
    cedit_bind(editor, "^I", "authflow-complete")
    el_source(editor, nil)
    if let historyPath {
      _ = try? PrivateFile.createIfMissing(historyPath)
      cedit_history_load(history, historyPath)
    }
  }

  isolated deinit {
    free(prompt)
    el_end(editor)
    history_end(history)
  }

  /// Reads a line with editing; Ctrl-C drops it, Ctrl-D on an empty line ends input.
  func nextLine(prompt text: String) -> LineInput? {
    nextLine(prompt: text, idleAfter: nil)
  }

  /// Reads a line with editing, or idles once no key has been pressed for `idleAfter`
  /// seconds; the part of the line typed so far comes back at the next prompt.
  func nextLine(prompt text: String, idleAfter: Double?) -> LineInput? {
    free(prompt)
    prompt = strdup(text)
    self.idleAfter = idleAfter
    idled = false
    _ = Interrupts.take()
    if let keptLine {
      self.keptLine = nil
      el_push(editor, keptLine)
    }
    var count: Int32 = 0
    guard let line = el_gets(editor, &count) else {
      if idled {
        // The prompt is drawn again after whatever the caller tells.
        writeOut("\r\u{1B}[K")
        return .idle
      }
      writeOut("\n")
      return Interrupts.take() ? .interrupted : nil
    }
    var bytes = UnsafeBufferPointer(
      start: UnsafeRawPointer(line).assumingMemoryBound(to: UInt8.self), count: Int(count))[...]
    if bytes.last == .newline { bytes = bytes.dropLast() }
    return LineInput(bytes: bytes)
  }

  /// History is kept, in the history file.
  var keepsHistory: Bool { true }

  /// Adds `line` (already masked) to the history and saves the history file.
  func remember(_ line: String) {
    guard !line.isEmpty else { return }
    cedit_history_enter(history, line)
    if let historyPath { cedit_history_save(history, historyPath) }
  }

  /// Reads a line with echo off; Ctrl-C cancels.
  func readSecret(prompt text: String) -> String? {
    TerminalSecret.read(prompt: text, to: 1)
  }

  /// Shows a spinner with what `label` says is happening until `task` ends; Ctrl-C cancels it.
  func wait<Value>(for task: Task<Value, Never>, label: @escaping @MainActor () -> String) async {
    _ = Interrupts.take()
    let colour = self.colour
    let spinner = Task.detached {
      let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
      var index = 0
      while !Task.isCancelled {
        if Interrupts.take() {
          task.cancel()
          writeOut("\r\u{1B}[K^C Cancelled.\n")
          return
        }
        let frame = colour ? "\u{1B}[36m\(frames[index])\u{1B}[0m" : frames[index]
        let text = await label()
        writeOut("\r\u{1B}[K\(frame) \(text)…")
        index = (index + 1) % frames.count
        try? await Task.sleep(for: .milliseconds(80))
      }
    }
    _ = await task.value
    spinner.cancel()
    await spinner.value
    writeOut("\r\u{1B}[K")
  }

  /// libedit's reader: the next character typed, decoded from UTF-8; `-1` (with `EINTR`)
  /// for Ctrl-C or when the prompt idles, `0` at the end of input.
  private func readCharacter(
    _ editLine: OpaquePointer, into character: UnsafeMutablePointer<wchar_t>?
  ) -> Int32 {
    let deadline = idleAfter.map { ContinuousClock.now + .milliseconds(Int($0 * 1000)) }
    var state = mbstate_t()
    while true {
      switch TerminalInput.next(before: deadline) {
      case .interrupted:
        errno = EINTR
        return -1
      case .idle:
        keptLine = typedSoFar(editLine)
        idled = true
        errno = EINTR
        return -1
      case .end:
        return 0
      case .byte(var byte):
        var wide: wchar_t = 0
        let result = withUnsafePointer(to: &byte) { pointer in
          pointer.withMemoryRebound(to: CChar.self, capacity: 1) {
            mbrtowc(&wide, $0, 1, &state)
          }
        }
        if result == -2 { continue }  // the middle of a UTF-8 sequence
        if result == -1 {  // not UTF-8: drop the byte and start over
          state = mbstate_t()
          continue
        }
        character?.pointee = wide
        return 1
      }
    }
  }

  /// The line as typed so far, or `nil` when it is empty.
  private func typedSoFar(_ editLine: OpaquePointer) -> String? {
    guard let info = el_line(editLine)?.pointee, let start = info.buffer, let end = info.lastchar,
      end > start
    else { return nil }
    return String(decoding: UnsafeRawBufferPointer(start: start, count: end - start), as: UTF8.self)
  }

  private func completeWord(_ editLine: OpaquePointer) -> UInt8 {
    guard let info = el_line(editLine)?.pointee, let start = info.buffer else {
      return UInt8(CC_ERROR)
    }
    let length = info.cursor - start
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self)
    let partial = text.hasSuffix(" ") ? "" : String(text.split(separator: " ").last ?? "")
    let candidates = complete(text)
    switch candidates.count {
    case 0:
      return UInt8(CC_REFRESH_BEEP)
    case 1:
      el_insertstr(editLine, String(candidates[0].dropFirst(partial.count)) + " ")
      return UInt8(CC_REFRESH)
    default:
      let common = Completion.commonPrefix(candidates)
      if common.count > partial.count {
        el_insertstr(editLine, String(common.dropFirst(partial.count)))
        return UInt8(CC_REFRESH)
      }
      writeOut("\n" + candidates.joined(separator: "  ") + "\n")
      return UInt8(CC_REDISPLAY)
    }
  }
}

/// Writes straight to standard output, unbuffered (terminal chrome only).
nonisolated func writeOut(_ text: String) {
  var text = text
  _ = text.withUTF8 { write(1, $0.baseAddress, $0.count) }
}

/// A line typed at the terminal without echo: a password, or a secret a script asks for.
enum TerminalSecret {
  /// Reads a line from the terminal on standard input with echo off, after writing `prompt` to
  /// `descriptor`; `nil` when Ctrl-C or Ctrl-D cancels it, or there is no terminal.
  static func read(prompt text: String, to descriptor: Int32) -> String? {
    var saved = termios()
    guard tcgetattr(0, &saved) == 0 else { return nil }
    var silent = saved
    silent.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(0, TCSAFLUSH, &silent)
    defer {
      tcsetattr(0, TCSAFLUSH, &saved)
      write(text: "\n", to: descriptor)
    }
    write(text: text, to: descriptor)
    _ = Interrupts.take()
    var bytes: [UInt8] = []
    while true {
      switch TerminalInput.next() {
      case .interrupted:
        _ = Interrupts.take()
        return nil
      case .idle:
        continue
      case .end:
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
      case .byte(.newline):
        return String(decoding: bytes, as: UTF8.self)
      case .byte(let byte):
        bytes.append(byte)
      }
    }
  }

  private static func write(text: String, to descriptor: Int32) {
    var text = text
    _ = text.withUTF8 { Glibc.write(descriptor, $0.baseAddress, $0.count) }
  }
}
