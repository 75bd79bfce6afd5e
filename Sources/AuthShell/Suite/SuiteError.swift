import CommandLineOptions
import ScriptSuites

/// Why `authflow test` could not start: a usage error, worded in one place (``text``) as one
/// line, shown as `authflow test: …` with exit status 2.
enum SuiteError: Error, Equatable, Sendable {
  /// An option of `authflow test` itself was wrong.
  case option(OptionError)
  /// An option passed through to the scripts was wrong, as the shell would say it.
  case passThrough(ShellError)
  /// An option that would change what a script is (its commands, its output) was passed on.
  case notForScripts(String)
  /// No scripts to run under the paths (``SuiteScriptsError``).
  case scripts(SuiteScriptsError)
  /// `--update` on a backend other than the embedded one.
  case updateNeedsEmbedded(backend: BackendKind)

  /// The one line that says what was wrong and what would be right.
  var text: String {
    switch self {
    case .option(let error):
      error.text(program: "authflow test")
    case .passThrough(let error):
      error.text
    case .notForScripts(let option):
      "\(option) cannot be passed to the scripts; a suite runs each script file with --echo"
    case .scripts(.cannotRead(let path, let reason)):
      "cannot read \(path): \(reason)"
    case .scripts(.noScripts(let paths)):
      "no *.authflow scripts in \(paths.joined(separator: ", "))"
    case .updateNeedsEmbedded(let backend):
      "--update records transcripts on the embedded backend, not on \(backend.rawValue)"
    }
  }
}
