/// Unsubscribe (issue 33), on the mail page (part of app.js) and the Subscriptions page: a
/// control with `data-unsubscribe="EMAIL-ID"` and `data-confirm="…"` asks in a modal dialog
/// naming the sender and what will be sent (keyboard: focus starts on Cancel, Escape closes),
/// then posts `/unsubscribe` and says what happened in the page's live region (a toast on the
/// mail page, the status line on the Subscriptions page); once done the control becomes
/// "Unsubscribed …". Without the script the control opens the same question as a page.
enum UnsubscribeScript {
    static let js = #"""
"use strict";
(() => {
  const doc = document;
  const csrf = () => (doc.querySelector('meta[name="csrf-token"]') || {}).content || "";
  function say(text, error) {
    const status = doc.getElementById("subs-status");
    if (status) { status.hidden = false; status.textContent = text; status.classList.toggle("error", !!error); return; }
    const toasts = doc.getElementById("toasts");
    if (!toasts) return;
    const el = doc.createElement("div");
    el.className = "toast" + (error ? " error" : "");
    el.textContent = text;
    toasts.append(el);
    setTimeout(() => el.remove(), 10000);
  }
  function ask(question) {
    return new Promise(resolve => {
      const dialog = doc.createElement("dialog");
      dialog.className = "confirm-dialog";
      dialog.setAttribute("aria-labelledby", "unsub-q");
      dialog.setAttribute("aria-describedby", "unsub-what");
      const [head, ...rest] = question.split("? ");
      const h = doc.createElement("h2"); h.id = "unsub-q"; h.textContent = head + "?";
      const p = doc.createElement("p"); p.id = "unsub-what"; p.textContent = rest.join("? ");
      const row = doc.createElement("div"); row.className = "dialog-buttons";
      const cancel = doc.createElement("button"); cancel.type = "button"; cancel.className = "tool"; cancel.textContent = "Cancel";
      const go = doc.createElement("button"); go.type = "button"; go.className = "primary"; go.textContent = "Unsubscribe";
      row.append(go, cancel);
      dialog.append(h, p, row);
      doc.body.append(dialog);
      let answer = false;
      go.addEventListener("click", () => { answer = true; dialog.close(); });
      cancel.addEventListener("click", () => dialog.close());
      dialog.addEventListener("close", () => { dialog.remove(); resolve(answer); });
      dialog.showModal();
      cancel.focus();
    });
  }
  doc.addEventListener("click", async e => {
    const control = e.target.closest && e.target.closest("[data-unsubscribe]");
    if (!control) return;
    e.preventDefault();
    e.stopPropagation();
    const menu = control.closest("details");
    if (!(await ask(control.dataset.confirm))) { control.focus(); return; }
    if (menu) menu.open = false;
    const body = new URLSearchParams({ id: control.dataset.unsubscribe, csrf: csrf() });
    let reply;
    try {
      const r = await fetch("/unsubscribe", { method: "POST", body, credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRF-Token": csrf() } });
      reply = await r.json();
    } catch (err) {
      say("Not unsubscribed: VaultMail did not answer. Is the daemon running?", true);
      return;
    }
    say(reply.message, !reply.succeeded);
    if (reply.succeeded && reply.state) {
      const done = doc.createElement("span");
      done.className = control.classList.contains("menu-item") ? "menu-note subs-done" : "subs-done";
      done.textContent = reply.state;
      done.tabIndex = -1;
      (control.closest("td form") || control).replaceWith(done);
      done.focus();
    }
  }, true);
})();
"""#
}
