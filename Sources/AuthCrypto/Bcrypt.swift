import CCrypt

#if canImport(Glibc)
  import Glibc
#endif

/// bcrypt password hashing through libcrypt (`$2b$`, as GoTrue stores `encrypted_password`).
public enum Bcrypt {
  /// GoTrue's cost (`bcrypt.DefaultCost`); each step doubles the work.
  public static let defaultCost = 10
  /// The smallest cost bcrypt accepts; for tests only.
  public static let minimumCost = 4
  /// The largest cost bcrypt accepts.
  public static let maximumCost = 31

  /// Why a password could not be hashed.
  public enum Failure: Error, Equatable, Sendable {
    /// The cost is outside 4...31.
    case costOutOfRange(Int)
    /// The password holds a NUL byte, which C strings cannot carry.
    case passwordContainsNUL
    /// libcrypt refused (out of memory, or no bcrypt support).
    case libraryFailure
  }

  /// Hashes `password` with a fresh salt drawn from `random`.
  public static func hash(
    _ password: String, cost: Int = defaultCost, random: some RandomSource
  ) throws(Failure) -> String {
    guard (minimumCost...maximumCost).contains(cost) else { throw .costOutOfRange(cost) }
    guard !password.utf8.contains(0) else { throw .passwordContainsNUL }
    let saltBytes = random.bytes(16)
    let setting: UnsafeMutablePointer<CChar>? = saltBytes.withUnsafeBufferPointer { salt in
      salt.withMemoryRebound(to: CChar.self) { salt in
        crypt_gensalt_ra("$2b$", UInt(cost), salt.baseAddress, Int32(salt.count))
      }
    }
    guard let setting else { throw .libraryFailure }
    defer { free(setting) }
    guard let hash = crypt(password, setting: setting), hash.hasPrefix("$2b$") else {
      throw .libraryFailure
    }
    return hash
  }

  /// Whether `password` matches `hash`, compared in constant time; `false` for a malformed hash.
  public static func verify(_ password: String, against hash: String) -> Bool {
    guard !password.utf8.contains(0), hash.hasPrefix("$2"),
      let computed = hash.withCString({ crypt(password, setting: $0) })
    else { return false }
    return constantTimeEquals(Array(computed.utf8), Array(hash.utf8))
  }

  /// The cost recorded in `hash`, or `nil` when it is not a bcrypt hash.
  public static func cost(of hash: String) -> Int? {
    let parts = hash.split(separator: "$", omittingEmptySubsequences: true)
    guard parts.count == 3, parts[0].hasPrefix("2"), let cost = Int(parts[1]) else { return nil }
    return cost
  }

  private static func crypt(_ password: String, setting: UnsafePointer<CChar>) -> String? {
    // NB: crypt_data is about 32 KiB; keep it off the stack and zero it as libcrypt asks.
    let size = MemoryLayout<crypt_data>.size
    let data = UnsafeMutableRawPointer.allocate(
      byteCount: size, alignment: MemoryLayout<crypt_data>.alignment)
    data.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    defer {
      data.initializeMemory(as: UInt8.self, repeating: 0, count: size)
      data.deallocate()
    }
    guard let output = crypt_rn(password, setting, data, Int32(size)) else { return nil }
    let result = String(cString: output)
    // libcrypt signals failure with a string starting with "*".
    return result.hasPrefix("*") ? nil : result
  }
}
