/// One entry of GoTrue's redirect allow list (`URI_ALLOW_LIST`, the Supabase CLI's
/// `additional_redirect_urls`), read as GoTrue compiles it: a glob of gobwas/glob with `.` and
/// `/` as separators (`glob.MustCompile(uri, '.', '/')` in `conf/configuration.go`).
///
/// `*` stands for any run of characters without a separator, `**` for any run at all, `?` for
/// one character that is not a separator; `[abc]` and `[a-z]` for one character of the list or
/// range, `[!abc]` and `[!a-z]` for one outside it (a separator included); `{a,b}` for either
/// pattern; `\` takes the next character as it is. Anything else stands for itself, so a URL
/// without these characters allows exactly itself. A pattern matches the whole text.
///
/// Matching runs the pattern as a set of positions over the text (a Thompson NFA), so a request's
/// URL costs time in proportion to its length and the pattern's, whatever either holds.
public struct RedirectPattern: Equatable, Sendable {
  /// The pattern as written.
  public let text: String
  private let program: [Step]

  /// The pattern `text`, or why gobwas/glob would not compile it.
  public init(_ text: String) throws(RedirectPatternError) {
    var parser = Parser(Array(text.unicodeScalars))
    let nodes = try parser.sequence(inAlternatives: false)
    var program: [Step] = []
    Self.emit(nodes, into: &program)
    program.append(.match)
    self.text = text
    self.program = program
  }

  /// Whether the whole of `candidate` is one the pattern stands for.
  public func matches(_ candidate: some StringProtocol) -> Bool {
    var current = States(count: program.count)
    add(0, to: &current)
    for scalar in candidate.unicodeScalars {
      var next = States(count: program.count)
      let separator = Self.separators.contains(scalar)
      for position in current.positions {
        switch program[position] {
        case .scalar(let wanted) where wanted == scalar: add(position + 1, to: &next)
        case .single where !separator: add(position + 1, to: &next)
        case .set(let ranges, let negated)
        where ranges.contains(where: { $0.contains(scalar) }) != negated:
          add(position + 1, to: &next)
        case .star where !separator, .superStar: add(position, to: &next)
        default: continue
        }
      }
      guard !next.positions.isEmpty else { return false }
      current = next
    }
    return current.positions.contains { program[$0] == .match }
  }

  /// Whether two patterns are written alike (and so stand for the same URLs).
  public static func == (lhs: RedirectPattern, rhs: RedirectPattern) -> Bool {
    lhs.text == rhs.text
  }

  /// The separators GoTrue compiles its patterns with.
  private static let separators: Set<Unicode.Scalar> = [".", "/"]

  // MARK: Running

  /// One instruction: consume a character, branch, or accept.
  private enum Step: Equatable, Sendable {
    case scalar(Unicode.Scalar)
    case single
    case set([ClosedRange<Unicode.Scalar>], negated: Bool)
    /// Any characters but separators, or none: stays here on one, moves on without one.
    case star
    /// Any characters, or none.
    case superStar
    case split([Int])
    case jump(Int)
    case match
  }

  /// The positions the pattern may be at, each once.
  private struct States {
    var seen: [Bool]
    var positions: [Int] = []

    init(count: Int) { seen = Array(repeating: false, count: count) }
  }

  /// Adds `position` and every position reached from it without consuming a character.
  private func add(_ position: Int, to states: inout States) {
    guard !states.seen[position] else { return }
    states.seen[position] = true
    switch program[position] {
    case .split(let targets): for target in targets { add(target, to: &states) }
    case .jump(let target): add(target, to: &states)
    case .star, .superStar:
      states.positions.append(position)
      add(position + 1, to: &states)
    default: states.positions.append(position)
    }
  }

  // MARK: Compiling

