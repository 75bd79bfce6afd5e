/// The views of serve's page, each a path under `/_/` and a link in its navigation.
enum PageView: String, CaseIterable, Sendable {
  case inbox, users, clock, settings

  /// The route's path (`/_` also answers `/_/`).
  var path: String { self == .inbox ? "/_" : "/_/" + rawValue }

  /// The path after the page's base (`/_/` or `/auth/v1/_/`).
  var relativePath: String { self == .inbox ? "" : rawValue }

  /// The heading and the navigation's word for it.
  var title: String {
    switch self {
    case .inbox: "Inbox"
    case .users: "Users"
    case .clock: "Clock"
    case .settings: "Settings"
    }
  }

  /// The view's own markup inside `<main>`, which the script fills.
  var body: String {
    switch self {
    case .inbox:
      """
      <div class="toolbar">
        <label for="to-filter">Recipient</label>
        <input id="to-filter" type="search" placeholder="Filter by address or number" autocomplete="off">
        <button id="delete-all" type="button" class="danger">Delete all</button>
      </div>
      <p id="status" role="status" class="muted"></p>
      <ol id="messages" class="messages" aria-label="Messages, newest first"></ol>
      """
    case .users:
      """
      <div class="toolbar">
        <label for="user-search">Search</label>
        <input id="user-search" type="search" placeholder="Email or name" autocomplete="off">
      </div>
      <details id="create">
        <summary>Create a user</summary>
        <form id="create-form" class="stack">
          <label for="new-email">Email</label>
          <input id="new-email" name="email" type="email" required autocomplete="off">
          <label for="new-password">Password (optional)</label>
          <input id="new-password" name="password" type="password" autocomplete="new-password">
          <label class="check"><input id="new-confirmed" name="confirmed" type="checkbox" checked> Email confirmed</label>
          <button type="submit">Create user</button>
        </form>
      </details>
      <p id="status" role="status" class="muted"></p>
      <div class="table-wrap">
        <table id="users">
          <caption id="users-caption">Users</caption>
          <thead><tr>
            <th scope="col">User</th><th scope="col">Phone</th><th scope="col">Confirmed</th>
            <th scope="col">Provider</th><th scope="col">Created</th><th scope="col">Last sign-in</th>
            <th scope="col">Anonymous</th><th scope="col">Factors</th><th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr></thead>
          <tbody></tbody>
        </table>
      </div>
      <nav class="pager" aria-label="Pages of users">
        <button id="prev" type="button">Previous</button>
        <span id="page-label"></span>
        <button id="next" type="button">Next</button>
      </nav>
      <dialog id="editor" aria-labelledby="editor-title">
        <form id="editor-form" class="stack">
          <h2 id="editor-title">Edit user</h2>
          <label for="edit-user-metadata">User metadata (JSON)</label>
          <textarea id="edit-user-metadata" rows="5" spellcheck="false"></textarea>
          <label for="edit-app-metadata">App metadata: claims in Supabase tokens (JSON)</label>
          <textarea id="edit-app-metadata" rows="5" spellcheck="false"></textarea>
          <div id="claims-field" class="stack" hidden>
            <label for="edit-claims">Custom claims in Firebase ID tokens (JSON)</label>
            <textarea id="edit-claims" rows="4" spellcheck="false"></textarea>
          </div>
          <p id="editor-error" class="bad" role="alert"></p>
          <div class="row">
            <button type="submit">Save</button>
            <button type="button" id="editor-cancel" class="plain">Cancel</button>
          </div>
        </form>
      </dialog>
      """
    case .clock:
      """
      <p class="big">Server time: <output id="clock-now">…</output></p>
      <p id="clock-offset" class="muted"></p>
      <form id="advance-form" class="toolbar">
        <label for="advance">Advance by</label>
        <input id="advance" name="advance" value="1h" required autocomplete="off" aria-describedby="advance-help">
        <button type="submit">Advance</button>
      </form>
      <p id="advance-help" class="muted">A duration such as 90s, 15m, 25h or 7d; the clock only moves forward.</p>
      <p id="status" role="status" class="muted"></p>
      """
    case .settings:
      """
      <p class="muted">What this server runs with. Keys and secrets are never shown here.</p>
      <dl id="settings" class="settings"></dl>
      """
    }
  }
}
