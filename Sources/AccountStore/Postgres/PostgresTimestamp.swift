/// `timestamptz` text as the store's connections read and write it (ISO dates in UTC, which each
/// connection sets), and Unix milliseconds.
enum PostgresTimestamp {
  /// `2025-01-01 00:00:00.123+00` for 1 735 689 600 123 ms; years before 1 get ` BC`.
  static func text(milliseconds: Int64) -> String {
    let (days, millisecondOfDay) = milliseconds.floorDivided(by: 86_400_000)
    let (year, month, day) = civil(daysSinceEpoch: days)
    let seconds = millisecondOfDay / 1000
    let clock =
      "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
      + ".\(pad(millisecondOfDay % 1000, 3))"
    let era = year > 0 ? "" : " BC"
    return "\(pad(year > 0 ? year : 1 - year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(clock)+00\(era)"
  }

  /// The Unix milliseconds of `timestamptz` text in ISO style (`YYYY-MM-DD HH:MM:SS[.ffffff]`,
  /// an offset `±HH[:MM[:SS]]`, perhaps ` BC`), rounded down to the millisecond; `infinity` and
  /// `-infinity` are `Int64.max` and `Int64.min`. `nil` for anything else.
  static func milliseconds(_ text: String) -> Int64? {
    if text == "infinity" { return .max }
    if text == "-infinity" { return .min }
    var scanner = Scanner(Array(text.utf8))
    guard var year = scanner.number(digits: 4...), scanner.skip("-"),
      let month = scanner.number(digits: 2...2), scanner.skip("-"),
      let day = scanner.number(digits: 2...2), scanner.skip(" "),
      let hour = scanner.number(digits: 2...2), scanner.skip(":"),
      let minute = scanner.number(digits: 2...2), scanner.skip(":"),
      let second = scanner.number(digits: 2...2)
    else { return nil }
    var microseconds: Int64 = 0
    if scanner.skip(".") {
      guard let digits = scanner.digits(1...6) else { return nil }
      microseconds = Int64(digits.value) * Int64(pow10(6 - digits.count))
    }
    guard let sign = scanner.sign(), let offsetHours = scanner.number(digits: 2...2) else {
      return nil
    }
    var offsetSeconds = offsetHours * 3600
    if scanner.skip(":") {
      guard let minutes = scanner.number(digits: 2...2) else { return nil }
      offsetSeconds += minutes * 60
      if scanner.skip(":") {
        guard let seconds = scanner.number(digits: 2...2) else { return nil }
        offsetSeconds += seconds
      }
    }
    if scanner.skip(" BC") { year = 1 - year }
    guard scanner.isAtEnd, (1...12).contains(month), (1...31).contains(day) else { return nil }
    let days = daysSinceEpoch(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - sign * offsetSeconds
    let (multiplied, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    guard !overflow else { return nil }
    return multiplied + microseconds.floorDivided(by: 1000).quotient
  }

  // NB: days from civil and back are Howard Hinnant's algorithms for the proleptic Gregorian
  // calendar PostgreSQL uses (https://howardhinnant.github.io/date_algorithms.html).
  private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
    let year = month <= 2 ? year - 1 : year
    let era = year.floorDivided(by: 400).quotient
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func civil(daysSinceEpoch days: Int64) -> (Int64, Int64, Int64) {
    let days = days + 719_468
    let era = days.floorDivided(by: 146_097).quotient
    let dayOfEra = days - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  private static func pow10(_ exponent: Int) -> Int {
    (0..<exponent).reduce(1) { value, _ in value * 10 }
  }

  /// Reads ASCII digits and signs from the front of some bytes.
  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ literal: String) -> Bool {
      let literal = Array(literal.utf8)
      guard bytes[index...].starts(with: literal) else { return false }
      index += literal.count
      return true
    }

    mutating func digits(_ count: ClosedRange<Int>) -> (value: Int64, count: Int)? {
      var value: Int64 = 0
      var read = 0
      while index < bytes.count, read < count.upperBound, (48...57).contains(bytes[index]) {
        value = value * 10 + Int64(bytes[index] - 48)
        index += 1
        read += 1
      }
      return count.contains(read) ? (value, read) : nil
    }

    mutating func number(digits count: PartialRangeFrom<Int>) -> Int64? {
      digits(count.lowerBound...9)?.value
    }

    mutating func number(digits count: ClosedRange<Int>) -> Int64? {
      digits(count)?.value
    }

    mutating func sign() -> Int64? {
      if skip("+") { return 1 }
      if skip("-") { return -1 }
      return nil
    }
  }
}

extension Int64 {
  /// The quotient rounded toward negative infinity, and the remainder that goes with it.
  fileprivate func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let quotient = self / divisor - (self % divisor < 0 ? 1 : 0)
    return (quotient, self - quotient * divisor)
  }
}
