import Foundation
internal import CSystemd
import VaultMailCore
#if canImport(Glibc)
import Glibc
#endif

/// A signal received from the bus.
public struct DBusSignal: Sendable, Hashable {
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]
}

/// A method call to an object we export.
public struct DBusMethodCall: Sendable {
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]
}

/// How an exported object answers a call.
public enum DBusMethodResult: Sendable {
    case reply([DBusValue])
    /// Not ours: sd-bus answers "unknown method".
    case notHandled
}

/// One connection to a D-Bus bus, owned by an actor whose executor is the bus's own thread
/// (sd-bus is single-threaded). Calls are asynchronous and resume from reply callbacks;
/// signals arrive on `signals`, an async sequence meant for one long-lived consumer. No C
/// type appears in its interface.
public actor DBusConnection {
    /// Signals matching the subscriptions, and `org.freedesktop.DBus.Local.Disconnected`
    /// when the bus goes away.
    public nonisolated let signals: AsyncStream<DBusSignal>
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    public private(set) var isConnected = false
    public let address: String

    private let executor: OwnerThreadExecutor
    private let signalBox: SignalBox
    private var bus: OpaquePointer?
    private var exported: [ObjectBox] = []

    /// Opens a connection to `address`, or to the session bus: `DBUS_SESSION_BUS_ADDRESS`,
    /// else `$XDG_RUNTIME_DIR/bus`. Fails at once, naming the cause, when there is none.
    public static func connect(address: String? = nil) async throws -> DBusConnection {
        let resolved = try address ?? sessionBusAddress()
        let connection = DBusConnection(address: resolved)
        try await connection.open()
        return connection
    }

    /// The session bus address from the environment, as sd-bus would find it.
    public static func sessionBusAddress(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        if let runtime = environment["XDG_RUNTIME_DIR"], FileManager.default.fileExists(atPath: runtime + "/bus") {
            return "unix:path=\(runtime)/bus"
        }
        throw DBusError.noSessionBus
    }

    private init(address: String) {
        self.address = address
        executor = OwnerThreadExecutor(name: "vaultmail.dbus")
        var continuation: AsyncStream<DBusSignal>.Continuation!
        signals = AsyncStream(bufferingPolicy: .bufferingNewest(1024)) { continuation = $0 }
        signalBox = SignalBox(continuation: continuation)
    }

    /// Runs on the bus thread: nothing else touches the bus while it closes.
    isolated deinit {
        if let bus { sd_bus_flush_close_unref(bus) }
        signalBox.continuation.finish()
        executor.shutDown()
    }

    private func open() throws {
        // The bus thread dispatches sd-bus's callbacks between jobs and polls the bus.
        // Weak: between the last release and the isolated deinit job the loop may still pump.
        do {
            try executor.runBetweenJobs { [weak self] in self?.assumeIsolated { $0.pump() } ?? .nextJob }
        } catch {
            throw DBusError.connectFailed(address: address, reason: error.description)
        }
        var newBus: OpaquePointer?
        try DBusMessageCoding.check("create", sd_bus_new(&newBus))
        guard let newBus else { throw DBusError.connectFailed(address: address, reason: "sd_bus_new gave no bus") }
        do {
            try DBusMessageCoding.check("set address", sd_bus_set_address(newBus, address))
            try DBusMessageCoding.check("set client", sd_bus_set_bus_client(newBus, 1))
            let started = sd_bus_start(newBus)
            if started < 0 {
                throw DBusError.connectFailed(address: address, reason: String(cString: strerror(-started)))
            }
        } catch {
            sd_bus_unref(newBus)
            throw error
        }
        bus = newBus
        isConnected = true
    }

    /// Closes the connection; later calls fail with `.disconnected`.
    public func close() {
        if let bus { sd_bus_flush_close_unref(bus) }
        bus = nil
        isConnected = false
    }

    /// The connection's unique name on the bus (":1.42").
    public func uniqueName() throws -> String {
        var name: UnsafePointer<CChar>?
        try DBusMessageCoding.check("get unique name", sd_bus_get_unique_name(try requireBus(), &name))
        return name.map { String(cString: $0) } ?? ""
    }

    // MARK: Calls

    /// Calls a method and waits for its reply, at most `timeout`. Never starts a service by
    /// D-Bus activation: a name nobody owns fails at once.
    public func call(
        destination: String, path: String, interface: String, member: String,
        arguments: [DBusValue] = [], timeout: Duration = .seconds(2)
    ) async throws -> [DBusValue] {
        let bus = try requireBus()
        var message: OpaquePointer?
        try DBusMessageCoding.check("new call", sd_bus_message_new_method_call(bus, &message, destination, path, interface, member))
        guard let message else { throw DBusError.local(operation: "new call", code: -ENOMEM) }
        defer { sd_bus_message_unref(message) }
        try DBusMessageCoding.check("disable auto-start", sd_bus_message_set_auto_start(message, 0))
        try DBusMessageCoding.append(arguments, to: message)
        let seconds = timeout / .seconds(1)
        return try await withCheckedThrowingContinuation { continuation in
            let box = CallBox(continuation: continuation, destination: destination, member: member, seconds: seconds)
            let context = Unmanaged.passRetained(box).toOpaque()
            let result = sd_bus_call_async(bus, nil, message, replyHandler, context, UInt64(seconds * 1_000_000))
            if result < 0 {
                Unmanaged<CallBox>.fromOpaque(context).release()
                continuation.resume(throwing: DBusError.local(operation: "call \(member)", code: result))
            }
        }
    }

    /// Whether some connection owns `name` (without activating anything).
    public func nameHasOwner(_ name: String) async throws -> Bool {
        let reply = try await call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                   interface: "org.freedesktop.DBus", member: "NameHasOwner", arguments: [.string(name)])
        return reply.first?.boolValue ?? false
    }

    // MARK: Signals and objects

    /// Delivers signals matching a D-Bus match rule to `signals`. Installed before it returns.
    public func subscribe(match: String) throws {
        try DBusMessageCoding.check("add match", sd_bus_add_match(try requireBus(), nil, match, signalHandler,
                                                                   Unmanaged.passUnretained(signalBox).toOpaque()))
    }

    public func emitSignal(path: String, interface: String, member: String, arguments: [DBusValue]) throws {
        let bus = try requireBus()
        var message: OpaquePointer?
        try DBusMessageCoding.check("new signal", sd_bus_message_new_signal(bus, &message, path, interface, member))
        guard let message else { throw DBusError.local(operation: "new signal", code: -ENOMEM) }
        defer { sd_bus_message_unref(message) }
        try DBusMessageCoding.append(arguments, to: message)
        try DBusMessageCoding.check("send signal", sd_bus_send(bus, message, nil))
    }

    /// Answers method calls to `path` with `handler`, which runs on the bus thread and must
    /// not block.
    public func export(path: String, handler: @escaping @Sendable (DBusMethodCall) -> DBusMethodResult) throws {
        let box = ObjectBox(handler: handler)
        try DBusMessageCoding.check("add object", sd_bus_add_object(try requireBus(), nil, path, methodHandler,
                                                                     Unmanaged.passUnretained(box).toOpaque()))
        exported.append(box)
    }

    // MARK: The loop

    private func requireBus() throws -> OpaquePointer {
        guard let bus else { throw DBusError.disconnected }
        return bus
    }

    /// Runs on the bus thread between jobs: dispatches everything ready, then says what to
    /// wait for.
    private func pump() -> OwnerThreadExecutor.PollRequest {
        guard let bus else { return .nextJob }
        while true {
            let result = sd_bus_process(bus, nil)
            if result < 0 {
                close()
                signalBox.continuation.yield(DBusSignal(sender: "", path: "/org/freedesktop/DBus/Local",
                                                        interface: "org.freedesktop.DBus.Local", member: "Disconnected", arguments: []))
                return .nextJob
            }
            if result == 0 { break }
        }
        let fd = sd_bus_get_fd(bus)
        let events = sd_bus_get_events(bus)
        var deadline: UInt64 = 0
        var timeout: Int32 = -1
        if sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicros = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            timeout = deadline <= nowMicros ? 0 : Int32(min((deadline - nowMicros + 999) / 1000, UInt64(Int32.max)))
        }
        return OwnerThreadExecutor.PollRequest(fd: fd, events: Int16(truncatingIfNeeded: events), timeoutMilliseconds: timeout)
    }
}

