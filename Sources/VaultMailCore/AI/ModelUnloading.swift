import Foundation

/// Whether the machine is short of memory now (AC-P-03). The daemon's and the tool's is
/// `LinuxMemoryPressure` (VaultMailApp), over the kernel's pressure stall figures and the
/// memory still available; tests give their own.
public protocol MemoryPressureSource: Sendable {
    /// True when memory is short now: a model held idle should be let go.
    func isUnderPressure() -> Bool
}

/// When an idle model leaves memory (AC-P-03), one rule for the writing model
/// (`GenerationSession`) and the sentence model (`AIModelSession`): after `idleTimeout`
/// unused (30 s unless the composition root says otherwise), and at once when `pressure` says
/// memory is short — asked every `pressureCheck` while the model is loaded and idle, never
/// while none is. A running inference is never cut: the model goes as soon as it ends.
public struct ModelUnloadPolicy: Sendable {
    public var idleTimeout: Duration
    public var pressure: (any MemoryPressureSource)?
    public var pressureCheck: Duration

    public init(idleTimeout: Duration = .seconds(30), pressure: (any MemoryPressureSource)? = nil, pressureCheck: Duration = .seconds(1)) {
        self.idleTimeout = idleTimeout
        self.pressure = pressure
        self.pressureCheck = pressureCheck
    }

    /// Whether a model loaded and unused for `idle` is to be unloaded now.
    public func shouldUnload(idleFor idle: Duration) -> Bool {
        idle >= idleTimeout || pressure?.isUnderPressure() == true
    }

    /// How long a model unused for `idle` may wait before `shouldUnload` is asked again.
    public func nextCheck(idleFor idle: Duration) -> Duration {
        let untilTimeout = max(.zero, idleTimeout - idle)
        return pressure == nil ? untilTimeout : min(untilTimeout, pressureCheck)
    }
}
