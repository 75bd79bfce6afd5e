import CToml

/// Why a TOML document could not be read: toml++'s description and the line.
public struct TOMLError: Error, Equatable, Sendable {
  /// The line of the error, from 1.
  public var line: Int
  /// What was wrong, in toml++'s words.
  public var description: String
}

/// Reads TOML with toml++ (Debian's `libtomlplusplus-dev`), a complete TOML 1.0 parser.
public enum TOMLReader {
  /// The document of `text`, its tables' entries in the order of the file; or where and why
  /// it is not TOML.
  public static func read(_ text: String) throws(TOMLError) -> TOMLTable {
    let builder = Builder()
    let errorSize = 256
    var error = [CChar](repeating: 0, count: errorSize)
    var errorLine: UInt32 = 0
    var bytes = Array(text.utf8)
    if bytes.isEmpty { bytes = [0] }  // a valid pointer for an empty document
    let status = bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { chars in
        ctoml_read(
          chars.baseAddress, text.utf8.count,
          { item, context in
            guard let item, let context else { return }
            Unmanaged<Builder>.fromOpaque(context).takeUnretainedValue().add(item.pointee)
          }, Unmanaged.passUnretained(builder).toOpaque(), &error, errorSize, &errorLine)
      }
    }
    guard status == 0 else {
      let description = String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
      throw TOMLError(line: Int(errorLine), description: description)
    }
    return builder.root()
  }

  /// Builds the tree from toml++'s items: a stack of the tables and arrays still open.
  private final class Builder {
    private enum Open {
      case table(key: String?, line: Int, entries: [TOMLEntry])
      case array(key: String?, line: Int, values: [TOMLValue])
    }

    private var stack: [Open] = [.table(key: nil, line: 0, entries: [])]

    func add(_ item: ctoml_item) {
      let key = Self.text(item.key, item.key_length)
      let line = Int(item.line)
      switch item.kind {
      case CTOML_TABLE: stack.append(.table(key: key, line: line, entries: []))
      case CTOML_ARRAY: stack.append(.array(key: key, line: line, values: []))
      case CTOML_END:
        guard stack.count > 1, let closed = stack.popLast() else { return }
        switch closed {
        case .table(let key, let line, let entries):
          append(.table(TOMLTable(Self.inFileOrder(entries))), key: key, line: line)
        case .array(let key, let line, let values):
          append(.array(values), key: key, line: line)
        }
      case CTOML_STRING:
        append(.string(Self.text(item.text, item.text_length) ?? ""), key: key, line: line)
      case CTOML_INTEGER: append(.integer(Int64(item.integer)), key: key, line: line)
      case CTOML_FLOAT: append(.float(item.number), key: key, line: line)
      case CTOML_BOOLEAN: append(.boolean(item.boolean != 0), key: key, line: line)
      default:
        append(.dateTime(Self.text(item.text, item.text_length) ?? ""), key: key, line: line)
      }
    }

    func root() -> TOMLTable {
      guard case .table(_, _, let entries) = stack.first else { return TOMLTable() }
      return TOMLTable(Self.inFileOrder(entries))
    }

    private func append(_ value: TOMLValue, key: String?, line: Int) {
      guard let top = stack.popLast() else { return }
      switch top {
      case .table(let tableKey, let tableLine, var entries):
        entries.append(TOMLEntry(key: key ?? "", value: value, line: line))
        stack.append(.table(key: tableKey, line: tableLine, entries: entries))
      case .array(let arrayKey, let arrayLine, var values):
        values.append(value)
        stack.append(.array(key: arrayKey, line: arrayLine, values: values))
      }
    }

    /// toml++ keeps a table's keys sorted; the file's order is the order of their lines.
    private static func inFileOrder(_ entries: [TOMLEntry]) -> [TOMLEntry] {
      entries.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
        .map(\.element)
    }

    private static func text(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> String? {
      guard let pointer else { return nil }
      return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
      }
    }
  }
}
