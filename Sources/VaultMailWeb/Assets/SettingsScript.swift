/// The settings page's script: a switch, a choice or a time is saved the moment it changes,
/// and the page says so in its status line (read aloud); the Save buttons are then not needed.
enum SettingsScript {
    static let js = #"""
"use strict";
(() => {
  const doc = document, $ = (s, el = doc) => el.querySelector(s);
  const csrf = () => ($('meta[name="csrf-token"]') || {}).content || "";
  const status = $("#settings-status");
  function say(text, error) { status.hidden = false; status.textContent = text; status.classList.toggle("error", !!error); }
  doc.querySelectorAll("form[data-autosave]").forEach(form => {
    form.classList.add("autosave");
    form.addEventListener("change", async () => {
      if (!form.checkValidity()) { say("Write the times as HH:MM.", true); return; }
      const body = new URLSearchParams(new FormData(form)); body.set("csrf", csrf());
      try {
        const r = await fetch(form.action, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json", "X-CSRF-Token": csrf() } });
        const reply = await r.json();
        say(reply.message || (r.ok ? "Saved." : "Not saved."), !r.ok);
        if (form.action.endsWith("/settings/general")) {
          const theme = (form.elements.theme || {}).value, density = (form.elements.density || {}).value;
          if (theme) doc.documentElement.dataset.theme = theme;
          if (density) doc.body.classList.toggle("compact", density === "compact");
        }
      } catch (err) { say("Not saved: VaultMail did not answer. Is the daemon running?", true); }
    });
  });
})();
"""#
}
