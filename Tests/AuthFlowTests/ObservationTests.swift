import AuthFlow
import Observation
import Synchronization
import Testing

/// An app's views follow the view model through Observation: reading the state (or a part of
/// it through the contract's names) in a view registers it, and a change tells the view.
@MainActor
struct ObservationTests {
  @Test func aViewReadingTheStateIsToldOfEveryChange() {
    let (viewModel, _, _) = makeViewModel()
    let changes = Mutex(0)
    func observe(_ read: @escaping @MainActor () -> Void) {
      withObservationTracking {
        MainActor.assumeIsolated { read() }
      } onChange: {
        changes.withLock { $0 += 1 }
      }
    }

    observe { _ = viewModel.email }
    viewModel.email = "ada@example.com"
    #expect(changes.withLock { $0 } == 1)

    observe { _ = viewModel.navigationState }
    viewModel.navigationState = .login
    #expect(changes.withLock { $0 } == 2)

    observe { _ = viewModel.state.banner }
    viewModel.statusBanner = .offline
    #expect(changes.withLock { $0 } == 3)

    // Nothing read, nothing told.
    viewModel.email = "bob@example.com"
    #expect(changes.withLock { $0 } == 3)
  }
}
