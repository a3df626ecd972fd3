import Foundation

/// What the routes answer a script with: each a Codable type, encoded by `Pages.json` with
/// `JSONEncoder` (never JSON put together by hand). A field that is nil is left out.
enum JSONReply {
    /// A sentence for the page to show (settings saved, a model download refused), or none.
    struct Message: Encodable {
        var message: String?
    }

    /// Something went wrong: `error` in a person's words, `detail` the technical detail behind
    /// them (issue 29); `draft` names the draft it concerns ("" when none).
    struct Failure: Encodable {
        var error: String
        var draft: String?
        var detail: String?
    }

    /// The connection test of the onboarding form: passed or not, and its report as markup.
    struct ConnectionCheck: Encodable {
        var passed: Bool
        var html: String
    }

    /// Settings → On-device AI's state for the script that moves the progress bars.
    struct ModelsStatus: Encodable {
        struct Model: Encodable {
            var id: String
            var downloading: Bool
            var installed: Bool
            var percent: Int
            var label: String
            var problem: String?
        }

        var storageUsed: String
        var models: [Model]
    }

    /// The page's counts from one snapshot (`/mail/counts`): the window title, the sidebar and
    /// the category tabs as markup (rendered by their templates), and the unread conversations
    /// of the list shown in its tab ("Mark all as read" shows while there are some).
    struct Counts: Encodable {
        var title: String
        var sidebar: String
        var tabs: String
        var unread: Int
    }

    /// The unread conversations "Mark all as read" would mark (`/mail/unread`), newest first.
    struct UnreadThreads: Encodable {
        var ids: [String]
    }

    /// A recipient suggestion of the composer.
    struct Contact: Encodable {
        var email: String
        var name: String
        var value: String
    }

    /// An address of the composer that cannot be sent to, as the user typed it.
    struct AddressProblem: Encodable {
        var field: String
        var address: String
        var reason: String
    }

    /// A draft saved as the user types, with the addresses that cannot be sent to.
    struct Saved: Encodable {
        var draft: String
        var problems: [AddressProblem]
    }

    /// A draft and where it is edited (Undo after Send).
    struct Draft: Encodable {
        var draft: String
        var url: String
    }

    /// A draft discarded, and where the composer goes back to.
    struct Discarded: Encodable {
        var message: String
        var url: String
        var detail: String?
    }

    /// A message on its way, with the seconds left to take it back.
    /// A message scheduled (send later, issue 33): what to tell, and where the composer goes back to.
    struct Scheduled: Encodable {
        var draft: String
        var url: String
        var message: String
        var at: String
    }

    struct Sending: Encodable {
        var draft: String
        var undoSeconds: Int
        var url: String
        var subject: String
    }

    /// A file attached to a draft.
    struct Attachment: Encodable {
        var name: String
        var size: Int
        var sizeText: String
    }
}
