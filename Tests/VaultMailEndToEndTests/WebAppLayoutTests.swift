import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 29, the layout: a list that uses the screen (a splitter the user drags and the page
/// remembers, one-line rows when the list is wide), the message first (its first line high on
/// the screen, one toolbar row, the rarer actions in a menu), one unread signal, and a phone
/// layout with a search box and a compose button. Measured in the page on a realistic mailbox:
/// two accounts, real third-party list mail and HTML mail, names and subjects of everyday length.
@Suite("Web app in a browser: the layout for daily use (issue 29)", .serialized)
struct WebAppLayoutTests {
    @Test("Issue 29: rows show full names and ≥ 45 characters of subject at 1280×800 (≥ 70 at 1920×1080); the mail's first line at y ≤ 220; the splitter drags, by keyboard and pointer, and is remembered without a script; one unread signal; a phone has search and compose")
    func layout() async throws {
        try await EndToEndWorld.with { world in
            try world.dovecot.addUser("bob", password: EndToEndWorld.password)
            try await world.deliverDailyMail()
            try await world.addAccount()
            try await world.addAccount(name: "home", user: "bob")
            try await world.startDaemon()
            try await world.waitForLog("synced home")
            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            try await browser.wait("return document.querySelectorAll('#threads .row').length >= 25", timeout: 60)
            let base = try await browser.url.components(separatedBy: "/mail")[0]

            // The pages a user sees every day, as they look (docs/web/).
            try await world.layoutScreenshots(browser, name: "inbox", sizes: EndToEndWorld.everySize)
            try await world.openRow(browser, containing: "[Shapelib] need some help")
            try await browser.wait("return document.querySelector('#conversation iframe') !== null")
            try await world.layoutScreenshots(browser, name: "html-message", sizes: EndToEndWorld.everySize)
            try await world.openRow(browser, containing: "Release checklist for 2.4")
            // The 14-message conversation: the first message, its 11 earlier read ones folded into
            // one line, the last two; the latest message, open, starts on screen at 1280×800.
            let folded = try await browser.js("""
                const fold = document.querySelector('#conversation .msg-fold');
                const latest = Array.from(document.querySelectorAll('#conversation .message')).pop();
                return [fold ? fold.querySelector('summary').textContent : '', fold ? fold.querySelectorAll('.message').length : 0,
                        latest.querySelector('.msg').open, latest.getBoundingClientRect().top];
                """) as? [Any]
            #expect(folded?[0] as? String == "11 earlier messages" && (folded?[1] as? NSNumber)?.intValue == 11, "\(folded ?? [])")
            #expect(folded?[2] as? Bool == true && ((folded?[3] as? NSNumber)?.doubleValue ?? 9999) < 800 - 80,
                    "the latest message is open and starts on screen: \(folded ?? [])")
            try await browser.js("document.querySelector('#conversation .msg-fold summary').click()")
            #expect(try await browser.js("return document.querySelector('#conversation .msg-fold').open") as? Bool == true)
            try await browser.js("document.querySelector('#conversation .msg-fold summary').click()")
            try await world.layoutScreenshots(browser, name: "long-conversation", sizes: [(1280, 800, false), (1280, 800, true)])
            try await browser.get("\(base)/compose?return=%2Fmail")
            try await browser.wait("return document.querySelector('#composer') !== null")
            try await world.layoutScreenshots(browser, name: "composer", sizes: [(1280, 800, false), (420, 860, false)])
            try await browser.get("\(base)/settings")
            try await world.layoutScreenshots(browser, name: "settings", sizes: [(1280, 800, false)])
            try await browser.get("\(base)/mail")
            try await browser.wait("return document.querySelectorAll('#threads .row').length >= 25", timeout: 60)

            // The list at 1280×800 and at 1920×1080: names whole, subjects long enough to read.
            for (width, height, subject) in [(1280, 800, 45), (1920, 1080, 70)] {
                try await browser.setSize(width: width, height: height)
                let rows = try await Self.rowFigures(browser)
                let good = rows.filter { $0.senderWhole && $0.visible >= min(subject, $0.length) }
                let visible = rows.map(\.visible).sorted()
                let short = rows.filter { !($0.senderWhole && $0.visible >= min(subject, $0.length)) }.map { "\($0.text) (\($0.visible)/\($0.length)\($0.senderWhole ? "" : ", name cut"))" }
                print("issue 29 figures at \(width)×\(height): \(good.count) of \(rows.count) rows whole; visible subject characters: median \(visible[visible.count / 2]), least \(visible.first ?? 0); short: \(short)")
                #expect(rows.count >= 25)
                #expect(Double(good.count) >= 0.8 * Double(rows.count),
                        "at \(width)×\(height) \(good.count) of \(rows.count) rows show the whole name and ≥ \(subject) characters of subject: \(rows.map { "\($0.visible)/\($0.length)\($0.senderWhole ? "" : " name cut")" })")
            }
            try await browser.setSize(width: 1280, height: 800)

            // No category pill repeating the tab's category (none is categorized without a model
            // here; the server test covers the tabs); one unread signal: bold and one mark, and
            // account marks that cannot be taken for it (a bar, not a dot).
            let unread = try await browser.js("""
                const row = document.querySelector('#threads .row.unread'), read = document.querySelector('#threads .row:not(.unread)');
                const acct = document.querySelector('#threads .row .acct-mark').getBoundingClientRect();
                return [getComputedStyle(row.querySelector('.sender')).fontWeight, getComputedStyle(read.querySelector('.sender')).fontWeight,
                        row.querySelectorAll('.unread-mark').length, read.querySelectorAll('.unread-mark').length,
                        document.querySelectorAll('#threads .dot, #threads .acct-dot').length, acct.width, acct.height];
                """) as? [Any]
            #expect(Int(unread?[0] as? String ?? "") ?? 0 >= 700 && Int(unread?[1] as? String ?? "") ?? 999 < 600, "unread bold, read not: \(unread ?? [])")
            #expect(unread?[2] as? Int == 1 && unread?[3] as? Int == 0, "one unread mark on unread rows only: \(unread ?? [])")
            #expect(unread?[4] as? Int == 0, "no dots left in the rows: \(unread ?? [])")
            #expect(((unread?[5] as? NSNumber)?.doubleValue ?? 99) <= 4 && ((unread?[6] as? NSNumber)?.doubleValue ?? 0) >= 20,
                    "the account mark is a bar down the row's edge, not a dot: \(unread ?? [])")

            // The splitter: a focusable separator with its value; arrow keys move it, the page
            // remembers it, and the server draws it that way (nothing moves when the script runs).
            let separator = "#list-splitter[role=separator]"
            #expect(try await browser.count(separator) == 1)
            let listWidth = "return Math.round(document.querySelector('#list-pane').getBoundingClientRect().width)"
            let before = try await browser.number(listWidth)
            #expect(before > 400, "the list gets more than 400 px at 1280: \(before)")
            try await browser.js("document.querySelector('#list-splitter').focus()")
            let value = try await browser.number("return +document.querySelector('#list-splitter').getAttribute('aria-valuenow')")
            try await browser.keys(["RIGHT", "RIGHT", "RIGHT"])
            try await browser.wait("return +document.querySelector('#list-splitter').getAttribute('aria-valuenow') === \(Int(value) + 6)")
            let wider = try await browser.number(listWidth)
            #expect(wider > before + 40, "three steps right widen the list: \(before) → \(wider)")
            try await browser.setJavaScript(false)
            try await browser.get("\(base)/mail")
            try await browser.waitForCount("#threads .row")
            #expect(abs(try await browser.number(listWidth) - wider) <= 2, "the server draws the remembered width, before any script")
            try await browser.setJavaScript(true)
            try await browser.get("\(base)/mail")
            try await browser.wait("return document.documentElement.classList.contains('js') && document.querySelectorAll('#threads .row').length >= 25")
            #expect(abs(try await browser.number(listWidth) - wider) <= 2)
            // A pointer drag to the left, then back to the default share.
            let dragged = try await browser.number("""
                const s = document.querySelector('#list-splitter'), r = s.getBoundingClientRect(), y = r.top + 100;
                const at = (type, x) => s.dispatchEvent(new PointerEvent(type, { bubbles: true, clientX: x, clientY: y, pointerId: 1, button: 0, buttons: type === 'pointerup' ? 0 : 1, isPrimary: true }));
                at('pointerdown', r.left + 3); at('pointermove', r.left - 60); at('pointermove', r.left - 120); at('pointerup', r.left - 120);
                return Math.round(document.querySelector('#list-pane').getBoundingClientRect().width);
                """)
            #expect(abs(dragged - (wider - 120)) <= 12, "the list follows the pointer: \(wider) → \(dragged)")
            // Forgotten, the default share comes back.
            try await browser.js("document.cookie = 'vaultmail_split=; max-age=0; path=/'")
            try await browser.get("\(base)/mail")
            try await browser.waitForCount("#threads .row")
            #expect(abs(try await browser.number(listWidth) - before) <= 2)

            // A row's own actions: hidden until the row is pointed at or focused, and buttons a
            // keyboard reaches; Archive takes that row away, with Undo.
            try await browser.wait("return document.documentElement.classList.contains('js') && document.querySelectorAll('#threads .row').length >= 25")
            let row = try await browser.string("return document.querySelectorAll('#threads .row')[2].dataset.id")
            let archive = "document.querySelector('#threads .row[data-id=\"' + arguments[0] + '\"] .row-action[value^=archive]')"
            #expect(try await browser.js("return getComputedStyle(\(archive).parentElement).opacity", [row]) as? String == "0")
            try await browser.js("\(archive).focus()", [row])
            #expect(try await browser.js("return getComputedStyle(\(archive).parentElement).opacity", [row]) as? String == "1")
            try await browser.keys(["ENTER"])
            try await browser.wait("return document.querySelector('#threads .row[data-id=\"' + arguments[0] + '\"]') === null".replacingOccurrences(of: "arguments[0]", with: "'\(row)'"))
            try await browser.js("Array.from(document.querySelectorAll('#toasts button')).find(b => b.textContent === 'Undo').click()")
            try await browser.wait("return document.querySelector('#threads .row[data-id=\"' + arguments[0] + '\"]') !== null".replacingOccurrences(of: "arguments[0]", with: "'\(row)'"))

            // The message first: the first line of the mail high on the screen, plain and HTML.
            try await world.openRow(browser, containing: "Wine release 20020904")
            let plainTop = try await browser.number("""
                const first = n => { if (n.nodeType === 3 && n.data.trim()) { const r = document.createRange(); r.selectNodeContents(n); if (r.getClientRects().length) return n; } for (const c of n.childNodes) { const f = first(c); if (f) return f; } return null; };
                const range = document.createRange(); range.selectNodeContents(first(Array.from(document.querySelectorAll('#conversation details.msg[open] .plain')).pop()));
                return range.getClientRects()[0].top;
                """)
            #expect(plainTop <= 220, "the first line of a plain message at y = \(plainTop)")
            print("issue 29 figures: the first line of a plain message at y = \(plainTop)")
            let toolbar = try await browser.js("""
                const bar = document.querySelector('#conversation .conv-actions'), items = Array.from(bar.children).filter(e => e.getBoundingClientRect().height > 0);
                const tops = new Set(items.map(e => Math.round(e.getBoundingClientRect().top)));
                return [tops.size, bar.querySelectorAll('select').length, Array.from(bar.querySelectorAll('button, summary')).filter(b => /\\bMove\\b/.test(b.textContent)).length,
                        Array.from(bar.querySelectorAll('button, summary')).every(b => (b.textContent.trim() || b.getAttribute('aria-label') || '').length > 0)];
                """) as? [Any]
            #expect(toolbar?[0] as? Int == 1, "the toolbar is one row: \(toolbar ?? [])")
            #expect(toolbar?[1] as? Int == 0 && toolbar?[2] as? Int == 1, "one Move control, no folder select: \(toolbar ?? [])")
            #expect(toolbar?[3] as? Bool == true, "every button is named: \(toolbar ?? [])")
            let headers = try await browser.count("#conversation .headers")
            let disclosed = try await browser.count("#conversation details.msg-details .headers")
            #expect(headers > 0 && headers == disclosed,
                    "From/To/Cc/Date behind a disclosure")
            try await world.openRow(browser, containing: "[Shapelib] need some help")
            let frameTop = try await browser.number("return document.querySelector('#conversation details.msg[open] iframe').getBoundingClientRect().top")
            let inFrame = try await browser.frameJS("#conversation details.msg[open] iframe", """
                const first = n => { if (n.nodeType === 3 && n.data.trim()) { const r = document.createRange(); r.selectNodeContents(n); if (r.getClientRects().length) return n; } for (const c of n.childNodes) { const f = first(c); if (f) return f; } return null; };
                const range = document.createRange(); range.selectNodeContents(first(document.body));
                return range.getClientRects()[0].top;
                """) as? NSNumber
            let htmlTop = frameTop + (inFrame?.doubleValue ?? .infinity)
            #expect(htmlTop <= 220, "the first line of an HTML message at y = \(htmlTop) (frame at \(frameTop))")
            print("issue 29 figures: the first line of an HTML message at y = \(htmlTop)")
            try await world.expectAccessible(browser, page: "an HTML conversation (issue 29 layout)")

            // A phone: a search box of at least 60% of the width and a compose button on the list.
            try await browser.setSize(width: 420, height: 860)
            try await browser.get("\(base)/mail")
            let phone = try await browser.js("""
                const q = document.querySelector('#q').getBoundingClientRect();
                const c = Array.from(document.querySelectorAll('a[href^="/compose"]')).map(a => a.getBoundingClientRect()).find(r => r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth);
                return [q.width / innerWidth, c !== undefined];
                """) as? [Any]
            #expect(((phone?[0] as? NSNumber)?.doubleValue ?? 0) >= 0.6, "the search box's share of a phone's width: \(phone ?? [])")
            #expect(phone?[1] as? Bool == true, "a compose button on the phone's list")
            try await world.expectAccessible(browser, page: "the inbox (issue 29 layout)")
        }
    }

    struct RowFigure {
        var senderWhole: Bool
        var length: Int
        var visible: Int
        /// The sender and the subject, for the report of a row that falls short.
        var text: String
    }

    /// For each loaded row: whether the sender shows whole, the subject's length and how many of
    /// its characters are on screen (a Range over the text, up to the edge of what clips it,
    /// less the ellipsis when it is cut).
    static func rowFigures(_ browser: BrowserSession) async throws -> [RowFigure] {
        let answer = try await browser.js("""
            return Array.from(document.querySelectorAll('#threads .row')).slice(0, 25).map(row => {
              const sender = row.querySelector('.sender'), subject = row.querySelector('.subject'), text = subject.firstChild;
              const length = text ? text.data.length : 0;
              let edge = Infinity;
              for (let el = subject; el && el !== row; el = el.parentElement) {
                if (getComputedStyle(el).overflowX !== 'visible') edge = Math.min(edge, el.getBoundingClientRect().right);
              }
              const range = document.createRange(), right = n => { range.setStart(text, 0); range.setEnd(text, n); return range.getBoundingClientRect().right; };
              let visible = length;
              if (length && right(length) > edge + 0.5) {
                let lo = 0, hi = length; edge -= 12;
                while (lo < hi) { const mid = Math.ceil((lo + hi) / 2); if (right(mid) <= edge) lo = mid; else hi = mid - 1; }
                visible = lo;
              }
              return [sender.scrollWidth <= sender.clientWidth + 1, length, visible, sender.textContent + ' | ' + (text ? text.data : '')];
            });
            """) as? [[Any]] ?? []
        return answer.map { RowFigure(senderWhole: $0[0] as? Bool ?? false, length: $0[1] as? Int ?? 0, visible: $0[2] as? Int ?? 0, text: $0[3] as? String ?? "") }
    }
}

