import HTTPServer
import IdentityToolkit

/// Where an email sign-in link (`/emulator/action?mode=signIn`) sends the browser: the app's
/// `continueUrl` with the link's own parameters set in its query, as the emulator builds it
/// with WHATWG's `URL` (`searchParams.set` for each parameter given once, `continueUrl`
/// aside), so the app finds `oobCode` and `mode` there.
enum EmulatorRedirect {
  /// `target` (an absolute URL of printable ASCII, as the redirect rules let through) with
  /// each pair of `query` set in its query.
  static func url(_ target: String, with query: [(name: String, value: String)]) -> String {
    let (beforeFragment, fragment) = split(target, at: "#")
    let (path, rawQuery) = split(beforeFragment, at: "?")
    var head = path
    // A URL with an authority and no path has the path `/`.
    if let authority = head.firstRange(of: "://"),
      !head[authority.upperBound...].contains("/")
    {
      head += "/"
    }
    var pairs = rawQuery.map(PercentDecoding.query) ?? []
    let given = Dictionary(grouping: query, by: \.name)
    var seen: Set<String> = []
    for pair in query where pair.name != "continueUrl" && given[pair.name]?.count == 1 {
      guard seen.insert(pair.name).inserted else { continue }
      if let first = pairs.firstIndex(where: { $0.name == pair.name }) {
        pairs[first].value = pair.value
        pairs = pairs.enumerated().filter { $0.offset == first || $0.element.name != pair.name }
          .map(\.element)
      } else {
        pairs.append(pair)
      }
    }
    let serialized = pairs.map {
      EmulatorActionLink.formEscaped($0.name) + "=" + EmulatorActionLink.formEscaped($0.value)
    }.joined(separator: "&")
    return head + (pairs.isEmpty ? "" : "?" + serialized) + (fragment.map { "#" + $0 } ?? "")
  }

  /// `text` before the first `separator`, and what follows it when there is one.
  private static func split(_ text: String, at separator: Character) -> (String, String?) {
    guard let index = text.firstIndex(of: separator) else { return (text, nil) }
    return (String(text[..<index]), String(text[text.index(after: index)...]))
  }
}
