/// The app's small script, for what HTML alone cannot do: live updates over server-sent
/// events, opening conversations without a reload, endless scrolling, selection with shift
/// ranges, undo for destructive actions, the in-app new-mail banner, and keyboard shortcuts.
/// Without it every page still reads and every action still works (progressive enhancement).
enum AppScript {
    static let js = #"""
"use strict";
(() => {
  const doc = document, root = doc.documentElement;
  root.classList.add("js");
  const $ = (s, el = doc) => el.querySelector(s), $$ = (s, el = doc) => Array.from(el.querySelectorAll(s));
  const csrf = () => ($('meta[name="csrf-token"]') || {}).content || "";
  const UNDO_MS = 5000;
  const state = { pending: [], lastChecked: null, viewing: null, viewingKey: null };

  function params() { return new URLSearchParams(location.search); }
  function box() { return params().get("box") || "inbox"; }
  function listQuery(extra) {
    const p = new URLSearchParams({ box: box() });
    const cat = params().get("cat"); if (cat) p.set("cat", cat);
    const q = params().get("q"); if (q) p.set("q", q);
    for (const [k, v] of Object.entries(extra || {})) p.set(k, v);
    return p.toString();
  }
  async function getHTML(url) {
    const r = await fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" });
    if (r.status === 204) return null;
    if (!r.ok && r.status !== 404) throw new Error(await r.text());
    return r.text();
  }
  function post(url, fields) {
    const body = new URLSearchParams(fields); body.set("csrf", csrf());
    return fetch(url, { method: "POST", body, credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRF-Token": csrf() } });
  }

  // ---- toasts (undo, errors) ----
  function toast(text, opts = {}) {
    const el = doc.createElement("div");
    el.className = "toast" + (opts.error ? " error" : "");
    const span = doc.createElement("span"); span.textContent = text; el.append(span);
    if (opts.action) {
      const b = doc.createElement("button"); b.type = "button"; b.textContent = opts.action;
      b.addEventListener("click", () => { el.remove(); opts.onAction(); });
      el.append(b);
    }
    $("#toasts").append(el);
    setTimeout(() => el.remove(), opts.ms || 6000);
    return el;
  }

  // ---- rows and selection ----
  function rows() { return $$("#threads .row"); }
  function selectedIds() { return $$("#threads .select:checked").map(c => c.value); }
  function updateSelection() {
    const ids = selectedIds(), pane = $("#list-pane");
    if (!pane) return;
    pane.classList.toggle("selecting", ids.length > 0);
    rows().forEach(r => r.classList.toggle("selected", !!($(".select", r) || {}).checked));
    const count = $(".selection-count", pane); if (count) count.textContent = ids.length ? ids.length + " selected" : "";
    const all = $("#select-all"); if (all) all.checked = ids.length > 0 && ids.length === rows().length;
  }
  doc.addEventListener("click", e => {
    const box = e.target.closest && e.target.closest("#threads .select");
    if (!box) return;
    const list = $$("#threads .select");
    const last = list.findIndex(c => c.value === state.lastChecked);
    if (e.shiftKey && last >= 0 && state.lastChecked !== box.value) {
      const [a, b] = [last, list.indexOf(box)].sort((x, y) => x - y);
      list.slice(a, b + 1).forEach(c => { c.checked = box.checked; });
    }
    state.lastChecked = box.value;
    updateSelection();
  });
  doc.addEventListener("change", e => {
    if (e.target.id === "select-all") { $$("#threads .select").forEach(c => { c.checked = e.target.checked; }); updateSelection(); }
  });

  function hideRows(ids) {
    for (const id of ids) { const row = $(`#threads .row[data-id="${CSS.escape(id)}"]`); if (row) row.remove(); }
  }

  // ---- the current row (keyboard) ----
  function current() { return $("#threads .row.current") || $("#threads .row.open"); }
  function setCurrent(row) {
    rows().forEach(r => r.classList.remove("current"));
    if (!row) return;
    row.classList.add("current");
    $(".row-link", row).focus({ preventScroll: true });
    row.scrollIntoView({ block: "nearest" });
  }

  // ---- conversations ----
  function openThreadId() { const c = $("#conversation"); return c ? c.dataset.thread : null; }
  async function openThread(href, push = true) {
    const url = new URL(href, location.href), t = url.searchParams.get("t");
    if (!t) return closeThread(push);
    try {
      const q = new URLSearchParams({ box: url.searchParams.get("box") || "inbox", t });
      const cat = url.searchParams.get("cat"); if (cat) q.set("cat", cat);
      const images = url.searchParams.get("images"); if (images) q.set("images", images);
      const html = await getHTML("/mail/conversation?" + q);
      $("#reading-pane").innerHTML = html;
      $("#main").classList.add("thread-open");
      // Read state follows the server (the change event after marking it read), never a guess.
      rows().forEach(r => r.classList.toggle("open", r.dataset.id === t));
      if (push) history.pushState({}, "", url.pathname + url.search);
      const title = $("#conv-title"); if (title) title.focus({ preventScroll: true });
      reportViewing();
    } catch (err) { location.href = href; }
  }
  function closeThread(push = true) {
    $("#main").classList.remove("thread-open");
    $("#reading-pane").innerHTML = '<div class="empty reading-empty"><p class="empty-title">No conversation selected</p><p>Pick one from the list, or press <kbd>j</kbd> and <kbd>Enter</kbd>.</p></div>';
    rows().forEach(r => r.classList.remove("open"));
    if (push) { const p = params(); p.delete("t"); p.delete("images"); history.pushState({}, "", location.pathname + "?" + p); }
    reportViewing();
    const row = current(); if (row) setCurrent(row);
  }
  doc.addEventListener("click", e => {
    const link = e.target.closest && e.target.closest("a.row-link, .banner a, a.back");
    if (!link || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    if (link.classList.contains("back")) return closeThread();
    const row = link.closest(".row"); if (row) setCurrent(row);
    openThread(link.href);
  });
  window.addEventListener("popstate", () => { params().get("t") ? openThread(location.href, false) : closeThread(false); });

  // ---- which conversation is on screen (NOTIF-06f) ----
  function reportViewing() {
    const shown = doc.visibilityState === "visible" && doc.hasFocus();
    const watching = shown ? { t: openThreadId() || "", box: box() } : null;
    const key = watching ? watching.box + "\n" + watching.t : null;
    if (key === state.viewingKey) return;
    const previous = state.viewing;
    state.viewing = watching; state.viewingKey = key;
    post("/viewing", watching ? { ...watching, state: "open" } : { ...previous, state: "closed" })
      .then(r => {
        if (!r.ok || state.viewingKey !== key) return;
        doc.body.dataset.viewing = watching ? watching.t : "";
        doc.body.dataset.viewingBox = watching ? watching.box : "";
      }).catch(() => {});
  }
  window.addEventListener("focus", reportViewing);
  window.addEventListener("blur", reportViewing);
  doc.addEventListener("visibilitychange", reportViewing);

  // ---- actions, with undo for the destructive ones ----
  const DESTRUCTIVE = { archive: "Archived", delete: "Deleted", move: "Moved" };
  function countText(n) { return n === 1 ? "1 conversation" : n + " conversations"; }
  async function send(fields) {
    const r = await post("/actions", fields);
    let reply = {}; try { reply = await r.json(); } catch (_) {}
    if (!r.ok || (reply.failed && reply.failed.length)) throw Object.assign(new Error(reply.message || "The server refused the action."), { reply });
    return reply;
  }
  function perform(action, ids, extra) {
    if (!ids.length) { toast("Select one or more conversations first."); return; }
    if (action === "move" && !(extra || {}).folder) { toast("Choose a folder to move to first."); return; }
    const fields = [["action", action], ...ids.map(id => ["t[]", id]), ...Object.entries(extra || {})];
    if (DESTRUCTIVE[action]) {
      hideRows(ids);
      if (ids.includes(openThreadId())) closeThread();
      updateSelection();
      const job = { fields, ids, done: false };
      state.pending.push(job);
      // The rows come back from the server, where they still are, in their place.
      const restore = () => { doRefresh(); };
      const timer = setTimeout(async () => {
        job.done = true; state.pending = state.pending.filter(j => j !== job); note.remove();
        try { await send(fields); }
        catch (err) { restore(); toast(err.message, { error: true, action: "Retry", onAction: () => perform(action, ids, extra), ms: 10000 }); }
      }, UNDO_MS);
      const note = toast(`${DESTRUCTIVE[action]} ${countText(ids.length)}.`, { action: "Undo", ms: UNDO_MS, onAction: () => {
        clearTimeout(timer); job.done = true; state.pending = state.pending.filter(j => j !== job); restore();
        toast("Undone.", { ms: 2500 });
      } });
      return;
    }
    send(fields).then(reply => { if (reply.message) toast(reply.message); refresh(); })
      .catch(err => toast(err.message, { error: true, action: "Retry", onAction: () => perform(action, ids, extra), ms: 10000 }));
  }
  // Actions still waiting for their undo window are sent when the page goes away.
  window.addEventListener("pagehide", () => {
    for (const job of state.pending) {
      if (job.done) continue;
      const body = new URLSearchParams(job.fields); body.set("csrf", csrf());
      navigator.sendBeacon("/actions", body);
    }
    state.pending = [];
    if (state.viewing) navigator.sendBeacon("/viewing", new URLSearchParams({ ...state.viewing, state: "closed", csrf: csrf() }));
  });
  doc.addEventListener("submit", e => {
    const form = e.target;
    if (form.id !== "list-form" && form.id !== "conv-form") return;
    const button = e.submitter;
    if (!button || (button.hasAttribute("formaction") && button.getAttribute("formaction") !== "/actions")) return;
    e.preventDefault();
    if (button.name === "one") {
      const [verb, arg] = [button.value.slice(0, button.value.indexOf(":")), button.value.slice(button.value.indexOf(":") + 1)];
      // The Move menu's folders: the selection (or this conversation), with the undo window.
      if (verb === "move") {
        const menu = button.closest("details"); if (menu) menu.open = false;
        perform("move", form.id === "conv-form" ? [$('input[name="t[]"]', form).value] : selectedIds(), { folder: arg });
        return;
      }
      // A row's own actions (shown on pointing or focus): that conversation, with the undo window.
      if (["archive", "delete", "read", "unread"].includes(verb)) { perform(verb, [arg]); return; }
      send([["one", button.value]]).then(reply => {
        if (verb === "star" || verb === "unstar") {
          const on = verb === "star";
          button.classList.toggle("on", on); button.setAttribute("aria-pressed", String(on));
          button.value = (on ? "unstar:" : "star:") + arg;
          const label = button.getAttribute("aria-label") || "";
          button.setAttribute("aria-label", (on ? "Unstar" : "Star") + label.slice(label.indexOf(":")));
          $("svg", button).setAttribute("fill", on ? "currentColor" : "none");
        } else if (reply.message) { toast(reply.message); }
        refresh();
      }).catch(err => toast(err.message, { error: true }));
      return;
    }
    const ids = form.id === "conv-form" ? [$('input[name="t[]"]', form).value] : selectedIds();
    const menu = button.closest("details.menu"); if (menu) menu.open = false;
    perform(button.value, ids, {});
  });

  // ---- menus (<details>): one open at a time, closed by Escape or a click elsewhere ----
  doc.addEventListener("toggle", e => {
    const menu = e.target;
    if (!menu.matches || !menu.matches("details.menu") || !menu.open) return;
    $$("details.menu[open]").forEach(d => { if (d !== menu) d.open = false; });
  }, true);
  doc.addEventListener("click", e => {
    if (e.target.closest && e.target.closest("details.menu")) return;
    $$("details.menu[open]").forEach(d => { d.open = false; });
  });
  doc.addEventListener("keydown", e => {
    if (e.key !== "Escape") return;
    const menu = e.target.closest && e.target.closest("details.menu[open]");
    if (menu) { menu.open = false; $("summary", menu).focus(); }
  });

  // ---- the splitter between the list and the reading pane (issue 29) ----
  // Its share (percent of the width beside the sidebar) goes into a cookie the server reads,
  // so the next page is drawn that way before this script runs.
  function splitter() {
    const bar = $("#list-splitter"), main = $("#main"), list = $("#list-pane"), side = $("#sidebar");
    if (!bar || !list) return;
    const area = () => main.clientWidth - (side ? side.offsetWidth : 0) - bar.offsetWidth;
    const share = () => main.dataset.split ? +main.dataset.split : area() > 0 ? Math.round(100 * list.offsetWidth / area()) : 50;
    const shown = () => bar.setAttribute("aria-valuenow", String(share()));
    const set = (share, keep) => {
      share = Math.max(25, Math.min(75, Math.round(share)));
      main.dataset.split = String(share); bar.setAttribute("aria-valuenow", String(share));
      if (keep) doc.cookie = "vaultmail_split=" + share + "; path=/; max-age=31536000; samesite=strict";
    };
    shown(); window.addEventListener("resize", shown); bar.addEventListener("focus", shown);
    bar.addEventListener("keydown", e => {
      const now = share();
      const to = { ArrowLeft: now - 2, ArrowRight: now + 2, Home: 25, End: 75 }[e.key];
      if (to === undefined) return;
      e.preventDefault(); e.stopPropagation(); set(to, true);
    });
    bar.addEventListener("pointerdown", e => {
      if (e.button !== 0) return;
      e.preventDefault(); bar.focus();
      try { bar.setPointerCapture(e.pointerId); } catch (_) { /* a synthetic pointer */ }
      const grab = e.clientX - bar.getBoundingClientRect().left, left = list.getBoundingClientRect().left;
      const move = ev => set(100 * (ev.clientX - grab - left) / area(), false);
      const up = ev => {
        move(ev); bar.removeEventListener("pointermove", move); bar.removeEventListener("pointerup", up);
        set(+bar.getAttribute("aria-valuenow"), true);
      };
      bar.addEventListener("pointermove", move); bar.addEventListener("pointerup", up);
    });
  }

  // ---- endless scrolling ----
  const more = new IntersectionObserver(entries => {
    for (const entry of entries) if (entry.isIntersecting) loadMore(entry.target);
  }, { rootMargin: "400px" });
  function watchMore() { $$(".more a[data-next]").forEach(a => more.observe(a)); }
  async function loadMore(link) {
    more.unobserve(link);
    try {
      const html = await getHTML(link.dataset.next);
      const li = link.closest("li"); li.insertAdjacentHTML("beforebegin", html); li.remove();
      watchMore(); updateSelection();
    } catch (err) { link.textContent = "Could not load older conversations. Try again"; more.observe(link); }
  }

  // ---- live updates ----
  let refreshTimer = null;
  function refresh() { clearTimeout(refreshTimer); refreshTimer = setTimeout(doRefresh, 40); }
  async function doRefresh() {
    try {
      const side = await getHTML("/mail/sidebar?" + new URLSearchParams({ box: box() }));
      if (side) $("#sidebar").outerHTML = side;
      const list = $("#threads") || null;
      if (list || $("#list-form .empty")) {
        const count = Math.max(25, Math.min(200, rows().length));
        const html = await getHTML("/mail/list?" + listQuery({ limit: count }));
        const checked = new Set(selectedIds()), cur = current() ? current().dataset.id : null, focused = doc.activeElement && doc.activeElement.closest(".row");
        if (list) { list.innerHTML = html; }
        else if (html.trim()) { $("#list-form .empty").outerHTML = '<ul class="threads" id="threads" aria-label="Conversations">' + html + "</ul>"; }
        const open = openThreadId();
        hideRows(state.pending.filter(j => !j.done).flatMap(j => j.ids));
        rows().forEach(r => {
          if (checked.has(r.dataset.id) && $(".select", r)) $(".select", r).checked = true;
          r.classList.toggle("open", r.dataset.id === open);
          if (r.dataset.id === cur) r.classList.add("current");
        });
        if (focused && cur) { const r = $(`#threads .row[data-id="${CSS.escape(cur)}"]`); if (r) $(".row-link", r).focus({ preventScroll: true }); }
        watchMore(); updateSelection();
      }
      const conv = $("#conversation");
      if (conv) {
        const q = new URLSearchParams({ box: box(), t: conv.dataset.thread, known: conv.dataset.version });
        const html = await getHTML("/mail/conversation?" + q);
        if (html !== null) {
          const open = new Set($$(".msg[open]", conv).map(d => d.closest(".message").id));
          $("#reading-pane").innerHTML = html;
          $$(".message", $("#reading-pane")).forEach(m => { if (open.has(m.id)) $(".msg", m).open = true; });
        }
      }
    } catch (_) { /* the next event tries again */ }
  }
  function setConnection(problem) {
    const el = $("#connection"); if (!el) return;
    el.hidden = !problem;
    $(".connection-detail", el).textContent = problem || "";
  }
  function showBanners(items) {
    const host = $("#banners"); if (!host) return;
    for (const item of items) {
      if ($$(".banner", host).length >= 3) { $$(".banner", host)[0].remove(); }
      const b = doc.createElement("div"); b.className = "banner"; b.setAttribute("role", "status");
      const a = doc.createElement("a");
      a.href = "/mail?" + new URLSearchParams({ box: box(), t: item.threadId });
      const strong = doc.createElement("strong"); strong.textContent = item.sender;
      const span = doc.createElement("span"); span.textContent = item.subject + (item.preview ? " — " + item.preview : "");
      a.append(strong, span);
      const close = doc.createElement("button"); close.type = "button"; close.setAttribute("aria-label", "Dismiss"); close.textContent = "×";
      close.addEventListener("click", () => b.remove());
      b.append(a, close);
      host.append(b);
      let timer = setTimeout(() => b.remove(), 5000);
      b.addEventListener("mouseenter", () => clearTimeout(timer));
      b.addEventListener("focusin", () => clearTimeout(timer));
      b.addEventListener("mouseleave", () => { clearTimeout(timer); timer = setTimeout(() => b.remove(), 5000); });
      b.addEventListener("focusout", () => { clearTimeout(timer); timer = setTimeout(() => b.remove(), 5000); });
      a.addEventListener("click", () => b.remove());
    }
  }
  function connect() {
    const source = new EventSource("/events");
    source.addEventListener("open", () => { if ($("#connection") && $("#connection").dataset.down) { delete $("#connection").dataset.down; setConnection(null); refresh(); } });
    source.addEventListener("change", refresh);
    source.addEventListener("connection", e => { try { setConnection(JSON.parse(e.data).problem); } catch (_) {} });
    source.addEventListener("newmail", e => { try { showBanners(JSON.parse(e.data)); } catch (_) {} });
    source.addEventListener("error", () => { const el = $("#connection"); if (el) { el.dataset.down = "1"; setConnection("VaultMail is not running; reconnecting…"); } });
  }

  // ---- writing: the composer, and the undo window after Send (AC-U-11) ----
  function compose(kind) {
    const link = $(`#conversation .reply-bar a[data-compose="${kind}"]`);
    if (link) location.href = link.href;
  }
  function sendingToast() {
    let pending = null;
    try { pending = JSON.parse(sessionStorage.getItem("vaultmail-sending") || "null"); } catch (_) {}
    const notice = sessionStorage.getItem("vaultmail-notice");
    sessionStorage.removeItem("vaultmail-notice");
    if (notice) toast(notice);
    if (!pending) return;
    const left = () => Math.max(0, Math.ceil((pending.until - Date.now()) / 1000));
    if (left() <= 0) { sessionStorage.removeItem("vaultmail-sending"); return; }
    const name = pending.subject ? `“${pending.subject}”` : "your message";
    const el = toast("", { action: "Undo", ms: left() * 1000 + 500, onAction: async () => {
      clearInterval(timer); sessionStorage.removeItem("vaultmail-sending");
      const r = await post("/compose/undo", { draft: pending.draft });
      let reply = {}; try { reply = await r.json(); } catch (_) {}
      if (r.ok && reply.url) { location.href = reply.url + "&return=" + encodeURIComponent(location.pathname + location.search); }
      else toast(reply.error || "Too late: the message has gone.", { error: true });
    } });
    const text = $("span", el);
    const tick = () => {
      const n = left();
      text.textContent = n > 0 ? `Sending ${name} in ${n} s.` : `Sending ${name}…`;
      if (n <= 0) { clearInterval(timer); sessionStorage.removeItem("vaultmail-sending"); el.remove(); }
    };
    const timer = setInterval(tick, 250); tick();
  }

  // ---- keyboard (AC-M-04) ----
  doc.addEventListener("keydown", e => {
    if (e.ctrlKey || e.metaKey || e.altKey || $("#composer")) return;
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)) && t.type !== "checkbox") {
      if (e.key === "Escape") t.blur();
      return;
    }
    if ($("dialog[open]")) return;
    const list = rows(), row = current(), i = row ? list.indexOf(row) : -1;
    const target = () => openThreadId() && (!row || row.classList.contains("open")) ? [openThreadId()] : (selectedIds().length ? selectedIds() : row ? [row.dataset.id] : []);
    const act = a => perform(a, target());
    const keys = {
      j: () => setCurrent(list[Math.min(list.length - 1, i + 1)] || list[0]),
      k: () => setCurrent(list[Math.max(0, i - 1)] || list[0]),
      Enter: () => row && openThread($(".row-link", row).href), o: () => row && openThread($(".row-link", row).href),
      u: () => closeThread(), e: () => act("archive"), "#": () => act("delete"),
      s: () => { const ids = target(); if (!ids.length) return; const r = $(`#threads .row[data-id="${CSS.escape(ids[0])}"]`);
        const on = r ? $(".star", r).classList.contains("on") : $('#conv-form button[value="unstar"]') !== null; perform(on ? "unstar" : "star", ids); },
      I: () => act("read"), U: () => act("unread"),
      x: () => { const c = row && $(".select", row); if (c) { c.checked = !c.checked; state.lastChecked = c.value; updateSelection(); } },
      z: () => { const undo = $$("#toasts button").reverse().find(b => b.textContent === "Undo"); if (undo) undo.click(); },
      "/": () => { const q = $("#q"); if (q) q.focus(); },
      c: () => { location.href = "/compose?" + new URLSearchParams({ return: location.pathname + location.search }); },
      r: () => compose("reply"), a: () => compose("reply-all"), f: () => compose("forward"),
      "?": () => { const d = $("#shortcuts"); if (d) d.showModal(); },
    };
    const run = keys[e.key];
    if (!run || (e.key === "Enter" && t && t.closest && t.closest("a, button, summary, input, select, textarea"))) return;
    e.preventDefault();
    run();
  });
  doc.addEventListener("click", e => { if (e.target.closest && e.target.closest("#shortcuts-button")) $("#shortcuts").showModal(); });

  doc.addEventListener("DOMContentLoaded", () => {
    if ($("#toasts")) sendingToast();
    if (!$("#main") || $("#composer")) return;
    watchMore(); updateSelection(); connect(); reportViewing(); splitter();
  });
})();
"""#
}