/// One pending call's continuation, owned by sd-bus (retained) until its reply arrives.
private final class CallBox {
    let continuation: CheckedContinuation<[DBusValue], any Error>
    let destination: String
    let member: String
    let seconds: Double

    init(continuation: CheckedContinuation<[DBusValue], any Error>, destination: String, member: String, seconds: Double) {
        self.continuation = continuation
        self.destination = destination
        self.member = member
        self.seconds = seconds
    }
}

private final class SignalBox: Sendable {
    let continuation: AsyncStream<DBusSignal>.Continuation
    init(continuation: AsyncStream<DBusSignal>.Continuation) { self.continuation = continuation }
}

private final class ObjectBox: Sendable {
    let handler: @Sendable (DBusMethodCall) -> DBusMethodResult
    init(handler: @escaping @Sendable (DBusMethodCall) -> DBusMethodResult) { self.handler = handler }
}

private func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

/// The reply (or synthesized timeout error) of one call. Runs on the bus thread.
private let replyHandler: sd_bus_message_handler_t = { message, context, _ in
    let box = Unmanaged<CallBox>.fromOpaque(context!).takeRetainedValue()
    guard let message else {
        box.continuation.resume(throwing: DBusError.disconnected)
        return 1
    }
    if sd_bus_message_is_method_error(message, nil) != 0 {
        let error = sd_bus_message_get_error(message)
        let name = text(vm_bus_error_name(error))
        if name == "org.freedesktop.DBus.Error.Timeout" || name == "org.freedesktop.DBus.Error.NoReply" {
            box.continuation.resume(throwing: DBusError.timeout(destination: box.destination, member: box.member, seconds: box.seconds))
        } else if name == "org.freedesktop.DBus.Error.Disconnected" {
            box.continuation.resume(throwing: DBusError.disconnected)
        } else {
            box.continuation.resume(throwing: DBusError.remote(name: name, message: text(vm_bus_error_message(error)), member: box.member))
        }
        return 1
    }
    do {
        box.continuation.resume(returning: try DBusMessageCoding.readAll(message))
    } catch {
        box.continuation.resume(throwing: error)
    }
    return 1
}

