// authflow: the shell over the AuthFlow view model, and `authflow serve`, the engine as a local
// Auth server. Everything lives in AuthShell and AuthServer; this only hands over the command
// line and the environment, and exits with the status it gets back.

import AuthServer
import AuthShell

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

exit(
  await AuthflowMain.main(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    // Only the manual and the completion scripts need it: not built for every run.
    serveCommand: { ServeMain.command }
  ) { arguments, environment, version in
    ServeMain.run(arguments: arguments, environment: environment, version: version)
  } startLocalServer: { arguments in
    try? ServeMain.startInBackground(arguments: arguments, version: AuthflowMain.version).get()
  })
