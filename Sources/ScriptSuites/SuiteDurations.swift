import PrivateFiles

/// How long each script took when the suite last ran it, kept in
/// `$XDG_STATE_HOME/authflow/test-durations` so that the next run starts the slowest first (as
/// Jest does): a long script that starts last keeps one job busy while the others have
/// nothing left to do.
///
/// The file is a cache: one `MILLISECONDS<TAB>PATH` line per script, by absolute path. A file
/// that cannot be read or written only costs the ordering, so nothing about it is reported.
package struct SuiteDurations: Equatable {
  /// Seconds, by the script's absolute path.
  package var seconds: [String: Double] = [:]

  /// The most scripts it remembers; the ones of the latest run come first.
  package static let limit = 10_000

  /// Where the durations of `environment`'s user are kept.
  package static func path(_ environment: [String: String]) -> String {
    XDGDirectories(environment: environment).stateHome + "/authflow/test-durations"
  }

  /// The durations in the file at `path`; none when it is missing or unreadable. Lines that
  /// do not read as a duration and a path are skipped.
  package static func load(from path: String) -> SuiteDurations {
    guard let bytes = try? PrivateFile.read(path) else { return SuiteDurations() }
    return SuiteDurations(parsing: String(decoding: bytes, as: UTF8.self))
  }

  package init(seconds: [String: Double] = [:]) {
    self.seconds = seconds
  }

  package init(parsing text: String) {
    for line in text.split(separator: "\n") {
      guard let tab = line.firstIndex(of: "\t"),
        let milliseconds = Int(line[..<tab]), milliseconds >= 0
      else { continue }
      let script = String(line[line.index(after: tab)...])
      guard script.hasPrefix("/") else { continue }
      seconds[script] = Double(milliseconds) / 1_000
    }
  }

  /// The file's text: `latest` first, then what else is remembered, up to ``limit`` lines.
  package func text(latest: [String]) -> String {
    let latestSet = Set(latest)
    let others = seconds.keys.filter { !latestSet.contains($0) }.sorted()
    return (latest + others).prefix(Self.limit).compactMap { script in
      seconds[script].map { "\(Int(($0 * 1_000).rounded()))\t\(script)\n" }
    }.joined()
  }

  /// Writes what it remembers to `path`, the scripts `latest` ran first; quietly does nothing
  /// when the folder cannot be made or the file written.
  package func save(to path: String, latest: [String]) {
    guard let slash = path.lastIndex(of: "/") else { return }
    do {
      try PrivateFile.ensureDirectory(String(path[..<slash]))
      try PrivateFile.write(Array(text(latest: latest).utf8), to: path, synced: false)
    } catch {
      // NB: a cache; the next run orders its scripts by size instead.
    }
  }

  /// The order to start `scripts` (absolute paths, with their sizes in bytes) in: the ones
  /// never timed first, largest first (they may be the slowest), then the timed ones, slowest
  /// first; ties keep the given order.
  package func order(_ scripts: [(path: String, size: Int)]) -> [Int] {
    scripts.indices.sorted { a, b in
      switch (seconds[scripts[a].path], seconds[scripts[b].path]) {
      case (nil, nil):
        scripts[a].size != scripts[b].size ? scripts[a].size > scripts[b].size : a < b
      case (nil, _?): true
      case (_?, nil): false
      case (let x?, let y?): x != y ? x > y : a < b
      }
    }
  }
}