private let signalHandler: sd_bus_message_handler_t = { message, context, _ in
    guard let message, let context else { return 0 }
    let box = Unmanaged<SignalBox>.fromOpaque(context).takeUnretainedValue()
    let arguments = (try? DBusMessageCoding.readAll(message)) ?? []
    box.continuation.yield(DBusSignal(
        sender: text(sd_bus_message_get_sender(message)), path: text(sd_bus_message_get_path(message)),
        interface: text(sd_bus_message_get_interface(message)), member: text(sd_bus_message_get_member(message)),
        arguments: arguments))
    return 0
}

private let methodHandler: sd_bus_message_handler_t = { message, context, _ in
    guard let message, let context else { return 0 }
    let box = Unmanaged<ObjectBox>.fromOpaque(context).takeUnretainedValue()
    let call = DBusMethodCall(interface: text(sd_bus_message_get_interface(message)),
                              member: text(sd_bus_message_get_member(message)),
                              arguments: (try? DBusMessageCoding.readAll(message)) ?? [])
    var reply: OpaquePointer?
    switch box.handler(call) {
    case .notHandled:
        return 0
    case .reply(let values):
        guard sd_bus_message_new_method_return(message, &reply) >= 0, let reply else { return -ENOMEM }
        if (try? DBusMessageCoding.append(values, to: reply)) == nil {
            sd_bus_message_unref(reply)
            return -EINVAL
        }
    }
    defer { sd_bus_message_unref(reply) }
    _ = sd_bus_send(sd_bus_message_get_bus(message), reply, nil)
    return 1
}
