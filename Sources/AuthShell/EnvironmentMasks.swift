import AuthFlow

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The values `$NAME` read from the environment, each written as its reference wherever output
/// would show it. A script names a variable to keep its value out of files, so the value must
/// not come back out through `show`, `--json`, an error, a failed `expect` or a recording: as CI
/// systems mask secrets in logs, what is written is scrubbed of each value (and of the forms the
/// shell shows it in: escaped for a terminal, JSON or a script line, normalized as an email),
/// longest first.
/// A value shorter than four bytes is left alone: it would mangle every line.
final class EnvironmentMasks {
  private struct Mask {
    var value: [UInt8]
    var name: String
    var reference: [UInt8]
  }

  private var masks: [Mask] = []
  private var seen: Set<String> = []

  /// The shortest value masked, in bytes.
  static let shortest = 4

  /// Whether nothing is masked: output is written as it is, at no cost.
  var isEmpty: Bool { masks.isEmpty }

  /// Masks `value`, read from the variable `name`, from now on.
  func add(_ value: String, name: String) {
    guard seen.insert(value).inserted else { return }
    let reference = Array(("$" + name).utf8)
    let given = Set([value, AuthValidation.normalizedEmail(value)])
    let shown = given.union(given.map(TerminalText.visible))
    let escaped = shown.compactMap(Self.jsonEscaped) + given.map(Self.lineEscaped)
    for form in shown.union(escaped) {
      let bytes = Array(form.utf8)
      guard bytes.count >= Self.shortest, !masks.contains(where: { $0.value == bytes }) else {
        continue
      }
      masks.append(Mask(value: bytes, name: name, reference: reference))
    }
    masks.sort { $0.value.count > $1.value.count }
  }

  /// `text` with each masked value replaced by its reference, `$NAME`.
  func apply(_ text: String) -> String {
    guard !masks.isEmpty else { return text }
    let bytes = Array(text.utf8)
    var scrubbed: [UInt8] = []
    scrubbed.reserveCapacity(bytes.count)
    var index = 0
    scanning: while index < bytes.count {
      for mask in masks
      where mask.value[0] == bytes[index] && bytes.count - index >= mask.value.count
        && bytes[index..<index + mask.value.count].elementsEqual(mask.value)
      {
        scrubbed += mask.reference
        index += mask.value.count
        continue scanning
      }
      scrubbed.append(bytes[index])
      index += 1
    }
    return String(decoding: scrubbed, as: UTF8.self)
  }

  /// Whether `text` holds a masked value.
  func covers(_ text: String) -> Bool {
    !masks.isEmpty && apply(text) != text
  }

  /// The variable whose value is `value`, if it is masked.
  func name(of value: String) -> String? {
    let bytes = Array(value.utf8)
    return masks.first { $0.value == bytes }?.name
  }

  /// `value` as a script line holds it, without the quotes (as a recording writes it).
  private static func lineEscaped(_ value: String) -> String {
    let quoted = Lexer.quote(value)
    return quoted == value ? value : String(quoted.dropFirst().dropLast())
  }

  /// `value` as a JSON string holds it, without the quotes (as `--json` writes it).
  private static func jsonEscaped(_ value: String) -> String? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    guard let data = try? encoder.encode(value), data.count >= 2 else { return nil }
    return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
  }
}

extension ShellSession {
  /// The value of the environment variable `name`, when it is set and not empty; from now on
  /// output shows it as `$NAME`.
  func environmentValue(_ name: String) -> String? {
    guard let value = environment[name], !value.isEmpty else { return nil }
    io.masks.add(value, name: name)
    return value
  }

  /// Keeps `value`, asked for because `$NAME` was not set, as the variable's for the lines
  /// after; it is masked as a value read is.
  func keep(_ value: String, as name: String) {
    environment[name] = value
    io.masks.add(value, name: name)
  }
}
