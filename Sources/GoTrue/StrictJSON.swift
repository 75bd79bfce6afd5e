#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What Go's `encoding/json` refuses or reads otherwise and Foundation's decoder forgives,
/// checked before decoding so a JSON text means one thing here and to a Go service:
/// JSON must be UTF-8 without a byte-order mark (RFC 8259 §8.1), has no trailing commas, and
/// no object names a member twice.
///
/// Duplicate names are the dangerous part: Foundation keeps the first of two, Go the last, so
/// `{"role":"authenticated","role":"service_role"}` would be one role here and another to a Go
/// service reading the same token. Go also matches a struct's fields case-insensitively (with
/// Unicode's simple folding: `ſ` is `s`, the Kelvin sign `k`), so at the top level, where
/// tokens' claims and requests' fields are, names that differ only so are the same name.
public enum StrictJSON {
  /// How deep the check follows nesting; Foundation's decoder refuses deeper texts itself.
  static let maximumDepth = 512

  /// Why `bytes` is not JSON as Go reads it, or `nil` when Foundation's verdict stands.
  public static func problem(in bytes: [UInt8]) -> Problem? {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF])
      || bytes.starts(with: [0xFF, 0xFE])
    {
      return .syntax("invalid character looking for beginning of value (a byte-order mark)")
    }
    // UTF-16 and UTF-32 put NUL bytes beside ASCII; JSON text never has a raw NUL.
    if bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil {
      return .syntax("invalid character looking for beginning of value (JSON must be UTF-8)")
    }
    var scanner = Scanner()
    return bytes.withUnsafeBufferPointer { scanner.scan($0) }
  }

  /// What is wrong with a text.
  public enum Problem: Equatable, Sendable {
    /// What Go's decoder refuses, in its words.
    case syntax(String)
    /// A member named twice in one object (at the top level, also in another case).
    case duplicateMember(String)

    /// The one-line description.
    public var message: String {
      switch self {
      case .syntax(let message): message
      case .duplicateMember(let name):
        "duplicate member \"\(name.prefix(64))\" in a JSON object (names must be unique)"
      }
    }
  }

  /// One pass over the text: strings skipped with their escapes, commas before a closing
  /// bracket caught, and each object's member names collected.
  private struct Scanner {
    /// The names met so far in each open object, `nil` for an open array.
    private var open: [Set<[UInt8]>?] = []
    /// Whether the next string in the innermost object is a member's name.
    private var expectingName = false

    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Problem? {
      var index = 0
      var lastSignificant: UInt8 = 0
      while index < bytes.count {
        let byte = bytes[index]
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D:
          index += 1
          continue
        case UInt8(ascii: "\""):
          let start = index + 1
          index = Self.endOfString(bytes, from: start)
          if expectingName, let problem = name(bytes[start..<min(index, bytes.count)]) {
            return problem
          }
          expectingName = false
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          open.append(byte == UInt8(ascii: "{") ? [] : nil)
          expectingName = byte == UInt8(ascii: "{")
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          if lastSignificant == UInt8(ascii: ",") {
            return .syntax(
              "invalid character '\(Character(UnicodeScalar(byte)))' looking for beginning of value"
            )
          }
          _ = open.popLast()
          expectingName = false
        case UInt8(ascii: ","):
          expectingName = open.last.map { $0 != nil } ?? false
        default:
          break
        }
        lastSignificant = byte
        index += 1
      }
      return nil
    }

    /// Records a member's name (its bytes between the quotes); a problem if the object has it.
    private mutating func name(_ raw: Slice<UnsafeBufferPointer<UInt8>>) -> Problem? {
      guard open.count <= StrictJSON.maximumDepth, var names = open.last ?? nil else { return nil }
      let key: [UInt8]
      if open.count == 1, raw.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\\") }) {
        // Plain ASCII folds as ASCII: upper- then lowercasing it is lowercasing it.
        key = raw.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
      } else {
        let text = Self.decoded(raw)
        // Go folds case where it matches struct fields: at the top level.
        key = open.count == 1 ? Array(text.uppercased().lowercased().utf8) : Array(text.utf8)
      }
      guard names.insert(key).inserted else { return .duplicateMember(Self.decoded(raw)) }
      open[open.count - 1] = names
      return nil
    }

    /// The index of the closing quote of the string starting at `start`.
    private static func endOfString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
      var index = start
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "\\"): index += 2
        case UInt8(ascii: "\""): return index
        default: index += 1
        }
      }
      return bytes.count
    }

    /// A name's text, its escapes (`\u0061`) read by Foundation's decoder.
    private static func decoded(_ raw: Slice<UnsafeBufferPointer<UInt8>>) -> String {
      guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
      let quoted = [UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]
      return (try? JSONDecoder().decode(String.self, from: Data(quoted)))
        ?? String(decoding: raw, as: UTF8.self)
    }
  }
}
