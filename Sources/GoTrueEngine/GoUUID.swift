/// UUIDs read as GoTrue reads them (gofrs/uuid v4's `FromString`, also what Go's JSON decoder
/// calls for a `uuid.UUID` field): canonical, 32 hex digits, either in braces, or after
/// `urn:uuid:`, in either case.
package enum GoUUID {
  /// Why a text is not a UUID, in gofrs/uuid's words.
  package struct Invalid: Error, Equatable {
    /// The library's message.
    package var message: String
  }

  /// The canonical lowercase form of `text`, or gofrs/uuid's error.
  package static func parse(_ text: String) -> Result<String, Invalid> {
    let bytes = Array(text.utf8)
    switch bytes.count {
    case 32, 36: return plain(bytes)
    case 34, 38:
      guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else {
        return .failure(format(bytes))
      }
      return plain(Array(bytes.dropFirst().dropLast()))
    case 41, 45:
      guard bytes.prefix(9).elementsEqual("urn:uuid:".utf8) else { return .failure(format(bytes)) }
      return plain(Array(bytes.dropFirst(9)))
    default:
      return .failure(length(bytes))
    }
  }

  private static func plain(_ bytes: [UInt8]) -> Result<String, Invalid> {
    var digits: [UInt8]
    switch bytes.count {
    case 32: digits = bytes
    case 36:
      guard [8, 13, 18, 23].allSatisfy({ bytes[$0] == UInt8(ascii: "-") }) else {
        return .failure(format(bytes))
      }
      digits = bytes.enumerated().filter { ![8, 13, 18, 23].contains($0.offset) }.map(\.element)
    default: return .failure(length(bytes))
    }
    var lowered: [UInt8] = []
    for byte in digits {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"):
        lowered.append(byte)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): lowered.append(byte + 0x20)
      default:
        // encoding/hex's InvalidByteError, `%#U` of the byte.
        let code = String(byte, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: 4 - code.count) + code
        let scalar = Unicode.Scalar(byte)
        let shown = GoText.isPrintable(scalar) ? " '\(Character(scalar))'" : ""
        return .failure(Invalid(message: "encoding/hex: invalid byte: U+\(padded)\(shown)"))
      }
    }
    var text = String(decoding: lowered, as: UTF8.self)
    for index in [8, 13, 18, 23] {
      text.insert("-", at: text.index(text.startIndex, offsetBy: index))
    }
    return .success(text)
  }

  private static func length(_ bytes: [UInt8]) -> Invalid {
    Invalid(
      message: "uuid: incorrect UUID length \(bytes.count) in string \(quoted(bytes))")
  }

  private static func format(_ bytes: [UInt8]) -> Invalid {
    Invalid(message: "uuid: incorrect UUID format in string \(quoted(bytes))")
  }

  private static func quoted(_ bytes: [UInt8]) -> String {
    GoText.quoted(String(decoding: bytes, as: UTF8.self))
  }
}
