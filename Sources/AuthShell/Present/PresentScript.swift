/// The presented page's script (`app.js`, after `PageScriptBase`'s start): plain JavaScript, no
/// framework. The event stream hands it each new screen as JSON (``PresentedScreen``) and it
/// draws it: the title, the fields (secrets arrive masked), the consent switch, the buttons with
/// why each is disabled, the error or banner, the signed-in user, the offline badge. Everything
/// is text content, never markup, and nothing on the page acts: the shell drives the screen.
enum PresentScript {
  static let source = #"""
    const token = document.querySelector('meta[name="authflow-page"]').content;

    // The page only watches: a control pressed here changes nothing.
    const still = (event) => event.preventDefault();

    function field(item) {
      const id = "field-" + item.name;
      return el("div", { class: "field", "data-field": item.name },
        el("label", { for: id, text: item.label }),
        el("input", {
          id, type: item.secret ? "password" : "text", value: item.value, readonly: true,
          placeholder: item.value ? null : "empty", "aria-label": item.spoken.label,
          title: item.spoken.hint, autocomplete: "off", spellcheck: "false",
        }));
    }

    function consent(item) {
      return el("label", { class: "switch", "data-control": "consent" },
        el("input", {
          type: "checkbox", role: "switch", checked: item.on, "aria-checked": String(item.on),
          "aria-label": item.spoken.label, title: item.spoken.hint, onclick: still,
        }),
        el("span", { text: item.label }));
    }

    function control(item, index) {
      const kind = item.link ? "link" : item.primary ? "primary" : "secondary";
      const reason = item.reason ? "reason-" + index : null;
      const button = el("button", {
        type: "button", class: kind, disabled: !item.enabled, "data-command": item.command,
        "aria-label": item.spoken.label, "aria-describedby": reason, title: item.spoken.hint,
        text: item.label, onclick: still,
      });
      if (!reason) return [button];
      return [button, el("p", { id: reason, class: "reason", text: "Disabled: " + item.reason })];
    }

    let shownMessage = "";
    function message(item) {
      const box = $("message");
      const key = item ? item.kind + "\n" + item.text : "";
      if (key === shownMessage) return;
      shownMessage = key;
      box.hidden = !item;
      box.className = "message" + (item ? " " + item.kind : "");
      // An error is announced at once; a banner when the reader is free.
      box.setAttribute("role", item && item.kind === "error" ? "alert" : "status");
      box.textContent = item ? item.text : "";
      if (item) box.setAttribute("aria-label", item.announcement);
      else box.removeAttribute("aria-label");
    }

    function draw(screen) {
      document.title = screen.title + " · authflow";
      $("screen").dataset.screen = screen.screen;
      $("title").textContent = screen.title;
      $("backend").textContent = screen.backend + " backend";
      $("offline").hidden = !screen.offline;
      message(screen.message);
      $("note").hidden = !screen.note;
      $("note").textContent = screen.note || "";
      const parts = [];
      if (screen.session) {
        const rows = el("dl", { class: "session", id: "session" });
        for (const row of screen.session) {
          rows.append(el("dt", { text: row.label }), el("dd", { text: row.value }));
        }
        parts.push(rows);
      } else if (screen.fields.length) {
        const form = el("form", { id: "form", "aria-labelledby": "title", onsubmit: still },
          ...screen.fields.map(field));
        if (screen.consent) form.append(consent(screen.consent));
        parts.push(form);
      }
      parts.push(el("div", { class: "controls", id: "controls" },
        ...screen.controls.flatMap(control)));
      $("body").replaceChildren(...parts);
      $("busy").textContent = screen.busy ? screen.busy + "…" : "";
      $("screen").setAttribute("aria-busy", screen.busy ? "true" : "false");
    }

    function live() {
      const badge = $("live");
      const source = new EventSource("/events?token=" + encodeURIComponent(token));
      // Each answer carries one event and ends its stream, and the browser asks again at
      // once; the next answer may be held as long as the shell shows nothing new (a pause).
      // So an end of stream after an answer is the normal course, and one with no answer
      // since the last (the shell is gone, nothing listens) is a shell that has ended.
      let answered = false;
      const on = () => {
        answered = true;
        badge.textContent = "Live";
        badge.classList.add("on");
      };
      const off = (text) => { badge.textContent = text; badge.classList.remove("on"); };
      source.addEventListener("idle", on);
      source.addEventListener("screen", (event) => { on(); draw(JSON.parse(event.data)); });
      source.addEventListener("error", () => {
        if (source.readyState === EventSource.CLOSED) return off("Not live: reload the page");
        if (!answered) off("Not live: the shell has ended");
        answered = false;
      });
    }

    document.addEventListener("DOMContentLoaded", live);

    """#
}
