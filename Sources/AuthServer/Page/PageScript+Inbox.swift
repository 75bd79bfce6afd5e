extension PageScript {
  /// The inbox: emails and SMS newest first, filtered by recipient, each with its code, its links
  /// (a link into an app as text to copy and a QR code) and a delete button.
  static let inbox = #"""
    function qrImage(rows, url) {
      const ns = "http://www.w3.org/2000/svg";
      const quiet = 4;
      const size = rows.length + quiet * 2;
      const svg = document.createElementNS(ns, "svg");
      svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
      svg.setAttribute("class", "qr");
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", "QR code of " + url);
      const back = document.createElementNS(ns, "rect");
      back.setAttribute("width", size);
      back.setAttribute("height", size);
      back.setAttribute("fill", "#fff");
      let path = "";
      rows.forEach((row, y) => {
        for (let x = 0; x < row.length; x++) {
          if (row[x] === "1") path += `M${x + quiet} ${y + quiet}h1v1h-1z`;
        }
      });
      const dark = document.createElementNS(ns, "path");
      dark.setAttribute("d", path);
      dark.setAttribute("fill", "#000");
      svg.append(back, dark);
      return svg;
    }

    function linkBlock(link) {
      if (!link.app) {
        return el("p", {},
          el("a", { href: link.url, target: "_blank", rel: "noopener noreferrer", class: "open-link" },
            "Open the link"),
          el("br"), el("span", { class: "url muted", text: link.url }));
      }
      const field = el("input", { readonly: true, value: link.url, "aria-label": "Link into the app" });
      const button = el("button", { type: "button", class: "plain", text: "Copy" });
      button.addEventListener("click", () => copy(link.url, button));
      return el("div", { class: "applink" },
        el("p", { text: "This link opens an app: copy it, or scan the code with the phone." }),
        el("div", { class: "row" }, field, button),
        link.qr ? qrImage(link.qr, link.url) : null);
    }

    function messageItem(message) {
      const subjectID = `message-${message.id}-subject`;
      const remove = el("button", { type: "button", class: "danger", text: "Delete",
        "aria-label": `Delete the message to ${message.to}: ${message.subject}` });
      remove.addEventListener("click", async () => {
        try { await api("messages/delete", { ids: [message.id] }); } catch (error) { say(error.message, true); }
      });
      const codeButton = el("button", { type: "button", class: "plain", text: "Copy" });
      codeButton.addEventListener("click", () => copy(message.code, codeButton));
      return el("li", { class: "message", "data-id": message.id },
        el("article", { "aria-labelledby": subjectID },
          el("p", { class: "meta" },
            el("span", { class: "badge", text: message.kind === "sms" ? "SMS" : "Email" }),
            el("span", { class: "badge", text: message.purpose }),
            "to ", el("strong", { class: "to", text: message.to }), " · ",
            el("time", { datetime: message.sentAt, text: when(message.sentAt) }),
            message.handedToHook ? " · handed to the send-email hook" : ""),
          el("h2", { id: subjectID, text: message.subject || "(SMS)" }),
          message.code
            ? el("p", { class: "code" }, "Code ", el("strong", { text: message.code }), " ", codeButton)
            : null,
          ...message.links.map(linkBlock),
          el("details", {}, el("summary", { text: "Whole message" }), el("pre", { text: message.text })),
          remove));
    }

    views.inbox = () => {
      let messages = [];
      let drawn = "";
      const filter = $("to-filter");
      const draw = () => {
        const wanted = filter.value.trim().toLowerCase();
        const shown = messages.filter((m) => !wanted || m.to.toLowerCase().includes(wanted));
        const key = JSON.stringify(shown);
        if (key !== drawn) $("messages").replaceChildren(...shown.map(messageItem));
        drawn = key;
        say(messages.length === 0
          ? "No messages yet. Emails and SMS the server sends appear here as they are sent."
          : `${shown.length} of ${messages.length} message${messages.length === 1 ? "" : "s"}`);
      };
      const load = coalesce(async () => {
        messages = (await api("messages")).messages;
        draw();
      });
      filter.addEventListener("input", draw);
      $("delete-all").addEventListener("click", async () => {
        try { await api("messages/delete", { all: true }); } catch (error) { say(error.message, true); }
      });
      live({ ready: load, mail: load });
      load();
    };

    """#
}
