import AuthFlow

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// What runs reached of the flow's map (``AuthFlowMap``): screens, transitions, errors and
/// banners. A run writes one JSON line to `$AUTHFLOW_COVERAGE` at its end; `authflow test
/// --coverage` merges the suite's lines into a table.
struct FlowCoverage: Codable, Equatable, Sendable {
  var screens: Set<FlowNode> = []
  var transitions: Set<FlowTransition> = []
  var errors: Set<String> = []
  var banners: Set<String> = []

  /// Adds what `other` reached.
  mutating func merge(_ other: FlowCoverage) {
    screens.formUnion(other.screens)
    transitions.formUnion(other.transitions)
    errors.formUnion(other.errors)
    banners.formUnion(other.banners)
  }

  /// Records a command that took the flow from `before` to `after`, with the step its
  /// declaration says it took.
  mutating func record(_ invocation: Invocation, before: AuthFlowState, after: AuthFlowState) {
    screens.insert(before.node)
    screens.insert(after.node)
    if let step = invocation.input.flowStep(before.node, after.node) {
      transitions.insert(FlowTransition(before.node, step, after.node))
    }
    if let banner = after.banner { banners.insert(banner.message) }
  }

  /// Records the session ending before a command (the backend refused it).
  mutating func recordSessionEnded(from before: AuthFlowState, to after: AuthFlowState) {
    transitions.insert(FlowTransition(before.node, .sessionEnded, after.node))
    screens.insert(after.node)
  }

  /// Records the errors among `events` by their codes.
  mutating func record(events: [AuthEvent]) {
    for event in events {
      switch event {
      case .failed(_, .service(let error)): errors.insert(error.code)
      case .failed(_, .validation(let issue)): errors.insert(issue.rawValue)
      default: break
      }
    }
  }

  /// Appends this run's line to `path` in one write, so runs in parallel do not interleave.
  func append(to path: String) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard var line = try? encoder.encode(self) else { return }
    line.append(UInt8(ascii: "\n"))
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }

  /// The runs' lines in the file at `path`, merged.
  static func merged(from path: String) -> FlowCoverage {
    var all = FlowCoverage()
    guard let data = FileManager.default.contents(atPath: path) else { return all }
    for line in data.split(separator: UInt8(ascii: "\n")) {
      if let run = try? JSONDecoder().decode(FlowCoverage.self, from: Data(line)) {
        all.merge(run)
      }
    }
    return all
  }

  /// The table: each part's reached count out of the map's, and the total percentage; then
  /// what was not reached.
  func report() -> [String] {
    let parts: [(String, Int, Int, [String])] = [
      (
        "screens", screens.count, FlowNode.allCases.count,
        FlowNode.allCases.filter { !screens.contains($0) }.map(\.rawValue)
      ),
      (
        "transitions", Set(AuthFlowMap.transitions).intersection(transitions).count,
        AuthFlowMap.transitions.count,
        AuthFlowMap.transitions.filter { !transitions.contains($0) }.map(\.description)
      ),
      (
        "errors", Set(AuthFlowMap.errorCodes).intersection(errors).count,
        AuthFlowMap.errorCodes.count, AuthFlowMap.errorCodes.filter { !errors.contains($0) }
      ),
      (
        "banners", Set(AuthFlowMap.banners.map(\.message)).intersection(banners).count,
        AuthFlowMap.banners.count,
        AuthFlowMap.banners.map(\.message).filter { !banners.contains($0) }
      ),
    ]
    var lines = ["flow coverage:"]
    for (name, reached, total, _) in parts {
      lines.append(
        "  \(name.rightPadded(to: 12))"
          + "\(String(reached).leftPadded(to: 3)) of \(String(total).leftPadded(to: 3))"
          + "  \(Self.percent(reached, total).leftPadded(to: 4))")
    }
    let reached = parts.map(\.1).reduce(0, +)
    let total = parts.map(\.2).reduce(0, +)
    lines.append(
      "  \("all".rightPadded(to: 12))"
        + "\(String(reached).leftPadded(to: 3)) of \(String(total).leftPadded(to: 3))"
        + "  \(Self.percent(reached, total).leftPadded(to: 4))")
    for (name, _, _, missing) in parts where !missing.isEmpty {
      lines.append("  not reached (\(name)): " + missing.joined(separator: ", "))
    }
    return lines
  }

  private static func percent(_ part: Int, _ whole: Int) -> String {
    whole == 0 ? "-" : "\(part * 100 / whole)%"
  }

  /// The flow's navigation graph in Graphviz's DOT, the transitions `reached` drew in bold.
  static func dot(reached: FlowCoverage? = nil) -> String {
    var lines = [
      "digraph authflow {", "  rankdir=LR;", "  node [shape=box, style=rounded];",
    ]
    for node in FlowNode.allCases {
      let seen = reached.map { $0.screens.contains(node) } ?? true
      lines.append("  \"\(node.rawValue)\"\(seen ? "" : " [color=gray, fontcolor=gray]");")
    }
    for transition in AuthFlowMap.transitions {
      let style =
        reached.map { $0.transitions.contains(transition) }.map {
          $0 ? " color=blue, penwidth=2.5," : " color=gray, fontcolor=gray,"
        } ?? ""
      lines.append(
        "  \"\(transition.from.rawValue)\" -> \"\(transition.to.rawValue)\""
          + " [\(style) label=\"\(transition.step.rawValue)\"];")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }

  fileprivate func rightPadded(to width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - count))
  }
}

/// Holds a run's coverage while it runs: `nil` unless measured. It observes each step for the
/// screens and transitions it reached.
@MainActor
final class CoverageRecorder: StepObserver {
  /// What the run reached so far.
  var coverage: FlowCoverage?
  /// Where the run's line goes at its end.
  var path: String?

  /// Starts measuring, for a run whose line goes to `path`.
  func start(writingTo path: String) {
    self.path = path
    coverage = FlowCoverage()
  }

  /// Writes the run's line, if measured.
  func finish() {
    if let path, let coverage { coverage.append(to: path) }
  }

  func observe(_ step: StepRecord, in session: ShellSession) async -> [String] {
    coverage?.record(step.invocation, before: step.before, after: step.after)
    return []
  }
}
