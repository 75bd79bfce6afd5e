import CommandLineOptions

#if canImport(Glibc)
  import Glibc
#endif

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What `authflow serve --config PATH` read from a project's own configuration: a Firebase
/// project's `firebase.json` and `.firebaserc`, or a Supabase project's `supabase/config.toml`.
struct ProjectConfig: Sendable {
  /// Which kind of project the file is from.
  enum Kind: Equatable, Sendable {
    case firebase
    case supabase
  }

  /// The kind of project.
  var kind: Kind
  /// The file read, as messages name it.
  var file: String
  /// serve's options as the file gives them, in the file's order.
  var settings: [ProjectSetting] = []
  /// The keys the file sets that serve does not support (with their lines), ignored.
  var unsupported: [String] = []

  /// The one warning line naming the keys serve ignores, or `nil` when it ignores none.
  var warning: String? {
    guard !unsupported.isEmpty else { return nil }
    return "\(file): authflow serve does not support "
      + unsupported.joined(separator: ", ") + "; ignored"
  }

  /// Reads the project at `path`: a folder holding `firebase.json` or
  /// `supabase/config.toml` (or `config.toml`, for the `supabase` folder itself), or one of
  /// those files. `environment` gives the values of `env(NAME)`.
  static func load(_ path: String, environment: [String: String]) throws(ProjectConfigError)
    -> ProjectConfig
  {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw ProjectConfigError("--config \(path): no such file or folder")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      return try load(file: path, environment: environment)
    }
    let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
    let found = ["firebase.json", "supabase/config.toml", "config.toml"]
      .map { "\(folder)/\($0)" }.filter { FileManager.default.fileExists(atPath: $0) }
    guard let file = found.first else {
      throw ProjectConfigError(
        "--config \(path): no firebase.json or supabase/config.toml in that folder")
    }
    if found.count > 1, found[0].hasSuffix("firebase.json") {
      throw ProjectConfigError(
        "--config \(path): both firebase.json and a Supabase config.toml; name the file to use")
    }
    return try load(file: file, environment: environment)
  }

  private static func load(file: String, environment: [String: String])
    throws(ProjectConfigError) -> ProjectConfig
  {
    let text: String
    do {
      text = try String(contentsOfFile: file, encoding: .utf8)
    } catch {
      throw ProjectConfigError("\(file): cannot be read as UTF-8 text")
    }
    if file.hasSuffix(".toml") {
      return try SupabaseConfigFile.read(text, file: file, environment: environment)
    }
    if file.hasSuffix(".json") {
      let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        .joined(separator: "/")
      let rc = (folder.isEmpty ? "" : folder + "/") + ".firebaserc"
      let rcText = try? String(contentsOfFile: rc, encoding: .utf8)
      return try FirebaseConfigFile.read(text, file: file, firebaserc: rcText.map { (rc, $0) })
    }
    throw ProjectConfigError(
      "--config \(file): takes a project folder, firebase.json or supabase/config.toml")
  }
}

/// One option of `authflow serve` as a project's file sets it.
struct ProjectSetting: Sendable {
  /// The option, such as `--port`, which says what it takes.
  var option: OptionSpec<ServeOptions>
  /// The value, as the command line would give it (empty for a flag).
  var value: String
  /// Where the file sets it, such as `supabase/config.toml:12: auth.jwt_expiry`.
  var origin: String
}

/// Why a project's configuration could not be used: one line, naming the file and the key.
struct ProjectConfigError: Error, Equatable, Sendable {
  /// The line.
  var text: String

  init(_ text: String) {
    self.text = text
  }
}
