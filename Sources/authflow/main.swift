// authflow: the shell over the AuthFlow view model, and `authflow serve`, the engine as a local
// Auth server. Everything lives in AuthShell and AuthServer; this only hands over the command
// line and the environment, and exits with the status it gets back.

import AuthServer
import AuthShell

#if canImport(Glibc)
  import Glibc
#endif

/// The environment as `NAME=value` pairs read straight from `environ`: ProcessInfo's copy costs
/// a twentieth of a short run's start. A name given twice keeps its first value, as getenv does.
func environment() -> [String: String] {
  var values: [String: String] = [:]
  var entry = environ
  while let pointer = entry.pointee {
    let text = String(cString: pointer)
    if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
      let name = String(text[..<equals])
      if values[name] == nil { values[name] = String(text[text.index(after: equals)...]) }
    }
    entry += 1
  }
  return values
}

exit(
  await AuthflowMain.main(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: environment(),
    // Only the manual and the completion scripts need it: not built for every run.
    serveCommand: { ServeMain.command }
  ) { arguments, environment, version in
    ServeMain.run(arguments: arguments, environment: environment, version: version)
  } startLocalServer: { arguments in
    try? ServeMain.startInBackground(arguments: arguments, version: AuthflowMain.version).get()
  })
