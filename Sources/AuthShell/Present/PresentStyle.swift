/// The presented screen's rules, after serve's page's style sheet (``PageStyle``), whose
/// colours (light and dark, at least 4.5:1), focus ring and header it keeps: a phone-sized
/// screen centred on the page, edge to edge at phone width.
enum PresentStyle {
  static let css = """
    .present main { max-width: 480px; }
    .phone {
      margin: 16px auto 8px; padding: 18px 20px 24px; border: 1px solid var(--line);
      border-radius: 28px; background: var(--card); min-height: 520px;
    }
    .phone:focus { outline: none; }
    .bar { display: flex; align-items: center; gap: 12px; margin-bottom: 8px; }
    .bar h1 { margin: 4px 0; flex: 1; }
    .offline {
      font-size: 0.8rem; font-weight: 700; padding: 2px 10px; border-radius: 999px;
      color: var(--warn-fg); background: var(--warn-bg);
    }
    .message { border-radius: 10px; padding: 10px 12px; margin: 8px 0; border: 1px solid; }
    .message.error { color: var(--bad); border-color: var(--bad); }
    .message.error::before { content: "✗ "; font-weight: 700; }
    .message.info { color: var(--accent); border-color: var(--accent); }
    .message.success { color: var(--good); border-color: var(--good); }
    .message.success::before { content: "✓ "; font-weight: 700; }
    .message.warning { color: var(--warn-fg); background: var(--warn-bg); border-color: var(--warn-fg); }
    .note { color: var(--muted); }
    .field { display: grid; gap: 2px; margin: 10px 0; }
    .field label { font-weight: 600; font-size: 0.9rem; }
    .field input { width: 100%; background: var(--bg); }
    .field input:placeholder-shown { color: var(--muted); }
    .switch { display: flex; gap: 10px; align-items: center; margin: 14px 0; }
    .switch input { width: 1.25rem; height: 1.25rem; accent-color: var(--accent); }
    .controls { display: grid; gap: 8px; margin-top: 16px; }
    .controls button { width: 100%; padding: 10px; }
    .controls button.secondary { background: var(--bg); color: var(--accent); }
    .controls button.link {
      background: none; border: none; color: var(--accent); text-decoration: underline;
      padding: 4px; width: auto; justify-self: start;
    }
    .reason { font-size: 0.85rem; color: var(--muted); margin: -4px 0 4px; }
    .session { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 12px 0; }
    .session dt { font-weight: 600; }
    .session dd { margin: 0; word-break: break-all; }
    .busy { color: var(--muted); min-height: 1.5em; margin: 12px 0 0; }
    .caption { text-align: center; font-size: 0.875rem; }
    :root { --warn-fg: #7a4100; --warn-bg: #fff4e0; }
    @media (prefers-color-scheme: dark) { :root { --warn-fg: #ffd79a; --warn-bg: #3a2a10; } }
    @media (max-width: 640px) {
      .phone { border: none; border-radius: 0; margin: 0 -12px; padding: 12px; min-height: 0; }
      .session { grid-template-columns: 1fr; }
      .session dd { margin-bottom: 6px; }
    }

    """
}
