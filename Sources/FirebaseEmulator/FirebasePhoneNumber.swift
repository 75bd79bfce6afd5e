import GoTrueEngine
import IdentityToolkit

/// Phone numbers on the Firebase surface: the emulator's check (`+` first, `utils.ts`
/// `isValidPhoneNumber`), then GoTrue's E.164 reading (``PhoneRules``), so that every number
/// kept works on both surfaces. The store keeps GoTrue's digits; Firebase shows them after a
/// `+`.
enum FirebasePhoneNumber {
  /// `number` as the store keeps it, or `INVALID_PHONE_NUMBER : Invalid format.`.
  static func stored(_ number: String) throws(IdentityToolkitError) -> String {
    guard let digits = digits(number) else {
      throw .badRequest(.invalidPhoneNumber, "Invalid format.")
    }
    return digits
  }

  /// `number`'s digits as the store keeps them, or `nil` when it is no E.164 number with its
  /// `+`.
  static func digits(_ number: String) -> String? {
    guard number.hasPrefix("+") else { return nil }
    return try? PhoneRules.normalized(number)
  }

  /// A stored number as Firebase shows it (`+15555550100`).
  static func shown(_ digits: String) -> String { "+" + digits }
}
