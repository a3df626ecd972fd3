/// The composer's script: recipient tokens with suggestions from the user's own mail
/// (AC-U-09), saving the draft as the user types (AC-U-10), attachments by picker or drop with
/// the server's size limit, and Send with the undo window (AC-U-11). Without it the form
/// still sends and discards.
///
/// It runs the composer page's form, and the same form fetched into a conversation by the
/// app's script (`window.VaultMailCompose(form, options)`, issue 29: answering in place), where
/// Send and Discard stay on the page and Escape closes it with the draft kept.
enum ComposeScript {
    static let js = #"""
"use strict";
(() => {
  const doc = document, $ = (s, el = doc) => el.querySelector(s), $$ = (s, el = doc) => Array.from(el.querySelectorAll(s));
  const csrf = () => ($('meta[name="csrf-token"]') || {}).content || "";
  // options.inPlace: the form is in a conversation; onSent(reply) and onClosed(message) replace
  // leaving the page, and the address stays the conversation's.
  function start(form, options = {}) {
    const status = $("#save-state", form), sendButton = $("#send", form);
    const state = { timer: null, saving: null, dirty: false, sending: false, ready: false };

    function field(name) { return form.elements[name]; }
    function fields() {
      const body = new URLSearchParams(new FormData(form));
      body.delete("index"); body.set("csrf", csrf());
      return body;
    }
    function post(url, body, accept = "application/json") {
      return fetch(url, { method: "POST", body, credentials: "same-origin", headers: { Accept: accept, "X-CSRF-Token": csrf() } });
    }
    function say(text) { status.textContent = text; }
    // An error in a person's words; its technical detail, if any, behind a disclosure (issue 29).
    function toast(text, error, detail) {
      const el = doc.createElement("div"); el.className = "toast" + (error ? " error" : "");
      el.setAttribute("role", error ? "alert" : "status");
      const span = doc.createElement("span"); span.textContent = text; el.append(span);
      if (detail) {
        const more = doc.createElement("details"), summary = doc.createElement("summary"), pre = doc.createElement("pre");
        summary.textContent = "Details"; pre.textContent = detail; more.append(summary, pre); el.append(more);
      }
      $("#toasts").append(el); setTimeout(() => el.remove(), error ? (detail ? 20000 : 10000) : 5000);
    }
    // The words and detail of a failed request (JSON), or its text.
    async function failure(r) {
      const text = await r.text();
      try { const reply = JSON.parse(text); return { message: reply.error || "Something went wrong.", detail: reply.detail }; }
      catch (_) { return { message: text || "Something went wrong." }; }
    }

    // ---- addresses ----
    function splitAddresses(text) {
      const parts = []; let cur = "", quoted = false, angled = false;
      for (const ch of text) {
        if (ch === '"') quoted = !quoted;
        if (!quoted && ch === "<") angled = true;
        if (!quoted && ch === ">") angled = false;
        if (!quoted && !angled && (ch === "," || ch === ";" || ch === "\n")) { parts.push(cur); cur = ""; continue; }
        cur += ch;
      }
      parts.push(cur);
      return parts.map(p => p.trim()).filter(Boolean);
    }
    function addressOf(text) { const m = /<([^<>]*)>\s*$/.exec(text); return (m ? m[1] : text).trim(); }
    function isValid(text) { return /^[^\s@<>(),;:"\[\]\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/.test(addressOf(text)); }

    // ---- recipient tokens with suggestions (the ARIA combobox pattern) ----
    function tokenField(wrapper) {
      const name = wrapper.dataset.field, input = $("input", wrapper), box = $(".token-box", wrapper), error = $(".field-error", wrapper);
      const hidden = doc.createElement("input"); hidden.type = "hidden"; hidden.name = name;
      input.removeAttribute("name"); wrapper.append(hidden);
      const list = doc.createElement("ul"); list.id = name + "-suggestions"; list.className = "suggestions"; list.setAttribute("role", "listbox");
      list.setAttribute("aria-label", "Suggested recipients"); list.hidden = true; wrapper.append(list);
      input.setAttribute("role", "combobox"); input.setAttribute("aria-autocomplete", "list");
      input.setAttribute("aria-expanded", "false"); input.setAttribute("aria-controls", list.id);
      let options = [], active = -1, fetchTimer = null, asked = "";

      function values() { return $$(".token", box).map(t => t.dataset.value); }
      function sync() {
        hidden.value = values().join(", ");
        const bad = $$(".token.invalid", box).map(t => t.dataset.value);
        error.textContent = bad.length ? (bad.length === 1 ? `“${bad[0]}” is not an email address.` : `${bad.length} addresses are not valid.`) + " Write it as name@example.com." : "";
        input.setAttribute("aria-invalid", bad.length ? "true" : "false");
        changed();
      }
      function add(text) {
        for (const value of splitAddresses(text)) {
          if (values().some(v => addressOf(v).toLowerCase() === addressOf(value).toLowerCase())) continue;
          const token = doc.createElement("span"); token.className = "token"; token.dataset.value = value;
          const label = doc.createElement("span"); label.className = "token-text"; label.textContent = value; token.append(label);
          if (!isValid(value)) { token.classList.add("invalid"); token.title = "Not a valid email address";
            const note = doc.createElement("span"); note.className = "visually-hidden"; note.textContent = ", not a valid address"; token.append(note); }
          const remove = doc.createElement("button"); remove.type = "button"; remove.className = "token-remove";
          remove.setAttribute("aria-label", "Remove " + value); remove.textContent = "×";
          remove.addEventListener("click", () => { token.remove(); sync(); input.focus(); });
          token.append(remove); box.insertBefore(token, input);
        }
        sync();
      }
      function commitTyped() { const text = input.value.trim(); if (text) { add(text); input.value = ""; } close(); }
      function close() { list.hidden = true; input.setAttribute("aria-expanded", "false"); input.removeAttribute("aria-activedescendant"); active = -1; }
      function highlight(i) {
        active = i;
        $$("li", list).forEach((li, j) => li.setAttribute("aria-selected", String(j === i)));
        if (i >= 0) input.setAttribute("aria-activedescendant", list.id + "-" + i); else input.removeAttribute("aria-activedescendant");
      }
      function choose(i) { const o = options[i]; if (!o) return; input.value = ""; add(o.value); close(); input.focus(); }
      async function suggest() {
        const q = input.value.trim(); asked = q;
        if (!q) { close(); return; }
        try {
          const r = await fetch("/compose/contacts?" + new URLSearchParams({ q }), { credentials: "same-origin", headers: { Accept: "application/json" } });
          const found = await r.json();
          if (asked !== q) return;
          options = found.filter(o => !values().some(v => addressOf(v).toLowerCase() === o.email.toLowerCase()));
          list.innerHTML = "";
          options.forEach((o, i) => {
            const li = doc.createElement("li"); li.id = list.id + "-" + i; li.setAttribute("role", "option"); li.setAttribute("aria-selected", "false");
            if (o.name) { const b = doc.createElement("strong"); b.textContent = o.name; li.append(b, " "); }
            const s = doc.createElement("span"); s.textContent = o.email; li.append(s);
            li.addEventListener("mousedown", e => { e.preventDefault(); choose(i); });
            list.append(li);
          });
          list.hidden = options.length === 0; input.setAttribute("aria-expanded", String(options.length > 0));
          highlight(options.length ? 0 : -1);
        } catch (_) { close(); }
      }
      input.addEventListener("input", () => {
        if (/[,;]\s*$/.test(input.value)) { commitTyped(); return; }
        clearTimeout(fetchTimer); fetchTimer = setTimeout(suggest, 60);
      });
      input.addEventListener("keydown", e => {
        const open = !list.hidden && options.length > 0;
        if (e.key === "ArrowDown" && open) { e.preventDefault(); highlight((active + 1) % options.length); }
        else if (e.key === "ArrowUp" && open) { e.preventDefault(); highlight((active - 1 + options.length) % options.length); }
        else if ((e.key === "Enter" || e.key === "Tab") && open && active >= 0) { e.preventDefault(); choose(active); }
        else if (e.key === "Enter") { e.preventDefault(); commitTyped(); }
        else if (e.key === "Escape" && open) { e.preventDefault(); close(); }
        else if (e.key === "Backspace" && !input.value) { const last = $$(".token", box).pop(); if (last) { last.remove(); sync(); } }
      });
      input.addEventListener("blur", () => setTimeout(() => { if (doc.activeElement !== input) commitTyped(); }, 150));
      box.addEventListener("click", e => { if (e.target === box) input.focus(); });
      const initial = input.value; input.value = ""; add(initial);
      return { values, flush: commitTyped, mark(address, reason) {
        const t = $$(".token", box).find(t => t.dataset.value === address);
        if (t && !t.classList.contains("invalid")) { t.classList.add("invalid"); t.title = reason; sync(); }
      } };
    }
    const recipients = Object.fromEntries($$(".recipients", form).map(w => [w.dataset.field, tokenField(w)]));

    const showCopies = $("#show-copies", form);
    if (showCopies) showCopies.addEventListener("click", () => {
      $("#copies", form).classList.add("shown"); showCopies.hidden = true; showCopies.setAttribute("aria-expanded", "true"); $("#cc", form).focus();
    });

    // ---- Send enabled once there is a recipient and a body ----
    function ready() {
      const anyone = Object.values(recipients).some(r => r.values().length > 0);
      return anyone && field("body").value.trim().length > 0;
    }
    function updateSend() { sendButton.disabled = state.sending || !ready(); }

    // ---- saving as the user types ----
    function changed() { if (!state.ready) return; state.dirty = true; updateSend(); clearTimeout(state.timer); state.timer = setTimeout(save, 800); cryptoChanged(); }

    // ---- the lock (issue 32): what sending will do, asked again as recipients or switches change ----
    const cryptoState = $("#crypto-state", form);
    let cryptoTimer = null;
    function cryptoChanged() { if (!cryptoState) return; clearTimeout(cryptoTimer); cryptoTimer = setTimeout(updateCrypto, 300); }
    async function updateCrypto() {
      try {
        const r = await post("/compose/crypto", fields());
        if (!r.ok) return;
        const reply = await r.json();
        cryptoState.dataset.state = reply.state; cryptoState.textContent = reply.summary;
      } catch (err) { /* the lock keeps what it showed; sending decides again */ }
    }
    form.addEventListener("change", e => { if (e.target.name === "encryption" || e.target.name === "sign") cryptoChanged(); });
    form.addEventListener("input", e => { if (!e.target.closest(".recipients")) changed(); });
    form.addEventListener("change", e => { if (e.target.name === "markdown" || e.target.name === "account") changed(); });
    async function save() {
      clearTimeout(state.timer);
      if (state.saving) { await state.saving; if (!state.dirty) return; }
      if (state.sending) return;
      state.dirty = false;
      say("Saving…");
      state.saving = (async () => {
        try {
          const r = await post("/compose/save", fields());
          const reply = await r.json();
          if (!r.ok) throw new Error(reply.error || "Not saved.");
          setDraft(reply.draft);
          for (const p of reply.problems || []) if (recipients[p.field]) recipients[p.field].mark(p.address, p.reason);
          say("Draft saved " + new Date().toLocaleTimeString([], { hour: "numeric", minute: "2-digit" }));
        } catch (err) { state.dirty = true; say((err.message.startsWith("Not saved") ? err.message : "Not saved — " + err.message) + " Trying again when you type."); }
      })();
      await state.saving; state.saving = null;
    }
    function setDraft(id) {
      if (!id || field("draft").value === id) return;
      field("draft").value = id; form.dataset.draft = id;
      if (options.inPlace) return;
      const q = new URLSearchParams({ kind: "draft", draft: id, return: field("return").value });
      history.replaceState({}, "", "/compose?" + q);
    }
    async function ensureSaved() { if (state.dirty || !field("draft").value) { state.dirty = true; await save(); } else if (state.saving) await state.saving; }
    window.addEventListener("pagehide", () => {
      if (!state.dirty || state.sending || !form.isConnected) return;
      navigator.sendBeacon("/compose/save", fields());
    });

    // ---- attachments ----
    const limit = Number(form.dataset.limit || 0);
    function totalSize() { return $$("#attachment-list li", form).reduce((n, li) => n + Number(li.dataset.size || 0), 0); }
    function formatSize(n) { return n < 1024 ? n + " bytes" : n < 1048576 ? (n / 1024).toFixed(0) + " KB" : (n / 1048576).toFixed(1) + " MB"; }
    function showAttachments(items) {
      const list = $("#attachment-list", form); $$("li:not(.forwarded)", list).forEach(li => li.remove());
      items.forEach((item, index) => {
        const li = doc.createElement("li"); li.dataset.size = item.size;
        const name = doc.createElement("span"); name.className = "file-name"; name.textContent = item.name;
        const size = doc.createElement("span"); size.className = "file-size"; size.textContent = item.sizeText;
        const remove = doc.createElement("button"); remove.type = "button"; remove.className = "link-button"; remove.textContent = "Remove";
        remove.setAttribute("aria-label", "Remove " + item.name);
        remove.addEventListener("click", async () => {
          const body = fields(); body.set("index", String(index));
          const r = await post("/compose/detach", body);
          if (r.ok) { showAttachments(await r.json()); say("Removed " + item.name + "."); } else { const f = await failure(r); toast(f.message, true, f.detail); }
        });
        li.append(name, " ", size, " ", remove); list.append(li);
      });
      $$("li.forwarded", list).forEach(li => list.append(li));
      const note = $("#size-note", form);
      if (note) note.textContent = "Or drop files here." + (limit ? ` ${formatSize(totalSize())} of the ${formatSize(limit)} the server accepts.` : "");
    }
    async function upload(files) {
      await ensureSaved();
      const draft = field("draft").value;
      if (!draft) { toast("The draft could not be saved, so files cannot be attached yet.", true); return; }
      for (const file of files) {
        if (limit && totalSize() + file.size * 4 / 3 > limit) {
          toast(`${file.name} (${formatSize(file.size)}) would make the message larger than the ${formatSize(limit)} the server accepts. Share it another way.`, true);
          continue;
        }
        say("Attaching " + file.name + "…");
        const r = await fetch("/compose/attach?" + new URLSearchParams({ draft, name: file.name }), {
          method: "POST", body: file, credentials: "same-origin",
          headers: { "Content-Type": file.type || "application/octet-stream", "X-CSRF-Token": csrf(), Accept: "application/json" } });
        if (r.ok) { showAttachments(await r.json()); say("Attached " + file.name + "; draft saved."); } else { const f = await failure(r); say(""); toast(f.message, true, f.detail); }
      }
    }
    const picker = $("#attach", form);
    picker.addEventListener("change", () => { const files = Array.from(picker.files); picker.value = ""; upload(files); });
    const zone = $("#dropzone", form);
    for (const type of ["dragenter", "dragover"]) zone.addEventListener(type, e => { e.preventDefault(); zone.classList.add("dropping"); });
    for (const type of ["dragleave", "drop"]) zone.addEventListener(type, () => zone.classList.remove("dropping"));
    zone.addEventListener("drop", e => { e.preventDefault(); if (e.dataTransfer && e.dataTransfer.files.length) upload(Array.from(e.dataTransfer.files)); });
    if (!options.inPlace) { doc.addEventListener("dragover", e => e.preventDefault()); doc.addEventListener("drop", e => e.preventDefault()); }
    $$("#attachment-list li:not(.forwarded) button[formaction]", form).forEach(b => b.remove());
    $$("#attachment-list li", form).forEach(li => { const m = /([\d.]+)\s*(bytes|KB|MB|GB)/.exec($(".file-size", li).textContent);
      if (m) li.dataset.size = Math.round(Number(m[1]) * { bytes: 1, KB: 1e3, MB: 1e6, GB: 1e9 }[m[2]]); });

    // ---- send (with the undo window) and discard ----
    async function send() {
      Object.values(recipients).forEach(r => r.flush());
      if (!ready()) { toast("Add a recipient and write something before sending.", true); return; }
      clearTimeout(state.timer);
      if (state.saving) await state.saving;
      state.sending = true; updateSend(); say("Sending…");
      try {
        const r = await post("/compose/send", fields());
        const reply = await r.json();
        if (!r.ok) { if (reply.draft) setDraft(reply.draft); throw Object.assign(new Error(reply.error || "Not sent."), { detail: reply.detail }); }
        sessionStorage.setItem("vaultmail-sending", JSON.stringify({ draft: reply.draft, until: Date.now() + reply.undoSeconds * 1000, subject: reply.subject }));
        if (options.onSent) options.onSent(reply); else location.href = reply.url;
      } catch (err) {
        state.sending = false; updateSend(); say(""); toast(err.message, true, err.detail);
      }
    }
    // Send later (issue 33): the menu's choice posted with the draft; refusals in the service's words.
    async function sendLater(button) {
      Object.values(recipients).forEach(r => r.flush());
      if (!ready()) { toast("Add a recipient and write something before sending.", true); return; }
      clearTimeout(state.timer);
      if (state.saving) await state.saving;
      state.sending = true; updateSend(); say("Scheduling…");
      try {
        const body = fields(); body.set("at", button.value);
        const r = await post("/compose/send-later", body);
        const reply = await r.json();
        if (!r.ok) { if (reply.draft) setDraft(reply.draft); throw Object.assign(new Error(reply.error || "Not scheduled."), { detail: reply.detail }); }
        const menu = $("#send-later", form); if (menu) menu.open = false;
        sessionStorage.setItem("vaultmail-scheduled", JSON.stringify({ draft: reply.draft, message: reply.message }));
        if (options.onSent) options.onSent(reply); else location.href = reply.url;
      } catch (err) {
        state.sending = false; updateSend(); say(""); toast(err.message, true, err.detail);
      }
    }
    const when = $("#send-when", form);
    if (when) when.addEventListener("keydown", e => {
      if (e.key === "Enter") { e.preventDefault(); sendLater($('.send-later-choice[value="pick"]', form)); }
    });
    form.addEventListener("submit", async e => {
      e.preventDefault();
      if (e.submitter && e.submitter.classList.contains("send-later-choice")) { sendLater(e.submitter); return; }
      if (e.submitter && e.submitter.id === "discard") {
        clearTimeout(state.timer); state.sending = true;
        if (state.saving) await state.saving;
        const r = await post("/compose/discard", fields());
        const reply = await r.json().catch(() => ({}));
        if (options.onClosed) { options.onClosed(reply.message || "Draft discarded."); return; }
        if (reply.message) sessionStorage.setItem("vaultmail-notice", reply.message);
        location.href = reply.url || field("return").value || "/mail";
        return;
      }
      send();
    });
    const sendKey = e => {
      if (!form.isConnected) { doc.removeEventListener("keydown", sendKey); return; }
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); send(); }
    };
    doc.addEventListener("keydown", sendKey);

    state.ready = true;
    updateSend();
    const body = field("body");
    if (form.dataset.kind === "new" && !Object.values(recipients).some(r => r.values().length)) $("#to", form).focus();
    else { const at = Number(body.dataset.cursor) || 0; body.focus({ preventScroll: !!options.inPlace }); body.setSelectionRange(at, at); body.scrollTop = 0; }
    // Closing an answer in place keeps what was written: saved now, a draft of the conversation.
    return { async close() { Object.values(recipients).forEach(r => r.flush()); clearTimeout(state.timer);
      if (state.saving) await state.saving; if (state.dirty) await save(); return field("draft").value; } };
  }
  window.VaultMailCompose = start;
  const page = $("#composer");
  if (page && !page.closest("#conversation")) start(page);
})();
"""#
}
