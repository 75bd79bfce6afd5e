import CNettle

/// Keccak-256, Ethereum's hash: the Keccak sponge of SHA3-256's rate (136 bytes) with Keccak's
/// original padding (`0x01 … 0x80`), where SHA3-256 pads with `0x06`. The Keccak-f[1600]
/// permutation is nettle's (`sha3_permute`, exported as `nettle_sha3_permute`); only the sponge
/// around it is here.
public enum Keccak256 {
  /// The digest size in bytes.
  public static let byteCount = 32
  /// The bytes absorbed per permutation: 1600 bits less twice the digest's.
  static let rate = 136

  /// The Keccak-256 digest of `bytes`.
  public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
    var padded = Array(bytes)
    padded.append(0x01)
    padded += [UInt8](repeating: 0, count: (rate - padded.count % rate) % rate)
    padded[padded.count - 1] |= 0x80
    var state = sha3_state()
    for block in stride(from: 0, to: padded.count, by: rate) {
      withUnsafeMutableBytes(of: &state.a) { lanes in
        // Each lane is a 64-bit word whose bytes the sponge numbers little-endian first.
        for lane in 0..<(rate / 8) {
          var word: UInt64 = 0
          for byte in 0..<8 {
            word |= UInt64(padded[block + lane * 8 + byte]) << (8 * byte)
          }
          let old = lanes.load(fromByteOffset: lane * 8, as: UInt64.self)
          lanes.storeBytes(of: old ^ word, toByteOffset: lane * 8, as: UInt64.self)
        }
      }
      nettle_sha3_permute(&state)
    }
    return withUnsafeBytes(of: &state.a) { lanes in
      (0..<byteCount).map { index in
        let word = lanes.load(fromByteOffset: index / 8 * 8, as: UInt64.self)
        return UInt8(truncatingIfNeeded: word >> (8 * (index % 8)))
      }
    }
  }
}
