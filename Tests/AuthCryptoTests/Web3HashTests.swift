import Testing

@testable import AuthCrypto

/// Keccak-256 (nettle's permutation) and secp256k1's key recovery (libsecp256k1), as Ethereum
/// signs in.
struct Web3HashTests {
  private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }

  @Test func keccak256MatchesEthereumsKnownDigests() {
    #expect(
      hex(Keccak256.hash([UInt8]()))
        == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
    #expect(
      hex(Keccak256.hash(Array("abc".utf8)))
        == "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45")
    // 135 bytes leave room for the padding in their block; 136 fill it, and the padding
    // takes a block of its own (digests from eth-hash).
    #expect(
      hex(Keccak256.hash([UInt8](repeating: 0x61, count: 135)))
        == "34367dc248bbd832f4e3e69dfaac2f92638bd0bbd18f2912ba4ef454919cf446")
    #expect(
      hex(Keccak256.hash([UInt8](repeating: 0x61, count: 136)))
        == "a6c4d403279fe3e0af03729caada8374b5ca54d8065329a3ebcaeb4b60aa386e")
  }

  @Test func aKnownKeysSignatureRecoversToItsAddress() throws {
    // The private key 1's signature over Ethereum's hash of "hello", made by eth-account 0.14
    // (`Account.sign_message(encode_defunct(text="hello"), key)`); its address is
    // 0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf.
    let hash = Keccak256.hash(Array("\u{19}Ethereum Signed Message:\n5hello".utf8))
    var signature = try #require(
      Self.bytes(
        "e5ddc160e4c8f92de507c7db9b982d4f9b7197bfa421864aeadc586bc96b09ae0ba0c5b131650ae4994cff"
          + "1839341d00f3735ef5abc62ac8fe2cf50f65208e2a1b"))
    let key = try #require(Secp256k1.recoverPublicKey(signature: signature, hash: hash))
    #expect(
      hex(Secp256k1.ethereumAddress(ofPublicKey: key)) == "7e5f4552091a69125d5dfcb7b8c2659029395bdf"
    )
    // The recovery id as 0 rather than 27 is the same signature.
    signature[64] -= 27
    #expect(Secp256k1.recoverPublicKey(signature: signature, hash: hash) == key)
    // Another recovery id gives another key; one past 3 none, and libsecp256k1 is not asked.
    signature[64] = 1
    #expect(Secp256k1.recoverPublicKey(signature: signature, hash: hash) != key)
    signature[64] = 4
    #expect(Secp256k1.recoverPublicKey(signature: signature, hash: hash) == nil)
    #expect(
      Secp256k1.recoverPublicKey(signature: [UInt8](repeating: 0, count: 65), hash: hash) == nil)
  }

  static func bytes(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
      let next = text.index(index, offsetBy: 2)
      guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    return bytes
  }
}
