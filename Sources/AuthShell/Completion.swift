import AuthFlow

/// Tab completion, from the command table and the state.
public enum Completion {
  /// The words that could complete the last word of `text` (the line up to the cursor).
  public static func candidates(for text: String, in context: ShellContext) -> [String] {
    var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    let partial = text.hasSuffix(" ") || text.isEmpty ? "" : (words.popLast() ?? "")
    let options: [String]
    if words.isEmpty {
      options = CommandParser.names(available: context)
    } else if let spec = CommandTable.spec(named: words[0]) {
      options = arguments(of: spec, after: Array(words.dropFirst()), in: context)
    } else {
      options = []
    }
    return options.filter { $0.hasPrefix(partial) }
  }

  private static func arguments(
    of spec: CommandSpec, after typed: [String], in context: ShellContext
  )
    -> [String]
  {
    switch spec.arguments {
    case .none:
      return []
    case .words(let words):
      return typed.isEmpty ? words : []
    case .fields:
      return typed.isEmpty ? context.fields.map(\.commandName) : []
    case .commands:
      return typed.isEmpty ? CommandTable.all.map(\.name) : []
    case .expectations:
      switch typed.count {
      case 0: return ExpectationParser.kinds
      case 1:
        switch typed[0] {
        case "state": return AuthScreen.allCases.map(\.rawValue)
        case "consent": return ["on", "off"]
        case "field": return AuthField.allCases.map(\.commandName)
        case "can-submit": return ["yes", "no"]
        default: return []
        }
      default: return []
      }
    }
  }

  /// The longest prefix all `words` share.
  public static func commonPrefix(_ words: [String]) -> String {
    guard var prefix = words.first else { return "" }
    for word in words.dropFirst() {
      while !word.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
  }
}
