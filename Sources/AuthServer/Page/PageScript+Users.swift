extension PageScript {
  /// The users: a searchable table a page at a time, a form to create one, and each user's
  /// actions (edit metadata and claims, confirm, disable or enable, reset, sign out, delete).
  static let users = #"""
    views.users = () => {
      let page = 1;
      let total = 0;
      let perPage = 20;
      let query = "";
      let firebase = false;
      let editing = null;
      let drawn = "";
      const yesNo = (value) => el("span", { class: value ? "yes" : "", text: value ? "Yes" : "No" });
      const cell = (label, ...children) => el("td", { "data-label": label }, ...children);

      async function act(user, action, words, body) {
        try {
          await api(`users/${encodeURIComponent(user.id)}/${action}`, body || {});
          say(`${user.email || user.id}: ${words}`);
          load();
        } catch (error) {
          say(`${user.email || user.id}: ${error.message}`, true);
        }
      }

      function button(user, label, action, words, extra = {}) {
        const node = el("button", { type: "button", text: label,
          "aria-label": `${label} ${user.email || user.id}`, ...extra });
        node.addEventListener("click", () => act(user, action, words));
        return node;
      }

      function removeButton(user) {
        const node = el("button", { type: "button", class: "danger", text: "Delete",
          "aria-label": `Delete ${user.email || user.id}` });
        node.addEventListener("click", () => {
          if (node.dataset.armed) return act(user, "delete", "deleted");
          node.dataset.armed = "1";
          node.textContent = "Really delete?";
        });
        return node;
      }

      function row(user) {
        const edit = el("button", { type: "button", text: "Edit", "aria-label": `Edit ${user.email || user.id}` });
        edit.addEventListener("click", () => openEditor(user));
        return el("tr", { "data-id": user.id, "data-email": user.email },
          cell("User", el("span", { class: "email", text: user.email || "(no email)" }),
            el("span", { class: "id", text: user.id })),
          cell("Phone", user.phone || "—"),
          cell("Confirmed", yesNo(user.confirmed)),
          cell("Provider", user.provider),
          cell("Created", when(user.createdAt)),
          cell("Last sign-in", when(user.lastSignInAt)),
          cell("Anonymous", yesNo(user.anonymous)),
          cell("Factors", String(user.factors)),
          cell("Status", el("span", { class: user.disabled ? "disabled" : "", text: user.disabled ? "Disabled" : "Active" })),
          el("td", { class: "actions" }, el("div", {},
            edit,
            user.confirmed ? null : button(user, "Confirm", "confirm", "confirmed"),
            user.disabled
              ? button(user, "Enable", "enable", "enabled")
              : button(user, "Disable", "disable", "disabled"),
            user.email ? button(user, "Send reset", "reset", "password reset sent") : null,
            button(user, "Sign out", "signout", "signed out everywhere"),
            removeButton(user))));
      }

      const load = coalesce(async () => {
        const data = await api(`users?page=${page}&q=${encodeURIComponent(query)}`);
        ({ total, perPage, firebase } = data);
        // Redrawn only when something shown changed, so a row under the pointer stays put.
        const shown = JSON.stringify(data);
        if (shown !== drawn) $("users").tBodies[0].replaceChildren(...data.users.map(row));
        drawn = shown;
        const pages = Math.max(1, Math.ceil(total / perPage));
        if (page > pages) { page = pages; return load(); }
        $("page-label").textContent = `Page ${page} of ${pages}`;
        $("users-caption").textContent = `${total} user${total === 1 ? "" : "s"}${query ? ` matching “${query}”` : ""}`;
        $("prev").disabled = page <= 1;
        $("next").disabled = page >= pages;
      });

      function openEditor(user) {
        editing = user;
        $("editor-title").textContent = `Edit ${user.email || user.id}`;
        $("edit-user-metadata").value = JSON.stringify(user.userMetadata, null, 2);
        $("edit-app-metadata").value = JSON.stringify(user.appMetadata, null, 2);
        $("claims-field").hidden = !firebase;
        $("edit-claims").value = JSON.stringify(user.customClaims || {}, null, 2);
        $("editor-error").textContent = "";
        $("editor").showModal();
      }

      $("editor-form").addEventListener("submit", async (event) => {
        event.preventDefault();
        const body = {};
        try {
          body.userMetadata = JSON.parse($("edit-user-metadata").value || "{}");
          body.appMetadata = JSON.parse($("edit-app-metadata").value || "{}");
          if (firebase) body.customClaims = JSON.parse($("edit-claims").value || "{}");
        } catch (error) {
          $("editor-error").textContent = "Not JSON: " + error.message;
          return;
        }
        try {
          await api(`users/${encodeURIComponent(editing.id)}/update`, body);
          $("editor").close();
          say(`${editing.email || editing.id}: saved`);
          load();
        } catch (error) {
          $("editor-error").textContent = error.message;
        }
      });
      $("editor-cancel").addEventListener("click", () => $("editor").close());

      $("create-form").addEventListener("submit", async (event) => {
        event.preventDefault();
        const email = $("new-email").value.trim();
        try {
          await api("users", { email, password: $("new-password").value, confirmed: $("new-confirmed").checked });
          $("new-password").value = "";
          $("new-email").value = "";
          say(`${email}: created`);
          load();
        } catch (error) {
          say(`${email}: ${error.message}`, true);
        }
      });

      let typing = null;
      $("user-search").addEventListener("input", (event) => {
        clearTimeout(typing);
        typing = setTimeout(() => { query = event.target.value.trim(); page = 1; load(); }, 200);
      });
      $("prev").addEventListener("click", () => { page -= 1; load(); });
      $("next").addEventListener("click", () => { page += 1; load(); });
      live({ ready: load, users: load });
      load();
    };

    """#

  /// The clock (the server's time, and a control that moves it where it may move) and the
  /// settings (what the server runs with).
  static let clock = #"""
    views.clock = () => {
      const draw = (reading) => {
        $("clock-now").textContent = new Date(reading.now).toLocaleString();
        $("clock-offset").textContent = reading.movable
          ? `Moved ${Math.round(reading.offset_seconds)} s ahead of real time.`
          : "This clock follows real time: start authflow serve with --store :memory: or --allow-clock to move it.";
        for (const node of $("advance-form").elements) node.disabled = !reading.movable;
      };
      const load = coalesce(async () => draw(await api("clock")));
      $("advance-form").addEventListener("submit", async (event) => {
        event.preventDefault();
        try {
          draw(await api("clock", { advance: $("advance").value.trim() }));
          say(`Advanced by ${$("advance").value.trim()}`);
        } catch (error) {
          say(error.message, true);
        }
      });
      live({ ready: load, users: load });
      load();
    };

    views.settings = async () => {
      live({});
      try {
        const { settings } = await api("settings");
        $("settings").replaceChildren(...settings.flatMap((s) => [el("dt", { text: s.name }), el("dd", { text: s.value })]));
      } catch (error) {
        $("settings").replaceChildren(el("dd", { class: "bad", text: error.message }));
      }
    };

    """#
}
