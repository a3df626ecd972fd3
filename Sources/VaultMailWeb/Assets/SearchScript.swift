/// Results while typing in the search box (issue 14): after a short pause the list pane is
/// replaced by the results of `/mail/search/results`, and the address becomes
/// `/mail/search?q=…` (with `&meaning=1` while results are by meaning) so a reload or a shared link shows the same. Clearing the box brings the
/// list back that was there before. Without the script, the box submits to the same page.
enum SearchScript {
    static let js = #"""
"use strict";
(() => {
  const doc = document, PAUSE_MS = 200;
  let timer = null, controller = null, before = null, shown = null;
  const box = () => doc.getElementById("q");
  // Results by meaning stay by meaning while the query is retyped.
  const params = (text) => {
    const p = new URLSearchParams({ q: text });
    if (location.pathname === "/mail/search" && new URLSearchParams(location.search).get("meaning") === "1") p.set("meaning", "1");
    return p;
  };

  async function show(text) {
    if (controller) controller.abort();
    controller = new AbortController();
    try {
      const p = params(text);
      const r = await fetch("/mail/search/results?" + p,
        { signal: controller.signal, headers: { Accept: "text/html" }, credentials: "same-origin" });
      if (!r.ok && r.status !== 400) return;
      const html = await r.text();
      const pane = doc.getElementById("list-pane");
      if (!pane || box().value.trim() !== text) return;
      pane.outerHTML = html;
      shown = text;
      history.replaceState({}, "", "/mail/search?" + p);
    } catch (_) { /* aborted by newer typing, or offline: the list stays as it was */ }
  }

  function restore() {
    if (!before) return;
    const pane = doc.getElementById("list-pane");
    if (pane) pane.outerHTML = before.html;
    history.replaceState({}, "", before.url);
    before = null; shown = null;
  }

  function changed() {
    clearTimeout(timer);
    const text = box().value.trim();
    if (text === shown) return;
    timer = setTimeout(() => {
      if (!text) return restore();
      const pane = doc.getElementById("list-pane");
      if (!before && pane && location.pathname !== "/mail/search") {
        before = { html: pane.outerHTML, url: location.pathname + location.search };
      }
      show(text);
    }, PAUSE_MS);
  }

  doc.addEventListener("DOMContentLoaded", () => {
    const input = box();
    if (!input || !doc.getElementById("main")) return;
    const q = new URLSearchParams(location.search).get("q");
    if (location.pathname === "/mail/search" && q && !input.value) { input.value = q; shown = q.trim(); }
    input.addEventListener("input", changed);
    input.form.addEventListener("submit", () => clearTimeout(timer));
  });
})();
"""#
}
