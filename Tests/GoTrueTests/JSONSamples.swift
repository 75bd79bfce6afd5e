import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Deterministic random JSON for comparing the direct writer and reader with Foundation.
struct JSONSamples: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Pieces keys and strings are made of: ASCII of every kind, escapes, control characters,
  /// digits (`.sortedKeys` is not numeric), case pairs, combining marks, precomposed letters,
  /// non-BMP scalars, the line separators JavaScript minds, private use and U+FFFF.
  static let pieces: [String] = [
    "a", "b", "z", "A", "B", "Z", "_", "-", ".", "~", " ", "/", "\\", "\"", "'", "<", ">", "&",
    "0", "1", "2", "9", "10", "\u{0}", "\u{1}", "\u{8}", "\t", "\n", "\u{B}", "\u{C}", "\r",
    "\u{1F}", "\u{7F}", "\u{80}", "é", "e\u{301}", "ß", "ǅ", "\u{212B}", "Å", "ﬁ", "\u{2028}",
    "\u{2029}", "😀", "👩‍👩‍👧", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}", "中", "ا",
    "role", "email", "sub",
  ]

  /// Numbers where formatting differs: zeros, integers near 2^53, fractions, tiny and huge
  /// magnitudes, subnormals, and the boundaries where Swift switches to exponents.
  static let numbers: [Double] = [
    0, -0.0, 1, -1, 2, 10, 100, 0.1, 0.2, 0.30000000000000004, 1.5, -2.5, 1 / 3, 2 / 3,
    123.456, 1e-4, 1e-5, 1.2e-5, 1e-7, .leastNonzeroMagnitude, 2.2250738585072014e-308, 1e15, 1e16,
    2e15,
    9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_994, 1.8014398509481984e16,
    4_503_599_627_370_496.5, 1e20, 1e21, 1.2345678901234568e20, 1e100, -1e300,
    1.7976931348623157e308, 999_999_999_999_999, -999_999_999_999_999, 1_700_000_000,
  ]

  mutating func string() -> String {
    (0..<Int.random(in: 0...4, using: &self)).map { _ in
      Self.pieces.randomElement(using: &self) ?? ""
    }.joined()
  }

  mutating func number() -> Double {
    switch Int.random(in: 0..<4, using: &self) {
    case 0: return Self.numbers.randomElement(using: &self) ?? 0
    case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &self))
    case 2: return Double.random(in: -1e6...1e6, using: &self)
    default:
      let bits = Double(bitPattern: next())
      return bits.isFinite ? bits : 7
    }
  }

  mutating func value(depth: Int = 0) -> JSONValue {
    switch Int.random(in: 0..<(depth < 3 ? 7 : 4), using: &self) {
    case 0: .null
    case 1: .bool(Bool.random(using: &self))
    case 2: .number(number())
    case 3: .string(string())
    case 4, 5: .object(object(depth: depth + 1))
    default: .array((0..<Int.random(in: 0...4, using: &self)).map { _ in value(depth: depth + 1) })
    }
  }

  mutating func object(depth: Int = 0) -> [String: JSONValue] {
    var members: [String: JSONValue] = [:]
    for _ in 0..<Int.random(in: 0...6, using: &self) { members[string()] = value(depth: depth) }
    return members
  }

  mutating func date() -> Date? {
    switch Int.random(in: 0..<5, using: &self) {
    case 0: nil
    case 1: Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_102_444_800, using: &self)))
    case 2:
      Date(
        timeIntervalSince1970: Double(Int64.random(in: 0...4_102_444_800_000, using: &self))
          / 1_000)
    case 3:
      Date(timeIntervalSince1970: Double.random(in: -2_300_000_000...253_402_300_799, using: &self))
    default: Date(timeIntervalSince1970: Double.random(in: -1e12...1e12, using: &self))
    }
  }

  /// The server encoder's bytes of `value`, or `nil` where it throws.
  static func foundation(_ value: some Encodable) -> [UInt8]? {
    (try? GoTrueCoding.serverEncoder().encode(value)).map(Array.init)
  }
}
