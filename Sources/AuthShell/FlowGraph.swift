import AuthFlow

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// `authflow graph [FILE.dot|FILE.svg]`: the whole flow, from the library's map, as Graphviz
/// DOT (to standard output without a file), or as SVG through Debian's `dot`.
public enum FlowGraph {
  /// Runs `authflow graph`; the exit status.
  public static func run(arguments: [String]) -> Int32 {
    let dot = FlowCoverage.dot()
    guard let path = arguments.first else {
      print(dot, terminator: "")
      return 0
    }
    guard arguments.count == 1, path.hasSuffix(".dot") || path.hasSuffix(".svg") else {
      print(
        "authflow graph: takes one file ending in .dot or .svg, or none for DOT on standard output")
      return 2
    }
    if let problem = write(dot, to: path) {
      print("authflow graph: \(problem)")
      return 2
    }
    return 0
  }

  /// Writes `dot` to `path`, as SVG through Graphviz when the name ends in `.svg`; a one-line
  /// problem, or `nil`.
  static func write(_ dot: String, to path: String) -> String? {
    guard path.hasSuffix(".svg") else {
      return FileManager.default.createFile(atPath: path, contents: Data(dot.utf8))
        ? nil : "cannot write \(path)"
    }
    let candidates: [String] = ["/usr/bin/dot", "/usr/local/bin/dot"]
    let program = candidates.first { access($0, X_OK) == 0 }
    guard let program else {
      return "drawing SVG needs Graphviz's dot: apt-get install graphviz (or ask for a .dot file)"
    }
    let source = path + ".dot"
    guard FileManager.default.createFile(atPath: source, contents: Data(dot.utf8)) else {
      return "cannot write \(path)"
    }
    defer { unlink(source) }
    var pid: pid_t = 0
    let words: [String] = [program, "-Tsvg", "-o", path, source]
    let arguments = words.map { strdup($0) } + [nil]
    defer { for argument in arguments { free(argument) } }
    guard posix_spawn(&pid, program, nil, nil, arguments, environ) == 0 else {
      return "could not start \(program)"
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return status == 0 ? nil : "\(program) could not draw \(path)"
  }
}
