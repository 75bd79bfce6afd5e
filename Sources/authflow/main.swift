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

let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
if arguments.first == "serve" {
  exit(
    ServeMain.run(
      arguments: Array(arguments.dropFirst()), environment: environment,
      version: AuthflowMain.version))
}
// `authflow test [PATH…]`: scripts run as a suite, each in an authflow process of its own.
if arguments.first == "test" {
  exit(SuiteMain.run(arguments: Array(arguments.dropFirst()), environment: environment))
}
// `authflow graph [FILE]`: the flow's navigation graph, from the library's own map.
if arguments.first == "graph" {
  exit(FlowGraph.run(arguments: Array(arguments.dropFirst())))
}
// `authflow play FILE`: a presenter's playback, each command typed out at a human pace.
if arguments.first == "play" {
  exit(await AuthflowMain.play(arguments: Array(arguments.dropFirst()), environment: environment))
}
exit(await AuthflowMain.run(arguments: arguments, environment: environment))
