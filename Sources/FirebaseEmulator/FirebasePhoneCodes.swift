/// Phone sign-in's waiting codes and temporary proofs, by the keyed hash of their session (or
/// of the proof itself): no plaintext code, session or proof is kept here. A code works once,
/// until it expires; a proof works once, for an hour.
struct FirebasePhoneCodes: Sendable {
  /// A texted code waiting for its session.
  struct Waiting: Sendable {
    /// The number, as the store keeps it (digits).
    var phone: String
    /// The keyed hash of the code (with its session).
    var codeHash: [UInt8]
    /// When it was texted, Unix milliseconds.
    var createdAt: Int64
    /// When it stops working, Unix milliseconds.
    var expiresAt: Int64
  }

  /// A proof that a number was verified, from a sign-in that could not link it.
  struct Proof: Sendable {
    /// The number, as the store keeps it (digits).
    var phone: String
    /// When it stops working, Unix milliseconds.
    var expiresAt: Int64
  }

  /// The codes waiting, by the hash of their session.
  var waiting: [[UInt8]: Waiting] = [:]
  /// The proofs, by their hash.
  var proofs: [[UInt8]: Proof] = [:]

  /// How many of each are kept; past it the oldest go first.
  static let capacity = 1_000

  /// Keeps `code` for `session`, forgetting expired ones and, past the capacity, the oldest.
  mutating func keep(_ code: Waiting, for session: [UInt8], now: Int64) {
    waiting = waiting.filter { $0.value.expiresAt > now }
    if waiting.count >= Self.capacity,
      let oldest = waiting.min(by: { $0.value.createdAt < $1.value.createdAt })
    {
      waiting[oldest.key] = nil
    }
    waiting[session] = code
  }

  /// Keeps `proof`, forgetting expired ones and, past the capacity, the one ending first.
  mutating func keep(_ proof: Proof, as hash: [UInt8], now: Int64) {
    proofs = proofs.filter { $0.value.expiresAt > now }
    if proofs.count >= Self.capacity,
      let first = proofs.min(by: { $0.value.expiresAt < $1.value.expiresAt })
    {
      proofs[first.key] = nil
    }
    proofs[hash] = proof
  }
}
