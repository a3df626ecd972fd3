/// The conversation's summary and suggested replies (issue 16), part of the app's script: a
/// conversation summarized when opened fetches its summary from `/threads/{id}/summary` and
/// swaps it into the panel; Summarize and Refresh post without leaving the page; suggested
/// replies stream in over server-sent events from `/threads/{id}/replies`, each shown as soon as
/// it is written and announced. A live refresh of the conversation (new mail, a star) keeps
/// what was fetched: a summary being written is waited for again, never asked twice, and
/// finished suggestions are shown again at once. Without the script the panel's buttons post
/// and the "Suggest replies" link renders the page with them.
enum WritingScript {
    static let js = #"""
"use strict";
(() => {
  const doc = document, $ = (s, el = doc) => el.querySelector(s);
  const csrf = () => ($('meta[name="csrf-token"]') || {}).content || "";
  const summaries = new Map();    // thread id → the summary being written (a promise of the panel's HTML)
  const finished = new Map();     // a reply stream's address → its last event
  let stream = null;              // the reply stream under way: { src, source, last }

  // ---- the summary panel ----
  function line(className, text, spinner) {
    const p = doc.createElement("p"); p.className = className;
    if (spinner) { const s = doc.createElement("span"); s.className = "spinner"; s.setAttribute("aria-hidden", "true"); p.append(s); }
    p.append(text); return p;
  }
  function busy(panel, text) {
    panel.setAttribute("aria-busy", "true");
    panel.querySelectorAll(".summary-offer, .summary-stale, .summary-error, .summary-pending").forEach(el => el.remove());
    panel.append(line("summary-pending", text, true));
  }
  function swapIn(html) {
    const template = doc.createElement("template"); template.innerHTML = html.trim();
    const fresh = template.content.firstElementChild, panel = $("#summary");
    if (!fresh || !panel || fresh.dataset.thread !== panel.dataset.thread) return;
    const hadFocus = panel.contains(doc.activeElement) || doc.activeElement === doc.body;
    for (const name of ["data-state", "data-auto", "aria-busy"]) {
      if (fresh.hasAttribute(name)) panel.setAttribute(name, fresh.getAttribute(name)); else panel.removeAttribute(name);
    }
    panel.replaceChildren(...fresh.childNodes);
    if (hadFocus) { const title = $("#summary-title"); if (title) title.focus({ preventScroll: true }); }
  }
  function failed(thread, message) {
    const panel = $("#summary");
    if (!panel || panel.dataset.thread !== thread) return;
    panel.removeAttribute("aria-busy"); panel.dataset.state = "failed";
    panel.querySelectorAll(".summary-pending").forEach(el => el.remove());
    const error = line("notice error summary-error", message); error.setAttribute("role", "alert");
    const retry = doc.createElement("button");
    retry.className = "tool"; retry.type = "submit"; retry.dataset.summarize = ""; retry.name = "refresh"; retry.value = "1";
    retry.setAttribute("formmethod", "post"); retry.setAttribute("formaction", panel.dataset.src); retry.textContent = "Try again";
    const offer = doc.createElement("p"); offer.className = "summary-offer"; offer.append(retry);
    panel.append(error, offer);
  }
  function summarize(panel, ask) {
    const thread = panel.dataset.thread;
    busy(panel, panel.dataset.state === "stale" ? "Updating the summary for the new mail…" : "Summarizing on this device…");
    let job = summaries.get(thread);
    if (!job || ask) {
      const control = new AbortController(), timer = setTimeout(() => control.abort(), 120000);
      const options = ask
        ? { method: "POST", body: new URLSearchParams({ refresh: ask, csrf: csrf() }), headers: { Accept: "text/html", "X-CSRF-Token": csrf() } }
        : { headers: { Accept: "text/html" } };
      job = fetch(panel.dataset.src + (ask ? "?fragment=1" : ""), { ...options, credentials: "same-origin", signal: control.signal })
        .then(async r => {
          const text = await r.text();
          if (!text.trim().startsWith("<section")) throw new Error(text.trim() || "VaultMail answered " + r.status + ".");
          return text;
        })
        .finally(() => { clearTimeout(timer); if (summaries.get(thread) === job) summaries.delete(thread); });
      summaries.set(thread, job);
    }
    job.then(swapIn, err => failed(thread, err.name === "AbortError"
      ? "The summary took too long. Try again." : "The summary could not be written: " + (err.message || "VaultMail did not answer.")));
  }
  doc.addEventListener("click", e => {
    const button = e.target.closest && e.target.closest("#summary button[data-summarize]");
    if (!button) return;
    e.preventDefault();
    summarize(button.closest("#summary"), button.value === "1" ? "1" : "0");
  });

  // ---- suggested replies ----
  function showReplies(src, data, done) {
    const section = $("#reply-suggestions");
    if (!section || section.dataset.src !== src) return;
    const body = $(".replies-body", section), focused = body.contains(doc.activeElement) ? Array.from(body.querySelectorAll("a")).indexOf(doc.activeElement) : -1;
    body.innerHTML = data.html;
    if (!done) body.append(line("replies-loading", data.suggestions.length ? "Writing more…" : "Writing suggestions on this device…", true));
    if (focused >= 0) { const links = body.querySelectorAll("a"); if (links[focused]) links[focused].focus({ preventScroll: true }); }
    section.dataset.state = done ? "ready" : "loading";
    const status = $(".replies-status", section);
    if (done || data.suggestions.length === 1) status.textContent = data.announcement;
  }
  // What went wrong in words; the technical detail behind a disclosure, as the server writes it (issue 29).
  function replyFailed(src, message, detail) {
    const section = $("#reply-suggestions");
    if (!section || section.dataset.src !== src) return;
    const body = $(".replies-body", section), error = doc.createElement("div");
    error.className = "notice error problem"; error.setAttribute("role", "alert");
    const words = doc.createElement("p"); words.textContent = message; error.append(words);
    if (detail) {
      const more = doc.createElement("details"), summary = doc.createElement("summary"), pre = doc.createElement("pre");
      more.className = "problem-detail"; summary.textContent = "Details"; pre.textContent = detail; more.append(summary, pre); error.append(more);
    }
    body.replaceChildren(error);
    section.dataset.state = "failed";
  }
  function suggest(section) {
    const src = section.dataset.src;
    if (finished.has(src)) { showReplies(src, finished.get(src), true); return; }
    if (stream && stream.src === src) { if (stream.last) showReplies(src, stream.last, false); return; }
    if (stream) stream.source.close();
    const source = new EventSource(src), job = { src, source, last: null };
    stream = job;
    const end = () => { source.close(); if (stream === job) stream = null; };
    source.addEventListener("suggestions", e => { try { job.last = JSON.parse(e.data); showReplies(src, job.last, false); } catch (_) {} });
    source.addEventListener("done", e => {
      end();
      try {
        const data = JSON.parse(e.data);
        finished.set(src, data);
        if (finished.size > 20) finished.delete(finished.keys().next().value);
        showReplies(src, data, true);
      } catch (_) {}
    });
    source.addEventListener("failure", e => { end(); let f = {}; try { f = JSON.parse(e.data); } catch (_) {} replyFailed(src, f.error || "Replies could not be suggested.", f.detail); });
    source.addEventListener("error", () => { if (stream !== job) return; end(); replyFailed(src, "Suggestions stopped: VaultMail did not answer. Open the conversation again to retry."); });
  }

  // ---- on a conversation shown (the page, opened from the list, refreshed live) ----
  function hydrate() {
    const panel = $("#summary");
    if (panel && panel.dataset.auto && (panel.dataset.state === "pending" || panel.dataset.state === "stale")) summarize(panel, null);
    else if (panel && summaries.has(panel.dataset.thread)) summarize(panel, null);
    const section = $("#reply-suggestions");
    if (section && section.dataset.state === "loading") suggest(section);
    else if (!section && stream) { stream.source.close(); stream = null; }
  }
  doc.addEventListener("DOMContentLoaded", () => {
    const pane = $("#reading-pane");
    if (!pane) return;
    new MutationObserver(hydrate).observe(pane, { childList: true });
    hydrate();
  });
})();
"""#
}
