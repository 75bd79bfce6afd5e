/// What a command line offers for a value or an operand when Tab is pressed, as
/// swift-argument-parser's `CompletionKind` says it: nothing, a list of words, files (with one
/// of the extensions, and folders to reach them), or folders.
public enum CompletionKind: Sendable, Equatable {
  /// Free text: nothing to offer.
  case none
  /// One of these words.
  case list([String])
  /// A file; with extensions, only files ending in one of them (and folders).
  case file(extensions: [String])
  /// A folder.
  case directory

  /// The kind a value's placeholder says: `FILE`, `PATH` or `FILE.dot|FILE.svg` name files
  /// (`FILE.ext` gives the extension), lowercase alternatives such as `authflow|firebase` or
  /// `HOST:PORT|local` are words to offer, anything else (`N`, `URL`) is free text.
  public init(placeholder: String?) {
    guard let placeholder else {
      self = .none
      return
    }
    let alternatives = placeholder.split(separator: "|").map(String.init)
    let files = alternatives.filter { $0 == "FILE" || $0 == "PATH" || $0.hasPrefix("FILE.") }
    if !files.isEmpty {
      let extensions = files.compactMap { $0.hasPrefix("FILE.") ? String($0.dropFirst(5)) : nil }
      self = .file(extensions: files.count == extensions.count ? extensions : [])
      return
    }
    let words = alternatives.filter { word in
      word.first?.isLowercase == true
        && word.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_" }
    }
    self = words.isEmpty ? .none : .list(words)
  }
}
