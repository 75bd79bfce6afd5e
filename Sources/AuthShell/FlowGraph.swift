import AuthFlow
import CommandLineOptions

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
    if arguments == ["-h"] || arguments == ["--help"] {
      print(usage)
      return 0
    }
    let dot = FlowCoverage.dot()
    guard let path = arguments.first else {
      print(dot, terminator: "")
      return 0
    }
    guard arguments.count == 1, path.hasSuffix(".dot") || path.hasSuffix(".svg") else {
      return fail(
        "takes one file ending in .dot or .svg, or none for DOT on standard output; "
          + "see authflow graph --help")
    }
    if let problem = write(dot, to: path) { return fail(problem) }
    return 0
  }

  /// The options of `authflow graph`: only `--help` (its operand is the file).
  static let table: [OptionSpec<Bool>] = [
    OptionSpec(["-h", "--help"], nil, ["print this help and exit"], section: "graph") {
      help, _ in help = true
    }
  ]

  /// What `authflow graph` does, in a few words.
  static let abstract = "the flow's navigation graph, as Graphviz DOT or SVG"

  /// What `--help` says before the options.
  static let about = [
    "Without a file, the graph's DOT goes to standard output; FILE.dot is written as DOT,",
    "FILE.svg is drawn by Graphviz's dot (apt-get install graphviz).",
  ]

  /// `authflow graph --help`.
  static var usage: String {
    (["authflow graph: \(abstract).", "", "usage: authflow \(Subcommand.graph.synopsis)", ""]
      + about + OptionParser.usage(table, sections: ["graph"])).joined(separator: "\n")
  }

  private static func fail(_ problem: String) -> Int32 {
    var line = "authflow graph: \(problem)\n"
    _ = line.withUTF8 { Glibc.write(2, $0.baseAddress, $0.count) }
    return 2
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
