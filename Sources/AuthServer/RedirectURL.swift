import GoTrue
import GoTrueEngine
import HTTPServer

/// Where `GET /verify` sends the browser, written as GoTrue writes it with Go's `net/url`: the
/// query re-encoded sorted by name (`url.Values.Encode`) when GoTrue sets a parameter in it,
/// the fragment replaced by GoTrue's parameters.
enum RedirectURL {
  /// `url` with `pairs` set in its query (each replacing any of the same name), the whole query
  /// then re-encoded as Go's `q.Encode()` does; the fragment is kept.
  static func settingQuery(_ url: String, _ pairs: [(String, String)]) -> String {
    let (beforeFragment, fragment) = split(url, at: "#")
    let (base, rawQuery) = split(beforeFragment, at: "?")
    var query = rawQuery.map { PercentDecoding.query($0).map { ($0.name, $0.value) } } ?? []
    for (name, value) in pairs {
      query.removeAll { $0.0 == name }
      query.append((name, value))
    }
    let encoded = FormEncoding.encode(query)
    return base + (encoded.isEmpty ? "" : "?" + encoded) + (fragment.map { "#" + $0 } ?? "")
  }

  /// `url` with its fragment replaced by `pairs`, encoded as Go's `url.Values.Encode` does.
  static func withFragment(_ url: String, _ pairs: [(String, String)]) -> String {
    split(url, at: "#").0 + "#" + FormEncoding.encode(pairs)
  }

  private static func split(_ text: String, at separator: Character) -> (String, String?) {
    guard let index = text.firstIndex(of: separator) else { return (text, nil) }
    return (String(text[..<index]), String(text[text.index(after: index)...]))
  }
}

/// GoTrue's check of a phone number (`validatePhone`, ``PhoneRules``) on the routes that
/// send it an SMS.
enum PhoneNumber {
  static func validate(_ phone: String) throws(GoTrueFailure) {
    _ = try PhoneRules.normalized(phone)
  }
}
