/// Patterns of one SQL dialect in another's.
enum SQLPattern {
  /// PostgreSQL's `LIKE` pattern `like` (`%` any text, `_` one character, `\` taking the next
  /// literally) as a SQLite `GLOB` pattern, which minds case as `LIKE` does there.
  static func glob(like: String) -> String {
    var glob = ""
    var escaped = false
    for character in like {
      if escaped {
        glob += literal(character)
        escaped = false
        continue
      }
      switch character {
      case "\\": escaped = true
      case "%": glob += "*"
      case "_": glob += "?"
      default: glob += literal(character)
      }
    }
    // PostgreSQL refuses a pattern that ends with its escape; matching nothing is as near.
    return escaped ? "[]" : glob
  }

  private static func literal(_ character: Character) -> String {
    "*?[".contains(character) ? "[\(character)]" : String(character)
  }
}
