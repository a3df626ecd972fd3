/// The script of the model pages: while a download runs it asks `/settings/ai/status` every
/// 400 ms and moves the bar and the state line (the bar is a native `<progress>` with a
/// label); when a download starts or ends it reloads the page, whose forms then offer what
/// comes next. Without it the forms work the same and a reload shows the progress.
enum AIModelsScript {
    static let asset = Asset(name: "ai-models.js", type: "text/javascript; charset=utf-8", content: js)

    static let js = #"""
"use strict";
(() => {
  const doc = document, root = doc.querySelector("[data-ai-models]");
  if (!root) return;
  const items = () => Array.from(root.querySelectorAll("[data-model]"));
  async function poll() {
    let running = false;
    try {
      const r = await fetch("/settings/ai/status", { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!r.ok) throw new Error(String(r.status));
      const reply = await r.json();
      for (const m of reply.models) {
        const item = items().find(el => el.dataset.model === m.id);
        if (!item) continue;
        if (String(m.downloading) !== item.dataset.downloading || String(m.installed) !== item.dataset.installed) { location.reload(); return; }
        running = running || m.downloading;
        const bar = item.querySelector("progress"), percent = item.querySelector("[data-ai-percent]"), state = item.querySelector("[data-ai-state]");
        if (bar) { bar.value = m.percent; bar.textContent = m.percent + "%"; }
        if (percent) percent.textContent = m.percent + "%";
        if (state) state.textContent = m.label;
      }
      const storage = root.querySelector("[data-ai-storage]");
      if (storage) storage.textContent = reply.storageUsed;
    } catch (err) { running = true; }
    if (running) setTimeout(poll, 400);
  }
  if (items().some(el => el.dataset.downloading === "true")) setTimeout(poll, 400);
  // A switch is saved the moment it changes, and the status line (read aloud) says so.
  root.querySelectorAll("form[data-autosave]").forEach(form => {
    form.classList.add("autosave");
    form.addEventListener("change", async () => {
      const status = doc.getElementById("ai-status"), token = (doc.querySelector('meta[name="csrf-token"]') || {}).content || "";
      const say = (text, error) => { status.hidden = false; status.textContent = text; status.classList.toggle("error", !!error); };
      const body = new URLSearchParams(new FormData(form)); body.set("csrf", token);
      try {
        const r = await fetch(form.action, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json", "X-CSRF-Token": token } });
        const reply = await r.json();
        say(reply.message || (r.ok ? "Saved." : "Not saved."), !r.ok);
      } catch (err) { say("Not saved: VaultMail did not answer. Is the daemon running?", true); }
    });
  });
})();
"""#
}
