import CommandLineOptions

extension EngineSetting {
  /// A switch as GoTrue's variables (Go's `strconv.ParseBool`) and the command line write it.
  static func onOff(_ value: String) throws(OptionValueError) -> Bool {
    switch value.lowercased() {
    case "on", "true", "t", "1": return true
    case "off", "false", "f", "0": return false
    default: throw OptionValueError(expected: "on or off (or true or false)")
    }
  }
}
