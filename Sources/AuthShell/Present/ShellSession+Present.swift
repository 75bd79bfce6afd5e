/// `present [PORT]`: the screen in a browser.
extension ShellSession {
  /// Starts presenting the screen on `port` (none or 0: a free one), or, when it is presented
  /// already, tells where; the address goes to standard error (`present: URL`), so transcripts
  /// do not hang on a port.
  func present(_ port: UInt16?) -> CommandOutput {
    if let presenter = observers.presenter {
      guard port == nil || port == 0 || presenter.url.hasSuffix(":\(port ?? 0)/") else {
        return .mistake(.alreadyPresenting(url: presenter.url))
      }
      presenter.announce()
      return .done
    }
    do {
      let presenter = try ScreenPresenter.start(port: port ?? 0)
      observers.presenter = presenter
      presenter.show(self)
      presenter.announce()
      return .done
    } catch {
      return .mistake(error)
    }
  }
}

extension Grammar where Value == UInt16? {
  /// `present [PORT]`: a port from 0 to 65535, or nothing.
  static var port: Grammar {
    Grammar(
      usage: "[PORT]", expected: "a port from 0 to 65535 (0: a free one), or nothing",
      read: { words in
        guard let word = words.first else { return .some(nil) }
        guard words.count == 1, word.utf8.allSatisfy({ (48...57).contains($0) }),
          let port = UInt16(word)
        else { return nil }
        return .some(port)
      },
      display: { port in port.map { ["\($0)"] } ?? [] },
      unparsed: masking { word in UInt16(word) != nil })
  }
}
