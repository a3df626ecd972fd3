/// The onboarding's script: "Test connection" answers in place, so the password typed stays
/// in its field (the server never writes it back into a page).
enum OnboardingScript {
    static let js = #"""
"use strict";
(() => {
  const doc = document, form = doc.querySelector("#account-form");
  if (!form) return;
  const csrf = () => (doc.querySelector('meta[name="csrf-token"]') || {}).content || "";
  form.addEventListener("submit", async e => {
    if (!e.submitter || e.submitter.id !== "check") return;
    e.preventDefault();
    const button = e.submitter, result = doc.querySelector("#check-result");
    button.disabled = true; result.innerHTML = '<p role="status">Testing the connection…</p>';
    const body = new URLSearchParams(new FormData(form)); body.set("csrf", csrf());
    try {
      const r = await fetch("/welcome/check", { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json", "X-CSRF-Token": csrf() } });
      const reply = await r.json();
      result.innerHTML = reply.html; result.scrollIntoView({ block: "nearest" });
    } catch (err) { result.innerHTML = '<p role="alert" class="notice error">VaultMail did not answer. Is the daemon running?</p>'; }
    button.disabled = false;
  });
})();
"""#
}
