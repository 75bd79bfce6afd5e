import COpenSSL

/// The parts of a key as libcrypto's `OSSL_PARAM` array (`OSSL_PARAM_BLD`), for
/// `EVP_PKEY_fromdata`: big-endian numbers, UTF-8 strings and octet strings, each by name.
struct KeyParameters {
  /// Big-endian unsigned integers (`n`, `e`, `d`, `priv`…).
  var numbers: [(String, [UInt8])]
  /// UTF-8 strings (`group`).
  var strings: [(String, String)] = []
  /// Octet strings (`pub`).
  var octets: [(String, [UInt8])] = []

  /// Runs `body` with the parameters; `nil` when libcrypto cannot build them.
  ///
  /// The builder keeps its names, strings and octets by reference, and the array it builds
  /// points at the names, so all of them are copied into memory that outlives `body`;
  /// numbers are cleared when freed, as they may be private.
  func withParameters<T>(_ body: (UnsafeMutablePointer<OSSL_PARAM>) -> T?) -> T? {
    guard let builder = OSSL_PARAM_BLD_new() else { return nil }
    defer { OSSL_PARAM_BLD_free(builder) }
    var memory = CMemory()
    defer { memory.free() }
    var bignums: [OpaquePointer] = []
    defer { bignums.forEach { BN_clear_free($0) } }
    for (name, bytes) in numbers {
      guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { return nil }
      bignums.append(number)
      guard OSSL_PARAM_BLD_push_BN(builder, memory.string(name), number) == 1 else { return nil }
    }
    for (name, value) in strings {
      let copy = memory.string(value)
      guard OSSL_PARAM_BLD_push_utf8_string(builder, memory.string(name), copy, 0) == 1 else {
        return nil
      }
    }
    for (name, bytes) in octets {
      let copy = memory.bytes(bytes)
      guard OSSL_PARAM_BLD_push_octet_string(builder, memory.string(name), copy, bytes.count) == 1
      else { return nil }
    }
    guard let parameters = OSSL_PARAM_BLD_to_param(builder) else { return nil }
    defer { OSSL_PARAM_free(parameters) }
    return body(parameters)
  }
}

/// Copies of Swift strings and bytes in memory of fixed address, freed (and zeroed) together.
private struct CMemory {
  private var blocks: [(start: UnsafeMutablePointer<UInt8>, count: Int)] = []

  /// A NUL-terminated copy of `text`.
  mutating func string(_ text: String) -> UnsafePointer<CChar> {
    UnsafeRawPointer(copy(Array(text.utf8) + [0])).assumingMemoryBound(to: CChar.self)
  }

  /// A copy of `bytes`.
  mutating func bytes(_ bytes: [UInt8]) -> UnsafeRawPointer {
    UnsafeRawPointer(copy(bytes))
  }

  private mutating func copy(_ bytes: [UInt8]) -> UnsafeMutablePointer<UInt8> {
    let start = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
    start.initialize(from: bytes, count: bytes.count)
    blocks.append((start, bytes.count))
    return start
  }

  /// Zeroes and frees every copy.
  func free() {
    for block in blocks {
      OPENSSL_cleanse(block.start, block.count)
      block.start.deallocate()
    }
  }
}
