/// What `record` is asked to do.
enum RecordRequest: Equatable, Sendable {
  /// Start recording to `path`; with `transcript`, save the replay's transcript beside it.
  case start(path: String, transcript: Bool)
  /// Stop, and write the file.
  case stop
  /// Tell what is being recorded.
  case status
}

extension Grammar where Value == RecordRequest {
  /// `record FILE [--transcript]`, `record stop`, or nothing (what is being recorded).
  static var recording: Grammar {
    Grammar(
      usage: "[FILE [--transcript]|stop]",
      expected: "a file to record to (and --transcript), stop, or nothing",
      read: { words in
        if words.isEmpty { return .status }
        if Array(words) == ["stop"] { return .stop }
        let transcript = words.contains("--transcript")
        let paths = words.filter { $0 != "--transcript" }
        guard paths.count == 1, let path = paths.first, !path.hasPrefix("-"),
          words.count == (transcript ? 2 : 1)
        else { return nil }
        return .start(path: path, transcript: transcript)
      },
      completions: { typed, _ in
        typed.isEmpty ? ["stop"] : typed.count == 1 ? ["--transcript"] : []
      },
      display: { request in
        switch request {
        case .status: []
        case .stop: ["stop"]
        case .start(let path, let transcript): [path] + (transcript ? ["--transcript"] : [])
        }
      },
      unparsed: masking { $0 == "stop" || $0 == "--transcript" })
  }
}
