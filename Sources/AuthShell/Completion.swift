/// Tab completion, from the command table and the state.
enum Completion {
  /// The words that could complete the last word of `text` (the line up to the cursor).
  static func candidates(for text: String, in context: ShellContext) -> [String] {
    var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    let partial = text.hasSuffix(" ") || text.isEmpty ? "" : (words.popLast() ?? "")
    let options: [String]
    if words.isEmpty {
      options = CommandTable.names(in: context)
    } else if let spec = CommandTable.spec(named: words[0]) {
      options = spec.completions(Array(words.dropFirst()), context)
    } else {
      options = []
    }
    return options.filter { $0.hasPrefix(partial) }
  }

  /// The longest prefix all `words` share.
  static func commonPrefix(_ words: [String]) -> String {
    guard var prefix = words.first else { return "" }
    for word in words.dropFirst() {
      while !word.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
  }
}
