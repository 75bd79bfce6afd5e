import Synchronization

/// Where secrets, salts, identifiers and codes get their randomness; injected so tests and
/// golden transcripts can be reproducible.
public protocol RandomSource: Sendable {
  /// `count` random bytes.
  func bytes(_ count: Int) -> [UInt8]
}

/// The operating system's CSPRNG (`getrandom`), through the standard library.
public struct SystemRandom: RandomSource {
  /// The system generator.
  public init() {}

  /// `count` bytes from the kernel.
  public func bytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var output: [UInt8] = []
    output.reserveCapacity(count + 7)
    while output.count < count {
      withUnsafeBytes(of: generator.next() as UInt64) { output.append(contentsOf: $0) }
    }
    return Array(output.prefix(count))
  }
}

/// A deterministic stream derived from a seed with HMAC-SHA256 in counter mode.
///
/// The same seed always gives the same bytes, which is what golden transcripts need and exactly
/// what makes it unsafe anywhere else: anyone who knows the seed knows every secret.
public final class SeededRandom: RandomSource {
  private struct State {
    var counter: UInt64 = 0
    var buffer: [UInt8] = []
  }

  private let key: [UInt8]
  private let state = Mutex(State())

  /// A stream determined by `seed`.
  public init(seed: UInt64) {
    key = SHA256.hash(withUnsafeBytes(of: seed.littleEndian) { Array($0) })
  }

  /// The next `count` bytes of the stream.
  public func bytes(_ count: Int) -> [UInt8] {
    state.withLock { state in
      while state.buffer.count < count {
        let block = withUnsafeBytes(of: state.counter.littleEndian) { Array($0) }
        state.buffer += HMAC.sha256(key: key, message: block)
        state.counter += 1
      }
      defer { state.buffer.removeFirst(count) }
      return Array(state.buffer.prefix(count))
    }
  }
}

extension RandomSource {
  /// A uniformly random integer in `0..<bound`, without modulo bias.
  public func uniform(below bound: UInt32) -> UInt32 {
    precondition(bound > 0)
    let limit = UInt32.max - UInt32.max % bound
    while true {
      let value = bytes(4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
      if value < limit { return value % bound }
    }
  }

  /// A string of `count` random decimal digits, as in an emailed code.
  public func digits(_ count: Int) -> String {
    String((0..<count).map { _ in Character(String(uniform(below: 10))) })
  }

  /// A random (version 4) UUID in lowercase text form.
  public func uuidString() -> String {
    var raw = bytes(16)
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    let hex = raw.hexString
    let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
      let start = hex.index(hex.startIndex, offsetBy: range.lowerBound)
      let end = hex.index(hex.startIndex, offsetBy: range.upperBound)
      return hex[start..<end]
    }
    return parts.joined(separator: "-")
  }

  /// `count` random bytes as URL-safe base64 text, for opaque tokens.
  public func token(byteCount count: Int) -> String {
    Base64URL.encode(bytes(count))
  }
}

/// The system's randomness for the secrets a seeded run must not make predictable (a signing
/// key, refresh tokens, TOTP secrets), drawn in step with `stream`: each draw takes as many
/// bytes from `stream` as it gives, so everything else the stream gives (codes, ids) stays
/// what it was without it, and a seeded run stays reproducible where tests compare it.
public struct UnpredictableRandom: RandomSource {
  private let stream: any RandomSource

  /// Bytes from the system, drawn in step with `stream`.
  public init(inStepWith stream: any RandomSource) {
    self.stream = stream
  }

  /// `count` bytes from the kernel, after `count` from the stream.
  public func bytes(_ count: Int) -> [UInt8] {
    _ = stream.bytes(count)
    return SystemRandom().bytes(count)
  }
}
