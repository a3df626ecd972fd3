/// The app's small script, for what HTML alone cannot do: live updates over server-sent
/// events, opening conversations without a reload, endless scrolling, selection with shift
/// ranges, undo for destructive actions, the in-app new-mail banner, and keyboard shortcuts;
/// after triage the next conversation opens, counts follow each change event together,
/// Reply, Reply all and Forward open the composer in place, and "Mark all as read" waits out
/// its undo window (issue 29).
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
  // An error in a person's words, the technical detail behind a disclosure (issue 29).
  function errorToast(err, opts = {}) {
    const el = toast(err.message, Object.assign({ error: true }, opts));
    const detail = err.reply && err.reply.detail;
    if (detail) {
      const more = doc.createElement("details"), summary = doc.createElement("summary"), pre = doc.createElement("pre");
      summary.textContent = "Details"; pre.textContent = detail; more.append(summary, pre);
      el.insertBefore(more, $("button", el));
    }
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
    // A date heading whose rows all left goes with them (issue 29).
    $$("#threads .date-heading").forEach(h => { const next = h.nextElementSibling; if (!next || !next.classList.contains("row")) h.remove(); });
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
    await closeComposer({ quiet: true });
    const url = new URL(href, location.href), t = url.searchParams.get("t");
    if (!t) return closeThread(push);
    try {
      const q = new URLSearchParams({ box: url.searchParams.get("box") || "inbox", t });
      const cat = url.searchParams.get("cat"); if (cat) q.set("cat", cat);
      const images = url.searchParams.get("images"); if (images) q.set("images", images);
      const html = await getHTML("/mail/conversation?" + q);
      // An answer opened while this loaded (Reply pressed at once on the conversation already
      // shown) stays under it, and keeps the focus.
      const typing = replacePane(html);
      $("#main").classList.add("thread-open");
      // Read state follows the server (the change event after marking it read), never a guess.
      rows().forEach(r => r.classList.toggle("open", r.dataset.id === t));
      if (push) history.pushState({}, "", url.pathname + url.search);
      const title = $("#conv-title"); if (title && !typing) title.focus({ preventScroll: true });
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

  // ---- a long conversation's older messages (E-06): a page more, in place, the message that
  // was first staying where it was on screen ----
  doc.addEventListener("click", async e => {
    const link = e.target.closest && e.target.closest("a.older-link");
    if (!link || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    const url = new URL(link.href, location.href), id = url.hash.slice(1);
    const before = doc.getElementById(id), top = before ? before.getBoundingClientRect().top : 0;
    const q = new URLSearchParams({ box: url.searchParams.get("box") || "inbox", t: url.searchParams.get("t"), shown: url.searchParams.get("shown") });
    const cat = url.searchParams.get("cat"); if (cat) q.set("cat", cat);
    try {
      const html = await getHTML("/mail/conversation?" + q);
      const pane = $("#reading-pane"), open = new Set($$(".msg[open]", pane).map(d => d.closest(".message").id));
      pane.innerHTML = html;
      $$(".message", pane).forEach(m => { if (open.has(m.id)) $(".msg", m).open = true; });
      const after = doc.getElementById(id);
      if (after) {
        let box = after.parentElement;
        while (box && box !== doc.body && !(box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY))) box = box.parentElement;
        const shift = after.getBoundingClientRect().top - top;
        if (box && box !== doc.body) box.scrollTop += shift; else window.scrollBy(0, shift);
      }
      const first = $("#conversation .message > .msg > summary");
      if (first) first.focus({ preventScroll: true });
      history.replaceState({}, "", url.pathname + url.search);
    } catch (err) { location.href = link.href; }
  });

  // ---- which conversation is on screen (NOTIF-06f) ----
  function reportViewing() {
    const shown = doc.visibilityState === "visible" && doc.hasFocus();
    const watching = shown ? { t: openThreadId() || "", box: box() } : null;
    const key = watching ? watching.box + "\n" + watching.t : null;
    if (key === state.viewingKey) return;
    const previous = state.viewing;
    state.viewing = watching; state.viewingKey = key;
    // A report the server did not take is sent again a moment later (else it would believe
    // nothing is on screen, and raise desktop banners for what the user is looking at).
    const again = () => { if (state.viewingKey === key) { state.viewingKey = undefined; setTimeout(reportViewing, 5000); } };
    post("/viewing", watching ? { ...watching, state: "open" } : { ...previous, state: "closed" })
      .then(r => {
        if (!r.ok) return again();
        if (state.viewingKey !== key) return;
        doc.body.dataset.viewing = watching ? watching.t : "";
        doc.body.dataset.viewingBox = watching ? watching.box : "";
      }).catch(again);
  }
  // Also once the page has loaded: the window may take the focus only then.
  window.addEventListener("load", reportViewing);
  window.addEventListener("focus", reportViewing);
  window.addEventListener("blur", reportViewing);
  doc.addEventListener("visibilitychange", reportViewing);

  // ---- actions, with undo for the destructive ones ----
  const DESTRUCTIVE = { archive: "Archived", delete: "Deleted", move: "Moved", snooze: "Snoozed", unsnooze: "Unsnoozed" };
  function countText(n) { return n === 1 ? "1 conversation" : n + " conversations"; }
  async function send(fields) {
    const r = await post("/actions", fields);
    let reply = {}; try { reply = await r.json(); } catch (_) {}
    if (!r.ok || (reply.failed && reply.failed.length)) throw Object.assign(new Error(reply.message || "The server refused the action."), { reply });
    return reply;
  }
  function perform(action, ids, extra, label) {
    if (!ids.length) { toast("Select one or more conversations first."); return; }
    if (action === "move" && !(extra || {}).folder) { toast("Choose a folder to move to first."); return; }
    const fields = [["action", action], ...ids.map(id => ["t[]", id]), ...Object.entries(extra || {})];
    if (DESTRUCTIVE[action]) {
      const named = actedOn(ids), reading = ids.includes(openThreadId());
      const cur = current(), leaving = reading || (cur && ids.includes(cur.dataset.id)), next = nextAfter(ids);
      hideRows(ids);
      if (reading && next && afterTriage() !== "list") openRow(next);
      else if (reading) { closeThread(); if (next) setCurrent(next); }
      else if (leaving && next) setCurrent(next);
      updateSelection();
      const job = { fields, ids, done: false };
      state.pending.push(job);
      // The rows come back from the server, where they still are, in their place.
      const restore = () => { doRefresh(); };
      const timer = setTimeout(async () => {
        job.done = true; state.pending = state.pending.filter(j => j !== job); note.remove();
        try { const reply = await send(fields); if (reply.message) toast(reply.message, { ms: 8000 }); }
        catch (err) { const again = failedOnly(err, ids); restore(); errorToast(err, { action: "Retry", onAction: () => perform(action, again, extra), ms: 10000 }); }
      }, UNDO_MS);
      const note = toast(label || `${DESTRUCTIVE[action]} ${named}.`, { action: "Undo", ms: UNDO_MS, onAction: () => {
        clearTimeout(timer); job.done = true; state.pending = state.pending.filter(j => j !== job); restore();
        toast("Undone.", { ms: 2500 });
      } });
      return;
    }
    send(fields).then(reply => { if (reply.message) toast(reply.message); refresh(); })
      .catch(err => { const again = failedOnly(err, ids); refresh(); errorToast(err, { action: "Retry", onAction: () => perform(action, again, extra), ms: 10000 }); });
  }
  // E-12: of a batch, the conversations that failed stay (or come back) selected, and Retry acts
  // on them only; the ones done are done.
  function failedOnly(err, ids) {
    const failed = ((err.reply || {}).failed || []).map(f => f.id).filter(id => ids.includes(id));
    const again = failed.length ? failed : ids;
    if (ids.length > 1) state.reselect = new Set(again);
    return again;
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
    if (button.name === "read" && button.value === "all") { markAllRead(); return; }
    if (button.name === "one") {
      const [verb, arg] = [button.value.slice(0, button.value.indexOf(":")), button.value.slice(button.value.indexOf(":") + 1)];
      if (verb === "snooze") { snoozeFrom(button, form, arg); return; }
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
        }
        if (reply.message) toast(reply.message);
        refresh();
      }).catch(err => errorToast(err));
      return;
    }
    const ids = form.id === "conv-form" ? [$('input[name="t[]"]', form).value] : selectedIds();
    const menu = button.closest("details.menu"); if (menu) menu.open = false;
    perform(button.value, ids, {});
  });

  // ---- snooze (issue 33): a preset or the picker's time, for the selection (or the current
  // row) or this conversation, with the undo window; the toast names the time.
  function snoozeFrom(button, form, arg) {
    const menu = button.closest("details");
    let until = arg, text = button.dataset.untilText || "";
    if (arg === "pick") {
      const input = $('input[name="until"]', menu || form);
      const when = input && input.value ? new Date(input.value) : null;
      if (!when || isNaN(when)) { toast("Choose a date and time first.", { error: true }); if (input) input.focus(); return; }
      if (when <= new Date()) { toast("That time has already passed: choose a later one.", { error: true }); input.focus(); return; }
      until = input.value;
      text = when.toLocaleString(undefined, { weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
    }
    if (menu) menu.open = false;
    const row = current();
    const ids = form.id === "conv-form" ? [$('input[name="t[]"]', form).value] : selectedIds().length ? selectedIds() : row ? [row.dataset.id] : [];
    const when = arg === "someday" ? " until you unsnooze it" : text ? " until " + text : "";
    perform("snooze", ids, { until }, ids.length ? `Snoozed ${actedOn(ids)}${when}.` : undefined);
  }
  function openSnoozeMenu() {
    const menu = (openThreadId() && $("#conv-form details.snooze-menu")) || $("#list-form details.snooze-menu");
    if (!menu) return;
    menu.open = true;
    const first = $(".menu-panel button", menu);
    if (first) first.focus();
  }

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
      await refreshCounts();
      const list = $("#threads") || null;
      if (list || $("#list-form .empty")) {
        const count = Math.max(25, Math.min(200, rows().length));
        const html = await getHTML("/mail/list?" + listQuery({ limit: count }));
        const checked = state.reselect || new Set(selectedIds()), cur = current() ? current().dataset.id : null, focused = doc.activeElement && doc.activeElement.closest(".row");
        if (list) { list.innerHTML = html; }
        else if (html.trim()) { $("#list-form .empty").outerHTML = '<ul class="threads" id="threads" aria-label="Conversations">' + html + "</ul>"; }
        const open = openThreadId();
        hideRows(state.pending.filter(j => !j.done).flatMap(j => j.ids));
        showRead(state.pending.filter(j => !j.done && j.read).flatMap(j => j.read));
        rows().forEach(r => {
          if (checked.has(r.dataset.id) && $(".select", r)) $(".select", r).checked = true;
          r.classList.toggle("open", r.dataset.id === open);
          if (r.dataset.id === cur) r.classList.add("current");
        });
        if (focused && cur) { const r = $(`#threads .row[data-id="${CSS.escape(cur)}"]`); if (r) $(".row-link", r).focus({ preventScroll: true }); }
        state.reselect = null;
        watchMore(); updateSelection();
      }
      const conv = $("#conversation");
      if (conv) {
        const q = new URLSearchParams({ box: box(), t: conv.dataset.thread, known: conv.dataset.version });
        if (conv.dataset.shown) q.set("shown", conv.dataset.shown);
        const html = await getHTML("/mail/conversation?" + q);
        if (html !== null) {
          const open = new Set($$(".msg[open]", conv).map(d => d.closest(".message").id));
          const unfolded = $$(".msg-fold[open]", conv).length > 0;
          // The focus elsewhere in the pane is put back at its place.
          const pane = $("#reading-pane"), inComposer = composing.host && composing.host.contains(doc.activeElement);
          const focus = !inComposer && pane.contains(doc.activeElement) ? focusPlace(doc.activeElement, pane) : null;
          if (!replacePane(html) && focus) { const el = atPlace(focus, pane); if (el) el.focus({ preventScroll: true }); }
          $$(".message", $("#reading-pane")).forEach(m => { if (open.has(m.id)) $(".msg", m).open = true; });
          if (unfolded) $$(".msg-fold", $("#reading-pane")).forEach(d => { d.open = true; });
        }
      }
    } catch (_) { /* the next event tries again */ }
  }
  // Where the focus is, as the nearest element with an id and the child indexes below it, so a
  // control of the reading pane keeps the focus when a live refresh replaces the pane's HTML.
  function focusPlace(el, root) {
    const path = [];
    let n = el;
    for (; n && n !== root && !n.id; n = n.parentElement) path.unshift(Array.prototype.indexOf.call(n.parentElement.children, n));
    return n ? { id: n === root ? null : n.id, path } : null;
  }
  function atPlace(place, root) {
    let n = place.id ? doc.getElementById(place.id) : root;
    for (const i of place.path) n = n && n.children[i];
    return n && root.contains(n) ? n : null;
  }
  function setConnection(problem, detail) {
    const el = $("#connection"); if (!el) return;
    el.hidden = !problem;
    $(".connection-detail", el).textContent = problem || "";
    const tech = $(".connection-tech", el);
    if (tech) { $("pre", tech).textContent = detail || ""; tech.hidden = !detail; }
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
    source.addEventListener("connection", e => { try { const c = JSON.parse(e.data); setConnection(c.problem, c.detail); } catch (_) {} });
    source.addEventListener("notice", e => { try { toast(JSON.parse(e.data).text, { ms: 12000 }); } catch (_) {} });
    source.addEventListener("newmail", e => { try { showBanners(JSON.parse(e.data)); } catch (_) {} });
    source.addEventListener("error", () => { const el = $("#connection"); if (el) { el.dataset.down = "1"; setConnection("VaultMail is not running; reconnecting…"); } });
  }

  // ---- writing: the composer, and the undo window after Send (AC-U-11) ----
  function compose(kind) {
    if (composing.host) { const body = $("#inline-composer textarea"); if (body) body.focus(); return; }
    const link = $(`#conversation .reply-bar a[data-compose="${kind}"]`);
    if (link) composeInPlace(link.href);
  }
  function sendingToast() {
    scheduledToast();
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
      if (r.ok && reply.url) {
        const back = reply.url + "&return=" + encodeURIComponent(location.pathname + location.search);
        // Taken back from the conversation still open: the draft opens in place again, under it.
        const conv = $("#conversation");
        if (conv && state.sentFrom && conv.dataset.thread === state.sentFrom) composeInPlace(back); else location.href = back;
      }
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

  // Send later (issue 33): when it will go, in Core's words, and Cancel (back to the draft).
  function scheduledToast() {
    let scheduled = null;
    try { scheduled = JSON.parse(sessionStorage.getItem("vaultmail-scheduled") || "null"); } catch (_) {}
    sessionStorage.removeItem("vaultmail-scheduled");
    if (!scheduled) return;
    toast(scheduled.message, { action: "Cancel", ms: 15000, onAction: async () => {
      const r = await post("/compose/undo", { draft: scheduled.draft });
      let reply = {}; try { reply = await r.json(); } catch (_) {}
      if (r.ok && reply.url) location.href = reply.url + "&return=" + encodeURIComponent(location.pathname + location.search);
      else toast(reply.error || "Too late: the message has gone.", { error: true });
    } });
  }

  // ---- triage that keeps its place (issue 29) ----
  function afterTriage() { return doc.body.dataset.afterTriage || "older"; }
  function subjectOf(id) {
    const row = $(`#threads .row[data-id="${CSS.escape(id)}"] .subject`);
    if (row) return row.textContent.trim();
    const title = id === openThreadId() ? $("#conv-title") : null;
    return title ? title.textContent.trim() : "";
  }
  // “Quarterly plan” for one conversation, “3 conversations” for more.
  function actedOn(ids) {
    const subject = ids.length === 1 ? subjectOf(ids[0]) : "";
    return subject ? `“${subject}”` : countText(ids.length);
  }
  // The row to show once these leave the list: the newer (above) or older (below) neighbour, as set, else the other.
  function nextAfter(ids) {
    const list = rows(), gone = new Set(ids), at = list.map((r, i) => gone.has(r.dataset.id) ? i : -1).filter(i => i >= 0);
    if (!at.length) return null;
    const newer = () => list.slice(0, at[0]).reverse().find(r => !gone.has(r.dataset.id));
    const older = () => list.slice(at[at.length - 1] + 1).find(r => !gone.has(r.dataset.id));
    return afterTriage() === "newer" ? newer() || older() || null : older() || newer() || null;
  }
  function openRow(row) { setCurrent(row); openThread($(".row-link", row).href); }
  // j/k: the next or previous conversation; while one is open, that one opens in its place.
  function step(by) {
    const list = rows(), row = current(), i = row ? list.indexOf(row) : -1;
    const to = list[Math.max(0, Math.min(list.length - 1, i + by))] || list[0];
    if (!to) return;
    if (openThreadId()) { if (to.dataset.id !== openThreadId()) openRow(to); }
    else setCurrent(to);
  }

  // ---- E-13: each folder keeps the category tab it was left on (for this tab's session):
  // the sidebar's links lead back to it; "All" forgets it.
  function keepTabs() {
    let tabs = {};
    try {
      tabs = JSON.parse(sessionStorage.getItem("vaultmail.tabs") || "{}");
      if (location.pathname === "/mail" && !params().get("t") && $("#list-pane .tabs")) {
        const cat = params().get("cat");
        if (cat) tabs[box()] = cat; else delete tabs[box()];
        sessionStorage.setItem("vaultmail.tabs", JSON.stringify(tabs));
      }
    } catch (_) { return; }
    $$('#sidebar a[href^="/mail?box="]').forEach(a => {
      const url = new URL(a.getAttribute("href"), location.href), kept = tabs[url.searchParams.get("box")];
      if (kept && !url.searchParams.get("cat")) { url.searchParams.set("cat", kept); a.setAttribute("href", url.pathname + url.search); }
    });
  }
  keepTabs();

  // ---- counts: the sidebar, the tabs and the title from one snapshot, on each change event ----
  async function refreshCounts() {
    const r = await fetch("/mail/counts?" + listQuery(), { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!r.ok) return;
    const counts = await r.json();
    const side = $("#sidebar"); if (side) { side.outerHTML = counts.sidebar; keepTabs(); }
    const tabs = $("#list-pane .tabs"); if (tabs && counts.tabs) tabs.outerHTML = counts.tabs;
    if (location.pathname === "/mail") doc.title = counts.title;
    const markAll = $("#mark-all"); if (markAll) markAll.hidden = !counts.unread || state.pending.some(j => !j.done && j.read);
  }

  // ---- "Mark all as read" (issue 29): the server names the list's unread conversations (none
  // newer than the newest row on screen); they show read at once and are marked after the undo
  // window, as the list's form posts it (read=all), through Core's one rule ----
  function showRead(ids) {
    const read = new Set(ids);
    rows().forEach(r => {
      if (!read.has(r.dataset.id)) return;
      r.classList.remove("unread");
      const mark = $(".unread-mark", r); if (mark) mark.remove();
    });
  }
  async function markAllRead() {
    const button = $("#mark-all");
    if (!button || location.pathname !== "/mail") return;
    const list = { box: box() }, cat = params().get("cat"), first = rows()[0];
    if (cat) list.cat = cat;
    if (first && first.dataset.at) list.upto = first.dataset.at;
    let ids;
    try {
      const r = await fetch("/mail/unread?" + new URLSearchParams(list), { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!r.ok) throw new Error(await r.text());
      ids = (await r.json()).ids || [];
    } catch (err) { errorToast(err); return; }
    if (!ids.length) { button.hidden = true; toast("There is no unread mail in this list."); return; }
    const job = { fields: [["read", "all"], ...Object.entries(list)], ids: [], read: ids, done: false };
    const finish = () => { job.done = true; state.pending = state.pending.filter(j => j !== job); };
    state.pending.push(job);
    showRead(ids);
    button.hidden = true;
    const timer = setTimeout(async () => {
      finish(); note.remove();
      try { const reply = await send(job.fields); if (reply.waiting && reply.message) toast(reply.message, { ms: 8000 }); }
      catch (err) { errorToast(err, { action: "Retry", onAction: markAllRead, ms: 10000 }); }
      refresh();
    }, UNDO_MS);
    const note = toast(`Marked ${countText(ids.length)} read.`, { action: "Undo", ms: UNDO_MS, onAction: () => {
      clearTimeout(timer); finish(); doRefresh();
      toast("Undone.", { ms: 2500 });
    } });
  }

  // ---- answering in place (issue 29): the composer's own form and script, under the conversation ----
  const composing = { host: null, api: null, thread: null };
  function composerScript(page) {
    if (window.VaultMailCompose) return Promise.resolve();
    const src = $$("script[src]", page).map(s => s.getAttribute("src")).find(src => !$(`script[src="${CSS.escape(src)}"]`));
    if (!src) return Promise.reject(new Error("no composer script"));
    return new Promise((ok, fail) => { const s = doc.createElement("script"); s.src = src; s.onload = ok; s.onerror = fail; doc.head.append(s); });
  }
  // The reading pane's HTML replaced; an open composer is put back under its conversation with
  // the focus and the cursor where they were, so typing goes on. Whether it kept the focus.
  function replacePane(html) {
    const composer = composing.host, typing = composer && composer.contains(doc.activeElement) ? doc.activeElement : null;
    const cursor = typing && typeof typing.selectionStart === "number" ? [typing.selectionStart, typing.selectionEnd] : null;
    $("#reading-pane").innerHTML = html;
    if (composer) placeComposer(composer);
    if (!typing || !typing.isConnected) return false;
    typing.focus({ preventScroll: true });
    if (cursor) typing.setSelectionRange(cursor[0], cursor[1]);
    return true;
  }
  // Puts the composer under its conversation (again, after a live refresh), hiding the reply bar and the draft it edits.
  function placeComposer(host) {
    const conv = $("#conversation");
    if (!conv || conv.dataset.thread !== composing.thread) { composing.host = null; composing.api = null; return; }
    conv.append(host);
    const bar = $(".reply-bar", conv); if (bar) bar.hidden = true;
    const draft = ($('input[name="draft"]', host) || {}).value;
    if (draft) { const card = $("#m-" + CSS.escape(draft)); if (card) card.hidden = true; }
  }
  async function composeInPlace(href) {
    await closeComposer({ quiet: true });
    const conv = $("#conversation");
    if (!conv) { location.href = href; return; }
    try {
      const page = new DOMParser().parseFromString(await getHTML(href), "text/html");
      const form = $("#composer", page);
      if (!form) throw new Error("no composer");
      await composerScript(page);
      const title = $("h1", form), heading = doc.createElement("h3");
      heading.id = title.id; heading.textContent = title.textContent;
      const close = doc.createElement("button"); close.type = "button"; close.className = "icon-button composer-close";
      close.setAttribute("aria-label", "Close; the draft is kept"); close.title = "Close (Escape); the draft is kept"; close.textContent = "×";
      close.addEventListener("click", () => closeComposer());
      const head = doc.createElement("div"); head.className = "composer-head"; head.append(heading, close);
      title.replaceWith(head);
      $("textarea", form).rows = 8;
      const host = doc.createElement("section"); host.className = "inline-composer"; host.id = "inline-composer";
      host.setAttribute("aria-labelledby", heading.id);
      host.append(doc.adoptNode(form));
      composing.host = host; composing.thread = conv.dataset.thread;
      placeComposer(host);
      composing.api = window.VaultMailCompose(form, { inPlace: true, onSent: composerSent, onClosed: composerClosed });
      reveal(host);
    } catch (_) { location.href = href; }
  }
  // Scrolls the reading pane (not the page) to show `el` at its top.
  function reveal(el) {
    const pane = $("#reading-pane");
    if (pane && pane.scrollHeight > pane.clientHeight) pane.scrollTop += el.getBoundingClientRect().top - pane.getBoundingClientRect().top - 8;
    else el.scrollIntoView({ block: "start" });
  }
  function removeComposer() {
    const host = composing.host; composing.host = null; composing.api = null;
    if (host) host.remove();
    const bar = $("#conversation .reply-bar"); if (bar) bar.hidden = false;
    $$("#conversation .draft-card[hidden]").forEach(c => { c.hidden = false; });
  }
  function focusReply() { const a = $("#conversation .reply-bar a"); if (a) a.focus(); }
  // Escape or ×: what was written is saved, and stays as the conversation's draft.
  async function closeComposer(opts = {}) {
    if (!composing.host) return;
    const api = composing.api;
    let draft = "";
    try { draft = api ? await api.close() : ""; } catch (_) {}
    removeComposer();
    if (opts.quiet) return;
    if (draft) toast("Draft saved.", { ms: 2500 });
    refresh(); focusReply();
  }
  function composerSent() { state.sentFrom = composing.thread; removeComposer(); sendingToast(); refresh(); focusReply(); }
  function composerClosed(message) { removeComposer(); toast(message); refresh(); focusReply(); }
  doc.addEventListener("click", e => {
    const link = e.target.closest && e.target.closest("#conversation a[data-compose], #conversation a[data-compose-message], #conversation a[data-edit-draft]");
    if (!link || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    composeInPlace(link.href);
  });

  // ---- keyboard (AC-M-04) ----
  doc.addEventListener("keydown", e => {
    if (e.ctrlKey || e.metaKey || e.altKey || doc.body.classList.contains("compose-page")) return;
    const t = e.target;
    if (t && t.closest && t.closest("#inline-composer")) {
      if (e.key === "Escape" && !e.defaultPrevented) { e.preventDefault(); closeComposer(); }
      return;
    }
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)) && t.type !== "checkbox") {
      if (e.key === "Escape") t.blur();
      return;
    }
    if ($("dialog[open]")) return;
    const row = current();
    // What an action acts on: the selection, else the conversation open (and on screen), else the current row.
    const target = () => selectedIds().length ? selectedIds() : openThreadId() ? [openThreadId()] : row ? [row.dataset.id] : [];
    const act = a => perform(a, target());
    const keys = {
      j: () => step(1), k: () => step(-1),
      Enter: () => row && openThread($(".row-link", row).href), o: () => row && openThread($(".row-link", row).href),
      u: () => closeThread(), e: () => act("archive"), "#": () => act("delete"),
      s: () => { const ids = target(); if (!ids.length) return; const r = $(`#threads .row[data-id="${CSS.escape(ids[0])}"]`);
        const on = r ? $(".star", r).classList.contains("on") : $('#conv-form button[value="unstar"]') !== null; perform(on ? "unstar" : "star", ids); },
      I: () => act("read"), U: () => act("unread"), C: () => markAllRead(), b: () => openSnoozeMenu(),
      x: () => { const c = row && $(".select", row); if (c) { c.checked = !c.checked; state.lastChecked = c.value; updateSelection(); } },
      z: () => { const undo = $$("#toasts button").reverse().find(b => b.textContent === "Undo"); if (undo) undo.click(); },
      "/": () => { const q = $("#q"); if (q) q.focus(); },
      c: () => { location.href = "/compose?" + new URLSearchParams({ return: location.pathname + location.search }); },
      r: () => compose("reply"), a: () => compose("reply-all"), f: () => compose("forward"),
      "?": () => { const d = $("#shortcuts"); if (d) d.showModal(); },
      Escape: () => { if (composing.host) closeComposer(); },
    };
    const run = keys[e.key];
    if (!run || (e.key === "Enter" && t && t.closest && t.closest("a, button, summary, input, select, textarea"))) return;
    e.preventDefault();
    run();
  });
  doc.addEventListener("click", e => { if (e.target.closest && e.target.closest("#shortcuts-button")) $("#shortcuts").showModal(); });

  // ---- message frames: sized to their content (issue 29) ----
  // A frame's one script (MessageFrame.heightScript) posts its height. Only a message from a
  // message frame's own window counts (a sandboxed frame's origin is "null"); the height is
  // clamped, and later reports (images, fonts, a new width) size it again.
  const FRAME_MIN = 24, FRAME_MAX = 100000;
  window.addEventListener("message", e => {
    const h = e.data && typeof e.data === "object" ? e.data.vaultmailFrameHeight : undefined;
    if (typeof h !== "number" || !Number.isFinite(h) || e.origin !== "null" || !e.source) return;
    const frame = $$("iframe.mail-frame").find(f => f.contentWindow === e.source);
    if (!frame) return;
    const borders = frame.offsetHeight - frame.clientHeight;
    frame.style.height = (Math.min(FRAME_MAX, Math.max(FRAME_MIN, Math.ceil(h))) + borders) + "px";
    frame.classList.add("sized");
  });
  // Frames that reported before this script ran (their reports were lost): ask them again.
  $$("iframe.mail-frame").forEach(f => { if (f.contentWindow) f.contentWindow.postMessage({ vaultmailMeasure: true }, "*"); });

  // ---- dates in the reader's locale (attachments' event cards) ----
  function localTimes(el = doc) {
    $$("time[data-local]:not([data-localized])", el).forEach(t => {
      const d = new Date(t.getAttribute("datetime"));
      t.dataset.localized = "1";
      if (isNaN(d)) return;
      // "date" (all day), "datetime" or "time", "-floating" for a time of no zone: those show
      // their own wall clock (written as UTC), the others the reader's.
      const mode = t.dataset.local, wall = mode === "date" || mode.endsWith("-floating");
      const style = mode === "date" ? { dateStyle: "full" } : mode.startsWith("time") ? { timeStyle: "short" } : { dateStyle: "full", timeStyle: "short" };
      if (wall) style.timeZone = "UTC";
      t.textContent = d.toLocaleString(undefined, style);
    });
  }
  // Conversations arrive later (opened without a reload, refreshed live): format theirs too.
  new MutationObserver(() => localTimes()).observe(root, { childList: true, subtree: true });

  doc.addEventListener("DOMContentLoaded", () => {
    localTimes();
    if ($("#toasts")) sendingToast();
    if (!$("#main") || $("#composer")) return;
    watchMore(); updateSelection(); connect(); reportViewing(); splitter();
  });
})();
"""#
}
