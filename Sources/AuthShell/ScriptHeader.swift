import CommandLineOptions

#if canImport(Glibc)
  import Glibc
#endif

/// The `#!` line of a script file, read for the options it gives `authflow`.
enum ScriptHeader {
  /// The file's first line (at most 4 KiB), or `nil` when it cannot be read.
  static func firstLine(of path: String) -> String? {
    openingLines(of: path).first
  }

  /// The lines of the file's first 4 KiB (the last may be cut short); empty when it cannot be
  /// read.
  static func openingLines(of path: String) -> [String] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 4_096)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return [] }
    return buffer[..<count].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
  }

  /// The words after `authflow` on a `#!` line (`#!/usr/bin/env -S authflow --store :memory:`
  /// gives `--store :memory:`), split as the shell splits words; `nil` for any other line.
  static func options(inShebang line: String) -> [String]? {
    guard line.hasPrefix("#!") else { return nil }
    let words = Lexer.lex(line.dropFirst(2)).commands.first ?? []
    guard
      let program = words.firstIndex(where: { $0 == "authflow" || $0.hasSuffix("/authflow") })
    else { return nil }
    return Array(words[(program + 1)...])
  }

  /// `words` (options) without `--backend` and the options that belong to a backend other
  /// than `backend`, each with its value.
  static func keeping(_ words: [String], for backend: BackendKind) -> [String] {
    OptionWords.split(words).filter { group in
      guard let spec = group.option?.spec else { return true }
      // A group names the backends an option is for: `supabase`, or `supabase|firebase`.
      let foreign = spec.group.map {
        !$0.split(separator: "|").contains(Substring(backend.rawValue))
      }
      return spec.name != "--backend" && foreign != true
    }.flatMap(\.words)
  }
}
