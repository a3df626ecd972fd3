import Crypto
import Foundation

/// The document of a message's frame: the sanitized HTML with readable defaults, links in new
/// tabs, the message's own styles after ours, and one script of ours that tells the page how
/// tall the message is, so the frame is sized to its content (issue 29).
///
/// No doctype: mail is written for quirks mode, and the sanitizer's parser read it that way, so
/// the browser builds the tree the sanitizer checked. In quirks mode `<html>` and `<body>` are at
/// least as tall as the frame, so the script measures `#vm-content`, our own wrapper around the
/// message (a block formatting context: floats and margins stay inside it).
///
/// Why this is safe (docs/web.md, "The message frame"): the frame is `sandbox="allow-scripts"`
/// without `allow-same-origin` (an opaque origin: no cookies, no storage, no reach into the page),
/// and its own CSP allows exactly one script, by its SHA-256 (`scriptSource`): no
/// `'unsafe-inline'`, no `'unsafe-hashes'`, no host. A `<script>` or event handler the sanitizer
/// missed would not run; the page accepts a height only from the frame's own window.
enum MessageFrame {
    /// The one script the frame runs: it posts `{vaultmailFrameHeight: n}` (CSS pixels) to the
    /// page now, when the document has loaded, whenever the message's box changes size
    /// (images arriving, fonts, a new width), and when the page asks (`vaultmailMeasure`). A message laid out wider than the frame is zoomed
    /// (CSS `zoom`) to its width first, so it never scrolls sideways.
    static let heightScript = """
        (function () {
          "use strict";
          var content = document.getElementById("vm-content"), last = -1;
          function px(value) { return parseFloat(value) || 0; }
          function report() {
            // Mail laid out wider than the frame (a 600 px table on a phone) is zoomed to fit, as phones do.
            content.style.zoom = "";
            var natural = content.scrollWidth, room = content.clientWidth;
            if (natural > room + 2) content.style.zoom = String(room / natural);
            var body = getComputedStyle(document.body), scroller = document.scrollingElement || document.documentElement;
            var bottom = content.getBoundingClientRect().bottom + window.scrollY + px(getComputedStyle(content).marginBottom)
              + px(body.paddingBottom) + px(body.borderBottomWidth) + px(body.marginBottom);
            var height = Math.ceil(bottom + Math.max(0, window.innerHeight - scroller.clientHeight));
            if (height !== last) { last = height; window.parent.postMessage({ vaultmailFrameHeight: height }, "*"); }
          }
          new ResizeObserver(report).observe(content);
          window.addEventListener("load", report);
          // The page asks again once its listener is there (it may come after this frame's reports).
          window.addEventListener("message", function (e) {
            if (e.source === window.parent && e.data && e.data.vaultmailMeasure === true) { last = -1; report(); }
          });
          report();
        })();
        """

    /// The CSP source that lets `heightScript` run and nothing else: `'sha256-…'` of its text.
    static let scriptSource = "'sha256-" + Data(SHA256.hash(data: Array(heightScript.utf8))).base64EncodedString() + "'"

    static func document(_ body: Markup) -> Markup {
        struct Model { var body: Markup }
        return template.render(Model(body: body))
    }

    private static let template = Template("""
        <html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><base target="_blank">
        <style>
        html{color-scheme:light}
        body{margin:0;padding:12px 16px;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1f;background:#fff;overflow-wrap:anywhere}
        #vm-content{display:flow-root}
        img{max-width:100%;height:auto}
        table{max-width:100%}
        pre,.plain{white-space:pre-wrap;font:inherit}
        details.quoted>summary{cursor:pointer;color:#4a4a57;font-size:13px;margin:8px 0}
        blockquote{margin:0 0 0 4px;padding-left:12px;border-left:3px solid #c9c9d4;color:#3d3d48}
        a{color:#0b57d0}
        </style></head><body><div id="vm-content">{{{body}}}</div><script>
        """ + heightScript + """
        </script></body></html>
        """)
}
