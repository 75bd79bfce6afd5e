// authflow: the shell over the AuthFlow view model. Everything lives in AuthShell; this only
// hands over the command line and the environment, and exits with the status it gets back.

import AuthShell

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

let status = await AuthflowMain.run(
  arguments: Array(CommandLine.arguments.dropFirst()),
  environment: ProcessInfo.processInfo.environment)
exit(status)
