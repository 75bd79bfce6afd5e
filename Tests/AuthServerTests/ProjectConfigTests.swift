import Foundation
import GoTrueEngine
import Testing

@testable import AuthServer

/// `authflow serve --config`: a Firebase project's firebase.json and .firebaserc, or a
/// Supabase project's supabase/config.toml, give serve's options; the command line and GoTrue's
/// variables win; what serve does not support is named in one warning line; a bad value is one
/// line naming the file, the line and the key.
struct ProjectConfigTests {
  private static let projects = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "examples/projects")
  private static let supabase = projects.appending(path: "supabase").path
  private static let firebase = projects.appending(path: "firebase").path

  @Test func theSupabaseExampleGivesItsAuthSettings() throws {
    let options = try ServeOptions.parse(["--config", Self.supabase], environment: [:])
    #expect(options.http.port == 54_321)
    #expect(options.settings.engine.siteURL == "http://127.0.0.1:3000")
    #expect(options.settings.engine.accessTokenLifetime == 1_800)
    #expect(options.settings.engine.refreshTokenReuseInterval == 10)
    #expect(!options.settings.engine.disableSignup)
    #expect(options.settings.engine.anonymousSignIns)
    #expect(!options.settings.engine.manualLinking)
    #expect(options.settings.engine.minimumPasswordLength == 8)
    #expect(!options.settings.engine.autoconfirm)
    #expect(options.settings.engine.passwordChangeNeedsReauthentication)
    #expect(options.settings.engine.emailInterval == 1)
    #expect(
      options.settings.engine.redirectAllowList.map(\.text)
        == ["https://127.0.0.1:3000", "volvoxsober://auth/verify"])
    #expect(options.settings.engine.codeLifetime == 3_600)
    #expect(options.settings.engine.emailProvider)
    #expect(!options.settings.engine.phoneProvider)
    // [auth.sms]: the CLI's confirmations off are GoTrue's SMS autoconfirm.
    #expect(options.settings.engine.smsAutoconfirm)
    #expect(options.settings.engine.smsInterval == 5)
    #expect(options.settings.engine.smsTemplate == "Your code is {{ .Code }}")
    #expect(options.settings.engine.rateLimits.smsSent.capacity == 30)
    #expect(options.settings.engine.rateLimits.emailSent.capacity == 60)
    #expect(options.requestLimits.otp == 30)
    #expect(
      options.settings.engine.sessionLimits
        == SessionLimits(timebox: 86_400, inactivityTimeout: 28_800))
    #expect(options.settings.engine.mfa.maxEnrolledFactors == 10)
    #expect(
      options.settings.engine.mfa.totpEnrollEnabled && options.settings.engine.mfa.totpVerifyEnabled
    )
    let config = try #require(options.projectConfig)
    #expect(config.file == Self.supabase + "/supabase/config.toml")
    #expect(config.warning == nil)
  }

  @Test func theFirebaseExampleGivesTheEmulatorsAddressAndProject() throws {
    for path in [Self.firebase, Self.firebase + "/firebase.json"] {
      let options = try ServeOptions.parse(["--config", path], environment: [:])
      #expect(options.http.port == 9_099)
      #expect(options.http.hosts == ["127.0.0.1"])
      #expect(options.firebaseProject == "demo-authflow")
      #expect(options.projectConfig?.warning == nil)
    }
  }

  @Test func theCommandLineAndGoTruesVariablesWinOverTheFile() throws {
    let supabase = try ServeOptions.parse(
      ["--config", Self.supabase, "--port", "0", "--jwt-exp", "600"],
      environment: ["GOTRUE_SITE_URL": "http://localhost:5173", "GOTRUE_MAILER_OTP_EXP": "600"])
    #expect(supabase.http.port == 0)
    #expect(supabase.settings.engine.accessTokenLifetime == 600)
    #expect(supabase.settings.engine.siteURL == "http://localhost:5173")
    #expect(supabase.settings.engine.codeLifetime == 600)
    #expect(supabase.settings.engine.minimumPasswordLength == 8)
    let firebase = try ServeOptions.parse(
      ["--config", Self.firebase, "--host", "::1", "--firebase-project", "demo-other"],
      environment: [:])
    #expect(firebase.http.hosts == ["::1"])
    #expect(firebase.firebaseProject == "demo-other")
    #expect(firebase.http.port == 9_099)
  }

  @Test func keysServeDoesNotSupportAreNamedInOneWarningLine() throws {
    try withProject([
      "supabase/config.toml": """
      [db]
      port = 54322
      [auth]
      additional_redirect_urls = ["myapp://callback", "myapp://auth/**"]
      email.otp_length = 8
      [auth.hook.custom_access_token]
      enabled = true
      uri = "http://127.0.0.1:3001/hook"
      [auth.hook.send_email]
      enabled = false
      [auth.external.github]
      enabled = true
      [auth.external.apple]
      enabled = false
      [auth.email.template.invite]
      subject = "Welcome"
      """
    ]) { folder in
      let options = try ServeOptions.parse(["--config", folder], environment: [:])
      #expect(
        options.projectConfig?.warning
          == "\(folder)/supabase/config.toml: authflow serve does not support "
          + "auth.email.otp_length = 8 (line 5), auth.hook.custom_access_token (line 6), "
          + "auth.external.github (line 11), auth.email.template.invite (line 15); ignored")
      // The redirect URLs are serve's allow list now, as they are GoTrue's.
      #expect(
        options.settings.engine.redirectAllowList.map(\.text)
          == ["myapp://callback", "myapp://auth/**"])
    }
  }

  @Test func theSMSSectionGivesPhoneSignInAndItsFixedCodes() throws {
    try withProject([
      "supabase/config.toml": """
      [auth.sms]
      enable_signup = true
      enable_confirmations = true
      template = "Code: {{ .Code }}"
      [auth.sms.test_otp]
      4152127777 = "123456"
      "+44 20 7946 0000" = "6543210"
      """
    ]) { folder in
      let options = try ServeOptions.parse(["--config", folder], environment: [:])
      #expect(options.projectConfig?.warning == nil)
      let engine = options.settings.engine
      #expect(engine.phoneProvider && !engine.smsAutoconfirm)
      #expect(engine.smsTemplate == "Code: {{ .Code }}")
      #expect(engine.testCodes == ["4152127777": "123456", "442079460000": "6543210"])
    }
  }

  @Test func everySectionHoldingAKeyServeReadsIsRead() throws {
    try withProject([
      "supabase/config.toml": """
      [auth.oauth_server]
      enabled = true
      authorization_url_path = "/oauth/consent"
      allow_dynamic_registration = true
      [auth.web3.solana]
      enabled = true
      """
    ]) { folder in
      let options = try ServeOptions.parse(["--config", folder], environment: [:])
      #expect(options.projectConfig?.warning == nil)
      let engine = options.settings.engine
      #expect(engine.oauthServer.enabled && engine.oauthServer.allowDynamicRegistration)
      #expect(engine.oauthServer.authorizationPath == "/oauth/consent")
      #expect(engine.web3Solana && !engine.web3Ethereum)
    }
  }

  @Test func aBadValueIsOneLineNamingTheFileTheLineAndTheKey() throws {
    let cases: [(String, String)] = [
      (
        "[auth]\njwt_expiry = 10\n",
        "config.toml:2: auth.jwt_expiry takes seconds from 30 to 604800"
      ),
      (
        "[auth]\nenable_signup = \"yes\"\n", "config.toml:2: auth.enable_signup takes true or false"
      ),
      ("[api]\nport = 70000\n", "config.toml:2: api.port takes a port from 0 to 65535"),
      (
        "[auth]\nsite_url = \"env(AUTHFLOW_TEST_UNSET)\"\n",
        "config.toml:2: auth.site_url reads env(AUTHFLOW_TEST_UNSET), which is not set"
      ),
      ("[auth]\nsite_url = [\"a\"]\n", "config.toml:2: auth.site_url takes one value, not [\"a\"]"),
      ("[auth]\njwt_expiry =\n", "config.toml:2: not TOML: "),
      (
        "[auth]\nadditional_redirect_urls = [\"myapp://a\", 1]\n",
        "config.toml:2: auth.additional_redirect_urls takes an array of strings"
      ),
      (
        "[auth]\nadditional_redirect_urls = [\"myapp://[a\"]\n",
        "config.toml:2: auth.additional_redirect_urls takes URLs or globs separated by commas; "
          + "'myapp://[a' has an unclosed or malformed ["
      ),
    ]
    for (text, message) in cases {
      try withProject(["config.toml": text]) { folder in
        let refusal = refusal(["--config", folder + "/config.toml"])
        #expect(refusal?.hasPrefix("\(folder)/\(message)") == true, "\(refusal ?? "accepted")")
      }
    }
  }

  @Test func envValuesAreRead() throws {
    try withProject(["config.toml": "[auth]\nsite_url = \"env(SITE)\"\n"]) { folder in
      let options = try ServeOptions.parse(
        ["--config", folder], environment: ["SITE": "http://127.0.0.1:8080"])
      #expect(options.settings.engine.siteURL == "http://127.0.0.1:8080")
    }
  }

  @Test func aFirebaseProjectNeedsItsProjectAndWellFormedFiles() throws {
    try withProject(["firebase.json": "{\"emulators\": {\"auth\": {\"port\": 9199}}}"]) { folder in
      #expect(
        refusal(["--config", folder])
          == "\(folder)/firebase.json: no project: .firebaserc beside it names none "
          + "(projects.default); add one or give --firebase-project")
      let options = try ServeOptions.parse(
        ["--config", folder, "--firebase-project", "demo-x"], environment: [:])
      #expect(options.http.port == 9_199)
      #expect(options.http.hosts == ["127.0.0.1", "::1"])
    }
    try withProject(["firebase.json": "{\"emulators\": "]) { folder in
      #expect(refusal(["--config", folder]) == "\(folder)/firebase.json: is not valid JSON")
    }
    try withProject([
      "firebase.json": "{\"emulators\": {\"auth\": {\"port\": 9099, \"ssl\": true}}}",
      ".firebaserc": "{\"projects\": {\"default\": \"demo-app\"}}",
    ]) { folder in
      let options = try ServeOptions.parse(["--config", folder], environment: [:])
      #expect(options.firebaseProject == "demo-app")
      #expect(
        options.projectConfig?.warning
          == "\(folder)/firebase.json: authflow serve does not support emulators.auth.ssl; ignored")
    }
  }

  @Test func aPathWithoutAProjectIsRefused() throws {
    #expect(
      refusal(["--config", "/nonexistent/authflow"])
        == "--config /nonexistent/authflow: no such file or folder")
    try withProject(["notes.txt": "x"]) { folder in
      #expect(
        refusal(["--config", folder])
          == "--config \(folder): no firebase.json or supabase/config.toml in that folder")
      #expect(
        refusal(["--config", folder + "/notes.txt"])
          == "--config \(folder)/notes.txt: takes a project folder, firebase.json or "
          + "supabase/config.toml")
    }
    try withProject(["firebase.json": "{}", "supabase/config.toml": ""]) { folder in
      #expect(
        refusal(["--config", folder])
          == "--config \(folder): both firebase.json and a Supabase config.toml; name the file "
          + "to use")
    }
  }

  private func refusal(_ arguments: [String]) -> String? {
    do {
      _ = try ServeOptions.parse(arguments, environment: [:]).validate(environment: [:])
      return nil
    } catch {
      return error.text(program: "authflow serve")
    }
  }

  /// Runs `body` with a folder holding `files`, removed afterwards.
  private func withProject(_ files: [String: String], _ body: (String) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory
      .appending(path: "authflow-config-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (name, text) in files {
      let file = folder.appending(path: name)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
    }
    try body(folder.path)
  }
}