extension EndToEndWorld {
    /// The window sizes of issue 29, light and dark: (width, height, dark).
    static let everySize: [(Int, Int, Bool)] = [(1280, 800, false), (1280, 800, true), (1920, 1080, false), (420, 860, false), (420, 860, true)]

    /// Screenshots of the page at viewport sizes, named `NAME-WIDTH-light|dark.png` in
    /// `.build/web-screenshots/layout` (docs/web/ shows them).
    func layoutScreenshots(_ browser: BrowserSession, name: String, sizes: [(Int, Int, Bool)]) async throws {
        let folder = Self.screenshots.appendingPathComponent("layout")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (width, height, dark) in sizes {
            let path = folder.appendingPathComponent("\(name)-\(width)-\(dark ? "dark" : "light").png").path
            try await browser.screenshot(path, width: width, height: height, dark: dark)
        }
        try await browser.setSize(width: 1280, height: 800)
        try await browser.call(["cmd": "scheme", "value": "light"])
    }

    /// A day's mail for two accounts, before the daemon's first sync: real third-party list
    /// mail and HTML mail (spamassassin's ham, stalwart's third-party messages), a 14-message
    /// conversation, and everyday mail with names and subjects of everyday length.
    func deliverDailyMail() async throws {
        let nice = "mime/spamassassin-t/t/data/nice", stalwart = "mime/stalwart-mail-parser/eml/thirdparty"
        for name in ["001", "002", "mailman_message.txt", "base64.txt", "mime1", "mime8"] {
            try deliver(Data(try TestMaterial.bytes(nice, name)))
        }
        for name in ["014.eml", "015.eml", "018.eml"] {
            try deliver(Data(try TestMaterial.bytes(stalwart, name)))
        }
        for name in ["007", "mime4"] {
            try deliver(Data(try TestMaterial.bytes(nice, name)), to: "bob")
        }
        let hour: TimeInterval = 3600
        let everyday: [(String, String, String, Double)] = [
            ("Margaret Hamilton <margaret@apollo.example>", "Flight software review moved to Thursday afternoon", "The review of the guidance code moves to Thursday at 14:00. Please bring the list of open anomalies.", 1),
            ("GitHub <notifications@github.example>", "[vaultmail/vaultmail] Sync stalls after UIDVALIDITY change on shared folders (#412)", "A folder whose UIDVALIDITY changes while IDLE is running is never synced again.", 2),
            ("Deutsche Bahn <buchungsbestaetigung@bahn.example>", "Ihre Buchungsbestätigung: Berlin Hbf → München Hbf, Fr 4. Dez", "Vielen Dank für Ihre Buchung. Ihr Ticket finden Sie im Anhang.", 3),
            ("Katherine Johnson <katherine@langley.example>", "Trajectory tables for the October launch window, second revision", "I reran the tables with the corrected drag coefficients; the window opens two minutes later.", 5),
            ("Barbara Liskov <barbara@csail.example>", "Reading group: abstraction and the substitution principle, week 6", "This week we read the 1987 keynote. Questions to the list by Tuesday.", 7),
            ("Linus Pauling <linus@caltech.example>", "Re: Draft of the grant renewal — budget section needs two more lines", "The equipment line is fine; travel needs a sentence on the conference in Basel.", 9),
            ("Stadtbibliothek Pankow <ausleihe@bibliothek.example>", "Erinnerung: Leihfrist endet in 3 Tagen (2 Medien)", "Die Leihfrist für folgende Medien endet bald: Gödel, Escher, Bach; Der Zauberberg.", 12),
            ("Frances E. Allen <frances@ibm.example>", "Compiler meeting notes and the plan for the optimizer rewrite", "Notes attached. Next step: move the dataflow passes behind one interface.", 20),
            ("Hedy Lamarr <hedy@patents.example>", "Frequency hopping patent: the examiner's questions and our answers", "The examiner asks about the synchronisation of the two rolls; my answer is below.", 26),
            ("Your bank <service@bank.example>", "Your statement for November is ready to view in online banking", "Your monthly statement is now available. Log in to view it.", 30),
            ("Alan Kay <alan@parc.example>", "Dynabook mock-ups for the kids' workshop on Saturday morning", "The cardboard models are ready; we need two more volunteers for the morning.", 40),
            ("Conference Team <team@swiftconf.example>", "Your talk has been accepted: schedule, speaker guide and travel", "Congratulations! Your talk is on day two at 11:30 in room B.", 50),
        ]
        for (index, (from, subject, body, hours)) in everyday.enumerated() {
            try deliver(Self.message(subject, from: from, body: body, written: Date().addingTimeInterval(-hours * hour)), to: index % 3 == 2 ? "bob" : Self.user)
        }
        for index in 0..<12 {
            try deliver(Self.message("Weekly digest \(index + 1): new posts in the Swift on Linux forums", from: "Swift Forums <forums@swift.example>",
                                     body: "Here is what happened this week.", written: Date().addingTimeInterval(-Double(60 + index * 24) * hour)))
        }
        // A 14-message conversation among five people (and Ada).
        let people = ["Grace Hopper <grace@example.org>", "Margaret Hamilton <margaret@apollo.example>", "Ada <\(Self.address)>",
                      "Katherine Johnson <katherine@langley.example>", "Dennis Ritchie <dmr@bell.example>"]
        var references: [String] = []
        for index in 0..<14 {
            let id = "<release-\(index)@example.org>"
            let body = "Point \(index + 1) of the checklist: the migration of the settings table and the window for the 2.4 release.\n\n"
                + "I checked the backup and the rollback on the staging machine; both take under five minutes.\n\n"
                + (index > 0 ? "On the day before, someone wrote:\n> The previous point is done.\n" : "")
            try deliver(TestMessage(from: people[index % people.count], to: "Ada <\(Self.address)>",
                                    subject: (index == 0 ? "" : "Re: ") + "Release checklist for 2.4 and the database migration window",
                                    date: Date().addingTimeInterval(-Double(14 - index) * 2 * hour), timeZone: .current, messageId: id,
                                    inReplyTo: references.last, references: references, body: body).data)
            references.append(id)
        }
        try await otherClient.markRead(subject: "Release checklist for 2.4 and the database migration window")
    }
}
