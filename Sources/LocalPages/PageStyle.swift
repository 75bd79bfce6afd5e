/// The page's style sheet: system fonts, light and dark by `prefers-color-scheme`, colours of
/// at least 4.5:1 contrast, a visible focus ring, and a layout that folds to one column (the
/// users' table to cards) at phone width.
public enum PageStyle {
  /// `app.css`: serve's page's style sheet, which the shell's presented screen builds on.
  public static let css = """
    :root {
      color-scheme: light dark;
      --bg: #ffffff; --fg: #1b1b1f; --muted: #52525b; --line: #d4d4d8; --card: #f7f7f8;
      --accent: #0b57d0; --accent-fg: #ffffff; --bad: #b3261e; --good: #146c2e;
      --code-bg: #eef2ff; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #121214; --fg: #ececf1; --muted: #b4b4bd; --line: #3f3f46; --card: #1c1c21;
        --accent: #8ab4f8; --accent-fg: #0b1a33; --bad: #f2b8b5; --good: #8fd19e;
        --code-bg: #1e2540;
      }
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--fg); }
    a { color: var(--accent); }
    :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
    .skip { position: absolute; left: -999px; }
    .skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; z-index: 2; }
    header {
      display: flex; flex-wrap: wrap; gap: 8px 20px; align-items: center;
      padding: 10px 20px; border-bottom: 1px solid var(--line); background: var(--card);
    }
    .brand { font-weight: 700; }
    nav a { margin-right: 14px; text-decoration: none; padding: 4px 2px; }
    nav a[aria-current="page"] { font-weight: 700; border-bottom: 3px solid var(--accent); }
    .live { margin-left: auto; font-size: 0.875rem; color: var(--muted); }
    .live.on::before { content: "● "; color: var(--good); }
    main { max-width: 1400px; margin: 0 auto; padding: 8px 20px 40px; }
    main:focus { outline: none; }
    h1 { font-size: 1.5rem; margin: 12px 0; }
    h2 { font-size: 1.125rem; margin: 4px 0 8px; }
    .muted { color: var(--muted); }
    .bad { color: var(--bad); }
    .toolbar, .row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
    .stack { display: grid; gap: 6px; max-width: 480px; }
    input, textarea, button {
      font: inherit; color: var(--fg); background: var(--bg);
      border: 1px solid var(--muted); border-radius: 6px; padding: 6px 10px;
    }
    input[type="search"], input[type="email"], input[type="password"] { min-width: 16em; }
    textarea { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.875rem; }
    button { cursor: pointer; background: var(--accent); color: var(--accent-fg); border-color: var(--accent); }
    button.plain, td button { background: var(--bg); color: var(--accent); }
    button.danger { background: var(--bg); color: var(--bad); border-color: var(--bad); }
    button:disabled { opacity: 0.55; cursor: not-allowed; }
    label.check { display: flex; gap: 8px; align-items: center; }
    details { margin: 10px 0; }
    summary { cursor: pointer; color: var(--accent); }
    .messages { list-style: none; padding: 0; margin: 0; display: grid; gap: 12px; }
    .message {
      border: 1px solid var(--line); border-radius: 10px; padding: 12px 16px; background: var(--card);
    }
    .meta { margin: 0; font-size: 0.875rem; color: var(--muted); }
    .badge {
      display: inline-block; font-size: 0.75rem; font-weight: 700; padding: 0 8px;
      border-radius: 999px; border: 1px solid var(--line); margin-right: 6px; color: var(--fg);
    }
    .code strong {
      font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 1.375rem;
      letter-spacing: 0.15em; background: var(--code-bg); padding: 2px 8px; border-radius: 6px;
    }
    .url { word-break: break-all; font-size: 0.875rem; }
    .applink input { width: min(100%, 36em); font-family: ui-monospace, Menlo, monospace; font-size: 0.8rem; }
    .qr { width: 168px; height: 168px; display: block; margin-top: 8px; }
    pre { white-space: pre-wrap; word-break: break-word; font-size: 0.875rem; }
    .table-wrap { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
    caption { text-align: left; color: var(--muted); padding: 4px 0; }
    th, td { text-align: left; padding: 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
    td .id { display: block; font-size: 0.75rem; color: var(--muted); font-family: ui-monospace, monospace; }
    td.actions { min-width: 15em; }
    td.actions div { display: flex; flex-wrap: wrap; gap: 4px; }
    td button { padding: 2px 8px; font-size: 0.8rem; }
    .yes { color: var(--good); font-weight: 600; }
    .disabled { color: var(--bad); font-weight: 600; }
    .pager { display: flex; gap: 12px; align-items: center; margin: 12px 0; }
    dialog { background: var(--bg); color: var(--fg); border: 1px solid var(--line); border-radius: 10px; width: min(92vw, 560px); }
    dialog::backdrop { background: rgb(0 0 0 / 0.5); }
    .settings { display: grid; grid-template-columns: max-content 1fr; gap: 6px 20px; }
    .settings dt { font-weight: 600; }
    .settings dd { margin: 0; word-break: break-all; }
    .big { font-size: 1.25rem; }
    @media (max-width: 640px) {
      header { padding: 8px 12px; } main { padding: 8px 12px 32px; }
      .live { margin-left: 0; }
      input[type="search"], input[type="email"], input[type="password"] { min-width: 0; width: 100%; }
      thead { position: absolute; left: -999px; }
      table, caption, tbody, tr, td { display: block; width: 100%; }
      tr { border: 1px solid var(--line); border-radius: 10px; margin-bottom: 10px; padding: 6px; }
      td { border: none; padding: 4px 6px; }
      td::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
      td.actions::before { content: none; }
      .settings { grid-template-columns: 1fr; }
      .settings dd { margin-bottom: 8px; }
    }

    """
}
