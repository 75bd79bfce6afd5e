/// The page's script, one file for every view (`app.js`, after `PageScriptBase`'s start):
/// helpers and the live connection here, each view's part in its own extension. Plain
/// JavaScript, no framework: reads and actions go to `/_/api/` with the page's token, and the
/// event stream says when to read again.
enum PageScript {
  static let common = #"""
    const meta = (name) => document.querySelector(`meta[name="${name}"]`).content;
    const token = meta("authflow-page");
    const base = meta("authflow-base");

    async function api(path, body) {
      const init = { headers: { "X-Authflow-Page": token }, cache: "no-store" };
      if (body !== undefined) {
        init.method = "POST";
        init.headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
      const response = await fetch(base + "api/" + path, init);
      const text = await response.text();
      let data = null;
      try { data = text ? JSON.parse(text) : null; } catch { data = { msg: text }; }
      if (!response.ok) {
        const why = data && (data.msg || data.message || data.error_description || data.error);
        throw new Error(why || `the server answered ${response.status}`);
      }
      return data;
    }

    function say(text, bad = false) {
      const status = $("status");
      if (!status) return;
      status.textContent = text;
      status.className = bad ? "bad" : "muted";
    }

    const when = (iso) => (iso ? new Date(iso).toLocaleString() : "never");

    async function copy(text, button) {
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = "Copied";
      } catch {
        button.textContent = "Select and copy";
      }
      setTimeout(() => { button.textContent = "Copy"; }, 1500);
    }

    function coalesce(work) {
      let queued = false;
      return () => {
        if (queued) return;
        queued = true;
        requestAnimationFrame(async () => {
          queued = false;
          try { await work(); } catch (error) { say(error.message, true); }
        });
      };
    }

    function live(handlers) {
      const badge = $("live");
      const source = new EventSource(base + "events?token=" + encodeURIComponent(token));
      const on = () => { badge.textContent = "Live"; badge.classList.add("on"); };
      source.addEventListener("ready", () => { on(); handlers.ready && handlers.ready(); });
      source.addEventListener("idle", on);
      for (const name of ["mail", "users"]) {
        source.addEventListener(name, () => { on(); handlers[name] && handlers[name](); });
      }
      source.addEventListener("error", () => {
        if (source.readyState === EventSource.CLOSED) {
          badge.textContent = "Not live: reload the page";
          badge.classList.remove("on");
        }
      });
    }

    const views = {};
    document.addEventListener("DOMContentLoaded", () => {
      const start = views[document.body.dataset.view];
      if (start) start();
    });

    """#
}