  private static func emit(_ nodes: [Node], into program: inout [Step]) {
    for node in nodes {
      switch node {
      case .scalar(let scalar): program.append(.scalar(scalar))
      case .single: program.append(.single)
      case .star: program.append(.star)
      case .superStar: program.append(.superStar)
      case .set(let ranges, let negated): program.append(.set(ranges, negated: negated))
      case .alternatives(let choices):
        let split = program.count
        program.append(.split([]))
        var starts: [Int] = []
        var jumps: [Int] = []
        for choice in choices {
          starts.append(program.count)
          emit(choice, into: &program)
          jumps.append(program.count)
          program.append(.jump(0))
        }
        program[split] = .split(starts)
        for jump in jumps { program[jump] = .jump(program.count) }
      }
    }
  }

  /// What a pattern says, before it is compiled.
  fileprivate indirect enum Node {
    case scalar(Unicode.Scalar)
    case single
    case star
    case superStar
    case set([ClosedRange<Unicode.Scalar>], negated: Bool)
    case alternatives([[Node]])
  }
}

/// Why a redirect pattern cannot be used, as gobwas/glob would refuse it.
public struct RedirectPatternError: Error, Equatable, Sendable {
  /// What is wrong, such as `an unclosed [`.
  public let reason: String
}

/// Reads a pattern as gobwas/glob's lexer and parser read it.
private struct Parser {
  private let scalars: [Unicode.Scalar]
  private var index = 0

  init(_ scalars: [Unicode.Scalar]) {
    self.scalars = scalars
  }

  private var next: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

  private mutating func read() -> Unicode.Scalar? {
    defer { index += 1 }
    return next
  }

  /// Nodes up to the end, or within `{…}` up to its next `,` or `}` (left unread).
  mutating func sequence(inAlternatives: Bool) throws(RedirectPatternError)
    -> [RedirectPattern.Node]
  {
    var nodes: [RedirectPattern.Node] = []
    while let scalar = next {
      if inAlternatives, scalar == "," || scalar == "}" { break }
      index += 1
      switch scalar {
      case "*":
        if next == "*" {
          index += 1
          nodes.append(.superStar)
        } else {
          nodes.append(.star)
        }
      case "?": nodes.append(.single)
      case "[": nodes.append(try characterClass())
      case "{": nodes.append(try alternatives())
      // A `\` at the very end escapes nothing and stands for nothing, as in gobwas/glob.
      case "\\": if let escaped = read() { nodes.append(.scalar(escaped)) }
      default: nodes.append(.scalar(scalar))
      }
    }
    return nodes
  }

  /// `{a,b,…}` after its `{`.
  private mutating func alternatives() throws(RedirectPatternError) -> RedirectPattern.Node {
    var choices: [[RedirectPattern.Node]] = []
    while true {
      choices.append(try sequence(inAlternatives: true))
      switch read() {
      case ",": continue
      case "}": return .alternatives(choices)
      default: throw RedirectPatternError(reason: "an unclosed {")
      }
    }
  }

  /// `[abc]`, `[!abc]`, `[a-z]` or `[!a-z]` after its `[`: one list or one range, as gobwas
  /// reads them (`[a-z0-9]` is neither).
  private mutating func characterClass() throws(RedirectPatternError) -> RedirectPattern.Node {
    let unclosed = RedirectPatternError(reason: "an unclosed or malformed [")
    var negated = false
    if next == "!" {
      negated = true
      index += 1
    }
    guard let first = read() else { throw unclosed }
    if next == "-" {
      index += 1
      guard let last = read(), read() == "]" else { throw unclosed }
      guard first <= last else {
        throw RedirectPatternError(reason: "a range [\(first)-\(last)] that runs backwards")
      }
      return .set([first...last], negated: negated)
    }
    index -= 1
    var members: [ClosedRange<Unicode.Scalar>] = []
    var closed = false
    while let scalar = read() {
      if scalar == "]" {
        closed = true
        break
      }
      guard let member = scalar == "\\" ? read() : scalar else { throw unclosed }
      members.append(member...member)
    }
    guard closed, !members.isEmpty else { throw unclosed }
    return .set(members, negated: negated)
  }
}
