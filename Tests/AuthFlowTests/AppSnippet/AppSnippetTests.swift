import AuthFlow
import Foundation
import Testing

/// The app code of docs/library.md ("In an app") and of the DocC catalogue's article is the code
/// of AuthCoordinatorView.swift, which compiles here against the library's real API, and its
/// views show what the flow's state says.
@MainActor
struct AppSnippetTests {
  private nonisolated static let root = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  nonisolated static let pages = [
    root.appending(path: "docs/library.md"),
    root.appending(path: "Sources/AuthFlow/AuthFlow.docc/InAnApp.md"),
  ]
  private static let snippet = URL(filePath: #filePath)
    .deletingLastPathComponent().appending(path: "AuthCoordinatorView.swift")

  @Test(arguments: pages)
  func thePagesAppCodeIsTheCodeThisTestCompiles(page: URL) throws {
    let text = try String(contentsOf: page, encoding: .utf8)
    let source = try String(contentsOf: Self.snippet, encoding: .utf8)
    let opening = "```swift\nimport AuthFlow\nimport SwiftUI\n\n"
    let start = try #require(text.range(of: opening))
    let end = try #require(text.range(of: "```\n", range: start.upperBound..<text.endIndex))
    let shown = text[start.upperBound..<end.lowerBound]
    let begin = try #require(source.range(of: "// page begin\n"))
    let stop = try #require(source.range(of: "// page end\n"))
    #expect(shown == source[begin.upperBound..<stop.lowerBound])
  }

  @Test func theChoiceStateShowsItsTwoButtons() {
    let viewModel = AuthViewModel(service: MockAuthService())
    #expect(
      draw(AuthCoordinatorView(viewModel: viewModel)) == [
        "button: Sign In", "button: Create Account",
      ])
  }

  @Test func theLoginStateShowsTheSignInScreenWithTheFormAndTheError() {
    let viewModel = AuthViewModel(service: MockAuthService())
    viewModel.navigateToLogin()
    viewModel.email = "ada@example.com"
    viewModel.errorMessage = "That email or password looks incorrect"
    #expect(
      draw(AuthCoordinatorView(viewModel: viewModel)) == [
        "field: Email address = ada@example.com", "secure field: Password",
        "text: That email or password looks incorrect",
        "button: Sign In (dimmed) - Signs in with the email address and password.",
        "button: Forgot password?", "button: Back",
      ])
  }

  @Test func theLoginScreensFieldsAndButtonsDriveTheViewModel() throws {
    let viewModel = AuthViewModel(service: MockAuthService())
    viewModel.navigateToLogin()
    let controls = leaves(AuthCoordinatorView(viewModel: viewModel))
    let fields = controls.compactMap { $0 as? TextField }
    try #require(fields.count == 2)
    fields[0].text.wrappedValue = "ada@example.com"
    fields[1].text.wrappedValue = "secret12"
    #expect(viewModel.email == "ada@example.com")
    #expect(viewModel.password == "secret12")
    #expect(viewModel.canSubmit)
    let forgot = try #require(
      controls.compactMap { $0 as? Button }.first { $0.title == "Forgot password?" })
    forgot.action()
    #expect(viewModel.navigationState == .resetRequest)
    #expect(draw(AuthCoordinatorView(viewModel: viewModel)) == ["text: reset-request"])
  }

  @Test func theChoiceScreensButtonsOpenTheForms() throws {
    let viewModel = AuthViewModel(service: MockAuthService())
    let create = try #require(
      leaves(AuthCoordinatorView(viewModel: viewModel)).compactMap { $0 as? Button }.last)
    create.action()
    #expect(viewModel.navigationState == .signup(consentAccepted: false))
  }
}
