import CommandLineOptions
import GoTrueEngine

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ServeOptions {
  /// Every option, in the order `--help` lists them: the table's, then the signing keys'.
  static let allOptions = table + signingKeyOptions + hookOptions

  /// The options of GoTrue's asymmetric signing keys: `JWT_KEYS`, `JWT_KEY_ID` and
  /// `JWT_VALID_METHODS` (`conf/configuration.go`, `conf/jwk.go`).
  static let signingKeyOptions: [OptionSpec<ServeOptions>] = [
    OptionSpec(
      ["--jwt-keys"], "FILE|JSON",
      [
        "sign tokens with the private JWKs in FILE: a JSON array (RSA, EC,",
        "OKP, oct) in which one key lists \"sign\" in key_ops; the variable",
        "holds the JSON itself, as GoTrue's; /.well-known/jwks.json lists",
        "their public halves",
      ], section: "GoTrue", environment: "GOTRUE_JWT_KEYS",
      config: ConfigKey("auth.signing_keys_path", .file)
    ) { options, value throws(OptionValueError) in
      options.settings.engine.jwtKeys = try signingKeys(value)
    },
    OptionSpec(
      ["--jwt-key-id"], "KID",
      ["the kid of the --jwt-secret key, named in the tokens it signs"],
      section: "GoTrue", environment: "GOTRUE_JWT_KEY_ID"
    ) { options, value in options.settings.engine.jwtKeyID = value },
    OptionSpec(
      ["--jwt-valid-methods"], "ALGS",
      [
        "the algorithms bearer tokens may use, comma-separated (default:",
        "the keys'; the Supabase CLI's HS256,RS256,ES256 keeps HS256 working)",
      ], section: "GoTrue", environment: "GOTRUE_JWT_VALID_METHODS"
    ) { options, value throws(OptionValueError) in
      options.settings.engine.jwtValidMethods = try validMethods(value)
    },
  ]

  /// The keys of `value`: JSON text when it starts as JSON does, else a file's path.
  private static func signingKeys(_ value: String) throws(OptionValueError) -> JWTKeys? {
    let expected = "a JSON array of private JWKs (GoTrue's GOTRUE_JWT_KEYS) or a file of one"
    let text: [UInt8]
    if value.drop(while: \.isWhitespace).first.map({ "[{".contains($0) }) == true {
      text = Array(value.utf8)
    } else {
      do {
        text = Array(try Data(contentsOf: URL(fileURLWithPath: value)))
      } catch {
        // NB: the value is not repeated: it may be key material that is not JSON.
        throw OptionValueError(expected: "\(expected); this is neither JSON nor a file it can read")
      }
    }
    do {
      return try JWTKeys.parse(text)
    } catch {
      throw OptionValueError(expected: "\(expected); this one \(error.message)")
    }
  }

  /// The algorithms of a comma-separated list.
  private static func validMethods(_ value: String) throws(OptionValueError) -> JWTAlgorithmSet {
    let known = JWTAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
    var methods = JWTAlgorithmSet([])
    for name in value.split(separator: ",") {
      let trimmed = String(name.filter { !$0.isWhitespace })
      guard let algorithm = JWTAlgorithm(rawValue: trimmed) else {
        throw OptionValueError(
          expected: "algorithms from \(known), comma-separated, not '\(trimmed.prefix(20))'")
      }
      methods.insert(algorithm)
    }
    guard !methods.algorithms.isEmpty else {
      throw OptionValueError(expected: "algorithms from \(known), comma-separated")
    }
    return methods
  }
}
