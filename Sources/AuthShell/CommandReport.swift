import AuthFlow

/// The `--json` object of one command: the state after it (the same snapshot the screen is
/// rendered from), with every secret masked.
struct CommandReport: Encodable {
  var line: Int
  var command: String
  var ok: Bool
  var problem: String?
  var state: String
  var consent: Bool?
  var pendingEmail: String?
  var fields: [String: String]
  var error: String?
  var banner: Banner?
  var signedIn: String?
  var canSubmit: Bool
  var network: String
  var output: [String]

  struct Banner: Encodable {
    var kind: String
    var message: String
  }

  enum CodingKeys: String, CodingKey {
    case line, command, ok, problem, state, consent, fields, error, banner, network, output
    case pendingEmail = "pending_email"
    case signedIn = "signed_in"
    case canSubmit = "can_submit"
  }

  init(line: Int, command: String, problem: String?, state flow: AuthFlowState, output: [String]) {
    self.line = line
    self.command = command
    ok = problem == nil
    self.problem = problem
    let navigation = flow.navigation
    state = navigation.screen.rawValue
    if case .signup(let accepted) = navigation { consent = accepted }
    if case .resetVerify(let email) = navigation { pendingEmail = email }
    var fields: [String: String] = [:]
    for field in AuthField.allCases {
      let value = flow.form[field]
      fields[field.commandName] = field.isSecret && !value.isEmpty ? Redaction.mask : value
    }
    self.fields = fields
    error = flow.errorMessage
    banner = flow.banner.map { Banner(kind: $0.kind.rawValue, message: $0.message) }
    signedIn = flow.session?.user.email
    canSubmit = flow.canSubmit
    network = flow.network.rawValue
    self.output = output
  }

  /// Encodes every key, with `null` for absent values, so each object has the same shape.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(line, forKey: .line)
    try container.encode(command, forKey: .command)
    try container.encode(ok, forKey: .ok)
    try container.encode(problem, forKey: .problem)
    try container.encode(state, forKey: .state)
    try container.encode(consent, forKey: .consent)
    try container.encode(pendingEmail, forKey: .pendingEmail)
    try container.encode(fields, forKey: .fields)
    try container.encode(error, forKey: .error)
    try container.encode(banner, forKey: .banner)
    try container.encode(signedIn, forKey: .signedIn)
    try container.encode(canSubmit, forKey: .canSubmit)
    try container.encode(network, forKey: .network)
    try container.encode(output, forKey: .output)
  }
}
