import Foundation

/// A model of the catalog and where it stands on this machine, as the command line and the
/// web app's Settings → On-device AI list it (AC-A-03).
public struct AIModelStatus: Sendable, Hashable, Identifiable {
    /// Name, purpose, size, licence and files.
    public var model: AIModelDescriptor
    /// Not installed, partly downloaded (with the fraction of its bytes) or installed.
    public var state: AIModelState
    /// True while a download of it is under way (in this process or another).
    public var isDownloading: Bool
    /// Why the last download stopped, when it failed or was cancelled, in words with the detail
    /// apart (issue 29); nil otherwise.
    public var problem: PlainProblem?

    public var id: String { model.id }

    public init(model: AIModelDescriptor, state: AIModelState, isDownloading: Bool = false, problem: PlainProblem? = nil) {
        self.model = model
        self.state = state
        self.isDownloading = isDownloading
        self.problem = problem
    }
}
