import CommandLineOptions
import EngineSettings
import Testing

@testable import AuthServer

/// serve's options are one table: the engine's settings among them, each config.toml key
/// given by one option (or said to be fixed or ignored), and cross-option checks in validate.
struct ServeSettingTableTests {
  @Test func everyEngineSettingIsAnOptionOfServeWithGoTruesVariable() {
    for setting in EngineSetting.all + EngineSetting.serveOnly {
      let option = ServeOptions.allOptions.first { $0.names == setting.names }
      #expect(option?.environment == setting.environment, "\(setting.name)")
      #expect(option?.config == setting.config, "\(setting.name)")
    }
  }

  @Test func eachConfigKeyIsOneOptionsAndTheRulesListIt() {
    let keys = ServeOptions.allOptions.compactMap(\.config?.path)
    #expect(Set(keys).count == keys.count)
    for key in keys {
      guard case .option(let option, _)? = SupabaseConfigFile.rules[key] else {
        Issue.record("\(key) is not read")
        continue
      }
      #expect(option.config?.path == key)
    }
  }

  @Test func optionsThatCannotGoTogetherAreRefusedByValidate() throws {
    let cases: [([String], String)] = [
      (["--seed", "1", "--store", "/tmp/x.db"], "--seed makes every secret"),
      (["--seed", "1", "--store", ":memory:", "--host", "0.0.0.0"], "--seed makes every emailed"),
      (["--test-otp", "a@example.com=123456", "--host", "0.0.0.0"], "--test-otp makes the codes"),
    ]
    for (arguments, start) in cases {
      let options = try ServeOptions.parse(arguments, environment: [:])
      #expect(throws: ServeOptionsError.self) { try options.validate(environment: [:]) }
      do {
        _ = try options.validate(environment: [:])
      } catch {
        #expect(error.text(program: "authflow serve").hasPrefix(start), "\(arguments)")
      }
    }
    let plan = try ServeOptions.parse([], environment: [:])
      .validate(environment: ["DATABASE_URL": ":memory:"])
    #expect(plan.store == .memory)
    do {
      _ = try ServeOptions.parse([], environment: [:])
        .validate(environment: ["DATABASE_URL": "mysql://h/d"])
      Issue.record("a MySQL URL was taken")
    } catch {
      #expect(error.text(program: "authflow serve").hasPrefix("DATABASE_URL takes a path"))
    }
  }
}
