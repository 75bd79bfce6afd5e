/// One option of a command line with the words that give it (`--store x`, `--store=x`,
/// `--plain`), or a word that gives none (an operand, an unknown option, a word after `--`),
/// which the parser reads or refuses later. Words are grouped as `OptionParser` reads them.
struct OptionWords: Sendable {
  /// The option, or `nil` for a word that gives none.
  let option: ShellOption?
  /// The words, as given.
  let words: [String]
  /// The option's value (empty for a flag).
  let value: String

  /// `words` grouped into the options they give, in order.
  static func split(_ words: [String]) -> [OptionWords] {
    var groups: [OptionWords] = []
    var remaining = words[...]
    while let word = remaining.popFirst() {
      if word == "--" {
        groups += ([word] + remaining).map { OptionWords(option: nil, words: [$0], value: "") }
        break
      }
      var name = word
      var inline: String?
      if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
        name = String(word[..<equals])
        inline = String(word[word.index(after: equals)...])
      }
      guard word.hasPrefix("-"), word != "-", let option = ShellOptions.option(named: name)
      else {
        groups.append(OptionWords(option: nil, words: [word], value: ""))
        continue
      }
      if inline != nil || !option.spec.takesValue(from: remaining.first) {
        groups.append(OptionWords(option: option, words: [word], value: inline ?? ""))
      } else if let value = remaining.popFirst() {
        groups.append(OptionWords(option: option, words: [word, value], value: value))
      } else {
        groups.append(OptionWords(option: option, words: [word], value: ""))
      }
    }
    return groups
  }

  /// Whether this is an option that takes a value, given none: the words ended.
  var lacksValue: Bool {
    option?.spec.value != nil && option?.spec.optionalValue == nil && words.count == 1
      && !words[0].contains("=")
  }

  /// Whether this gives the same option as `other` (by any of its names).
  func isSameOption(as other: OptionWords) -> Bool {
    guard let option, let otherOption = other.option else { return false }
    return option.spec.names == otherOption.spec.names
  }
}
