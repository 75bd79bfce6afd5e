import AuthCrypto
import GoTrueEngine
import IdentityToolkit

/// A verification code the emulation would have texted, as the emulator's
/// `verificationCodes` lists it.
package struct FirebaseTextedCode: Equatable, Sendable {
  /// The number it went to, E.164 with its `+`.
  package var phoneNumber: String
  /// The session it belongs to (what `sendVerificationCode` answered).
  package var sessionInfo: String
  /// The six digits.
  package var code: String

  /// An entry with the given parts.
  package init(phoneNumber: String, sessionInfo: String, code: String) {
    self.phoneNumber = phoneNumber
    self.sessionInfo = sessionInfo
    self.code = code
  }

  /// The text the emulator logs in its stead: `To verify the phone number …, use the code …`.
  package var message: String { "To verify the phone number \(phoneNumber), use the code \(code)." }
}

/// Texting: nothing leaves the machine. A code "sent" is kept, in plain, in this process's
/// memory only (never in the store, never on disk): in the list the emulator's
/// `verificationCodes` answers, and as a text in the engine's SMS outbox beside GoTrue's, where
/// serve's mailbox API, its page and the shell's `mail` read it.
extension FirebaseEmulation {
  /// Sends `texted`: the one place a text leaves the emulation.
  func text(_ texted: FirebaseTextedCode) {
    state.texts.withLock { texts in
      texts.append(texted)
      texts.removeFirst(max(0, texts.count - FirebasePhoneCodes.capacity))
    }
    engine.smsOutbox.send(
      to: texted.phoneNumber, code: texted.code, kind: .verificationCode, body: texted.message,
      at: engine.clock.now)
  }

  /// The texted codes that still wait, oldest first (the emulator's `verificationCodes`):
  /// used and expired ones leave the list.
  package func verificationCodes() -> [FirebaseTextedCode] {
    let now = engine.nowMillis
    let waiting = state.phoneCodes.withLock { codes in
      codes.waiting.filter { $0.value.expiresAt > now }
    }
    return state.texts.withLock { texts in
      texts.removeAll { waiting[sessionHash($0.sessionInfo)] == nil }
      return texts
    }
  }

  /// The keyed hash a session is found by, apart from every other code's.
  func sessionHash(_ sessionInfo: String) -> [UInt8] {
    HMAC.sha256(key: engine.secrets.codes, message: Array("phone-session:\(sessionInfo)".utf8))
  }

  /// The keyed hash of `code` sent with `sessionInfo`.
  func phoneCodeHash(_ code: String, sessionInfo: String) -> [UInt8] {
    HMAC.sha256(
      key: engine.secrets.codes, message: Array("phone-code:\(sessionInfo):\(code)".utf8))
  }

  /// The keyed hash a temporary proof is found by.
  func proofHash(_ proof: String) -> [UInt8] {
    HMAC.sha256(key: engine.secrets.codes, message: Array("phone-proof:\(proof)".utf8))
  }
}
