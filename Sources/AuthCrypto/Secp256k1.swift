import CSecp256k1

/// The secp256k1 curve's public-key recovery through libsecp256k1, as Ethereum checks a
/// signature: the signer's key is found from the signature and the hash, then compared.
public enum Secp256k1 {
  /// The 65-byte uncompressed public key (`0x04‖x‖y`) that made `signature` over the 32-byte
  /// `hash`, or `nil` when none could. `signature` is `r‖s‖v`, 65 bytes, `v` the recovery id
  /// 0 to 3 (27 and 28, as wallets write them, are read as 0 and 1; go-ethereum's `Ecrecover`
  /// takes the same).
  public static func recoverPublicKey(signature: [UInt8], hash: [UInt8]) -> [UInt8]? {
    guard signature.count == 65, hash.count == 32 else { return nil }
    var recovery = Int32(signature[64])
    if recovery >= 27 { recovery -= 27 }
    // libsecp256k1 aborts the process on an id outside 0...3 (an illegal argument).
    guard (0...3).contains(recovery),
      let context = secp256k1_context_create(csecp256k1_context_none())
    else { return nil }
    defer { secp256k1_context_destroy(context) }
    var parsed = secp256k1_ecdsa_recoverable_signature()
    var key = secp256k1_pubkey()
    let compact = Array(signature.prefix(64))
    guard
      secp256k1_ecdsa_recoverable_signature_parse_compact(context, &parsed, compact, recovery)
        == 1,
      secp256k1_ecdsa_recover(context, &key, &parsed, hash) == 1
    else { return nil }
    var output = [UInt8](repeating: 0, count: 65)
    var length = output.count
    guard
      secp256k1_ec_pubkey_serialize(
        context, &output, &length, &key, csecp256k1_uncompressed()) == 1,
      length == 65
    else { return nil }
    return output
  }

  /// The Ethereum address of an uncompressed public key: the last 20 bytes of the Keccak-256 of
  /// its coordinates.
  public static func ethereumAddress(ofPublicKey key: [UInt8]) -> [UInt8] {
    Array(Keccak256.hash(key.dropFirst()).suffix(20))
  }
}
