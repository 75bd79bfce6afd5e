import Synchronization

/// Work the engine starts that no answer waits for (an email handed to the send-email hook
/// where the answer must not tell who has an account), kept so that tests and a stopping
/// server can wait for it.
final class BackgroundWork: Sendable {
  private let running = Mutex<(next: Int, tasks: [Int: Task<Void, Never>])>((0, [:]))

  /// Starts `body` in the background.
  func start(_ body: @escaping @Sendable () async -> Void) {
    running.withLock { running in
      let id = running.next
      running.next += 1
      // Inserted before the task can end, so its removal always finds it.
      running.tasks[id] = Task.detached { [self] in
        await body()
        _ = self.running.withLock { $0.tasks.removeValue(forKey: id) }
      }
    }
  }

  /// Waits until the work started so far has ended.
  func wait() async {
    let tasks = running.withLock { Array($0.tasks.values) }
    for task in tasks { await task.value }
  }
}
