/// Go's `time.ParseDuration` format: signed decimal numbers each with a unit (`ns`, `us`, `µs`,
/// `ms`, `s`, `m`, `h`), e.g. `24h`, `1h30m`, `1.5s`.
public enum GoDuration {
  /// The duration of `text` in seconds, or `nil` when it is not a Go duration.
  public static func seconds(_ text: String) -> Double? {
    var rest = Substring(text)
    var sign = 1.0
    if let first = rest.first, first == "-" || first == "+" {
      sign = first == "-" ? -1 : 1
      rest = rest.dropFirst()
    }
    if rest == "0" { return 0 }
    guard !rest.isEmpty else { return nil }
    let units: [(String, Double)] = [
      ("ns", 1e-9), ("us", 1e-6), ("µs", 1e-6), ("μs", 1e-6), ("ms", 1e-3), ("s", 1), ("m", 60),
      ("h", 3_600),
    ]
    var total = 0.0
    while !rest.isEmpty {
      let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
      guard !number.isEmpty, let value = Double(number) else { return nil }
      rest = rest.dropFirst(number.count)
      let unitText = rest.prefix { !($0.isASCII && ($0.isNumber || $0 == ".")) }
      guard let unit = units.first(where: { $0.0 == unitText }) else { return nil }
      rest = rest.dropFirst(unitText.count)
      total += value * unit.1
    }
    return sign * total
  }
}
