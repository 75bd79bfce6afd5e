import CommandLineOptions
import EngineSettings
import Testing

@testable import AuthShell

/// The engine's settings are the shell's as they are serve's: one row each, the same check.
struct EngineSettingShellTests {
  @Test func everyEngineSettingIsAnOptionOfTheShell() {
    for setting in EngineSetting.all {
      let option = ShellOptions.option(named: setting.name)
      #expect(option?.spec.names == setting.names, "\(setting.name)")
      #expect(option?.spec.value == setting.value && option?.spec.help == setting.help)
      // GoTrue's variables are serve's to read, not the shell's.
      #expect(option?.spec.environment == nil)
    }
  }

  @Test func aShortPasswordMinimumIsTakenAsServeTakesIt() throws {
    let options = try ShellOptions.parse(["--store", ":memory:", "--password-min-length", "4"])
    #expect(options.settings.engine.minimumPasswordLength == 6)
    let run = try runAuthflow([
      "--store", ":memory:", "--hash-cost", "4", "--password-min-length", "4", "-c", "show",
    ])
    #expect(run.status == 0, "\(run.error)")
  }

  @Test func aRecordingRepeatsTheSettingsGivenInTheTablesOrder() throws {
    let options = try ShellOptions.parse([
      "--seed", "3", "--password-min-length", "8", "--hash-cost", "4", "--autoconfirm",
      "--users", "u.json",
    ])
    #expect(
      options.recordedOptions == [
        "--backend", "embedded", "--store", ":memory:", "--autoconfirm", "--password-min-length",
        "8", "--seed", "3",
      ])
  }
}
