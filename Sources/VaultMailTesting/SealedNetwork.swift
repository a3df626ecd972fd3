import Foundation
import VaultMailCore

/// A sealed network for a test (issue 34): a Linux network namespace of its own, joined to
/// this machine by one veth pair, in which the test runs the programs it watches
/// (`command(_:)` prefixes `ip netns exec`). Inside, the only addresses are loopback and the
/// veth's end; the default routes (IPv4 and IPv6) and the resolver (`/etc/netns/<name>/
/// resolv.conf`) point at this machine's end (`hostAddress`), so every attempt to reach
/// anything — a connection, a DNS query — leaves as a packet there, where `tcpdump` records it
/// (`packets`). Nothing goes further: packets that arrive from the veth and are not for this
/// machine are refused by a policy rule (`ip rule … iif <veth> prohibit`), whether or not the
/// machine forwards. Test servers reachable from inside listen on `hostAddress` as well.
///
/// Needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN), Debian's iproute2 and tcpdump
/// (scripts/install-deps.sh). `create()` throws, saying why, when the namespace cannot be made.
/// `remove()` deletes the namespace, the pair, the rules and the resolver file; call it
/// whatever happens (every name is unique, so parallel runs never meet).
public final class SealedNetwork: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// One packet that left the namespace, as `tcpdump -n` printed it.
    public struct Packet: Sendable, CustomStringConvertible {
        /// `tcp` or `udp`.
        public var transport: String
        /// Address and port it was sent to (`198.18.7.1.993`, `fd00:…::1.53`).
        public var destination: String
        /// A TCP SYN without ACK: the start of a connection.
        public var opensConnection: Bool
        /// The name asked for, when it is a DNS query (`example.org.`).
        public var dnsQuestion: String?
        public var line: String
        public var description: String { line }
    }

    /// The namespace's name.
    public let name: String
    /// This machine's end of the pair (IPv4): where test servers listen for the namespace.
    public let hostAddress: String
    /// This machine's end (IPv6).
    public let hostAddress6: String
    private let hostInterface: String
    private let rulePriority: Int
    private let capture: ChildProcess
    /// The UDP port the marker packets of `settle()` go to (discard).
    private static let markerPort = 9

    /// Makes the namespace and starts recording. Throws when it cannot (e.g. not root: no
    /// CAP_SYS_ADMIN), with the command's own words.
    public static func create() async throws -> SealedNetwork {
        let tag = String(format: "%06x", UInt32.random(in: 0...0xFF_FFFF))
        let name = "vmseal-\(tag)"
        let host = "vms\(tag)h"
        let inside = "vms\(tag)n"
        // RFC 2544's benchmarking range (198.18.0.0/15) and a ULA prefix: never a real network.
        let third = Int.random(in: 0...255)
        let fourth = Int.random(in: 0...63) * 4
        let base = "198.\(18 + Int.random(in: 0...1)).\(third)"
        let hostAddress = "\(base).\(fourth + 1)"
        let address = "\(base).\(fourth + 2)"
        let prefix6 = "fd00:5ea1:\(String(third, radix: 16)):\(String(fourth, radix: 16))"
        let hostAddress6 = "\(prefix6)::1"
        let address6 = "\(prefix6)::2"
        let priority = 20_000 + Int.random(in: 0...9_999)
        let resolver = URL(fileURLWithPath: "/etc/netns/\(name)")

        func ip(_ arguments: [String]) throws {
            try CommandRunner.run("/usr/sbin/ip", arguments)
        }
        do {
            try ip(["netns", "add", name])
        } catch {
            throw Failure(description: "cannot make a network namespace (`ip netns add` needs root: CAP_SYS_ADMIN): \(error)")
        }
        let undo = {
            _ = try? CommandRunner.run("/usr/sbin/ip", ["netns", "del", name])
            _ = try? CommandRunner.run("/usr/sbin/ip", ["link", "del", host])
            _ = try? CommandRunner.run("/usr/sbin/ip", ["rule", "del", "priority", "\(priority)"])
            _ = try? CommandRunner.run("/usr/sbin/ip", ["-6", "rule", "del", "priority", "\(priority)"])
            try? FileManager.default.removeItem(at: resolver)
        }
        do {
            try ip(["link", "add", host, "type", "veth", "peer", "name", inside])
            try ip(["link", "set", inside, "netns", name])
            try ip(["addr", "add", "\(hostAddress)/30", "dev", host])
            try ip(["-6", "addr", "add", "\(hostAddress6)/64", "dev", host, "nodad"])
            try ip(["link", "set", host, "up"])
            try ip(["rule", "add", "iif", host, "priority", "\(priority)", "prohibit"])
            try ip(["-6", "rule", "add", "iif", host, "priority", "\(priority)", "prohibit"])
            let exec = ["netns", "exec", name, "/usr/sbin/ip"]
            try ip(exec + ["link", "set", "lo", "up"])
            try ip(exec + ["addr", "add", "\(address)/30", "dev", inside])
            try ip(exec + ["-6", "addr", "add", "\(address6)/64", "dev", inside, "nodad"])
            try ip(exec + ["link", "set", inside, "up"])
            try ip(exec + ["route", "add", "default", "via", hostAddress])
            try ip(exec + ["-6", "route", "add", "default", "via", hostAddress6])
            try FileManager.default.createDirectory(at: resolver, withIntermediateDirectories: true)
            try "nameserver \(hostAddress)\n".write(to: resolver.appendingPathComponent("resolv.conf"), atomically: true, encoding: .utf8)
            // Only what the namespace sends (`-Q in` on this machine's end), every TCP and UDP
            // packet, printed as it arrives.
            let capture = try ChildProcess("/usr/bin/tcpdump", ["-i", host, "-n", "-l", "--immediate-mode", "-Q", "in", "tcp or udp"])
            do {
                try await waitUntil("tcpdump listening on \(host)", timeout: .seconds(30), every: .milliseconds(50)) {
                    capture.errorOutput.contains("listening on")
                }
            } catch {
                capture.stop()
                throw Failure(description: "tcpdump did not start on \(host): \(capture.errorOutput)")
            }
            return SealedNetwork(name: name, hostAddress: hostAddress, hostAddress6: hostAddress6, hostInterface: host,
                                 rulePriority: priority, capture: capture)
        } catch {
            undo()
            throw error
        }
    }

    private init(name: String, hostAddress: String, hostAddress6: String, hostInterface: String, rulePriority: Int,
                 capture: ChildProcess) {
        self.name = name
        self.hostAddress = hostAddress
        self.hostAddress6 = hostAddress6
        self.hostInterface = hostInterface
        self.rulePriority = rulePriority
        self.capture = capture
    }

    deinit { remove() }

    /// `program arguments` run inside the namespace (argv for `ChildProcess` / `ProcessCapture`).
    public func command(_ program: String, _ arguments: [String] = []) -> (program: String, arguments: [String]) {
        ("/usr/sbin/ip", ["netns", "exec", name, program] + arguments)
    }

    /// Every TCP and UDP packet that left the namespace so far (call `settle()` first).
    public var packets: [Packet] {
        capture.lines.compactMap(Self.parse).filter { !$0.destination.hasSuffix(".\(Self.markerPort)") }
    }

    /// Connections opened and DNS questions asked, one line each: what a failure message shows.
    public var attempts: [Packet] { packets.filter { $0.opensConnection || $0.transport == "udp" } }

    /// Returns once every packet sent before it is in `packets`: sends a marker from inside
    /// and waits until the capture has printed it.
    public func settle() async throws {
        let before = capture.lines.count
        let send = command("/usr/bin/python3", ["-c", "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'settle', ('\(hostAddress)', \(Self.markerPort)))"])
        try await waitUntil("the capture printing the marker packet", timeout: .seconds(30), every: .milliseconds(100)) {
            _ = try ProcessCapture.run(send.program, send.arguments)
            return capture.lines.dropFirst(before).contains { $0.contains("\(hostAddress).\(Self.markerPort):") }
        }
    }

    /// Deletes the namespace (and with it the pair), the rules and the resolver file; stops
    /// the capture. Safe to call more than once.
    public func remove() {
        capture.stop()
        _ = try? CommandRunner.run("/usr/sbin/ip", ["netns", "del", name])
        _ = try? CommandRunner.run("/usr/sbin/ip", ["link", "del", hostInterface])
        _ = try? CommandRunner.run("/usr/sbin/ip", ["rule", "del", "priority", "\(rulePriority)"])
        _ = try? CommandRunner.run("/usr/sbin/ip", ["-6", "rule", "del", "priority", "\(rulePriority)"])
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: "/etc/netns/\(name)"))
    }

    /// `IP 198.18.7.2.40000 > 198.18.7.1.993: Flags [S], …` or
    /// `IP6 fd00:…::2.41000 > fd00:…::1.53: 4242+ AAAA? example.org. (29)`.
    static func parse(_ line: String) -> Packet? {
        let words = line.split(separator: " ").map(String.init)
        guard let arrow = words.firstIndex(of: ">"), arrow + 1 < words.count, arrow >= 2 else { return nil }
        let destination = String(words[arrow + 1].dropLast(words[arrow + 1].hasSuffix(":") ? 1 : 0))
        let rest = words[(arrow + 2)...]
        let isTCP = line.contains(" Flags [")
        let flags = rest.first { $0.hasPrefix("[") }
        let question = rest.firstIndex { $0.hasSuffix("?") }.flatMap { index in index + 1 < rest.endIndex ? rest[index + 1] : nil }
        return Packet(transport: isTCP ? "tcp" : "udp", destination: destination,
                      opensConnection: isTCP && flags.map { $0.contains("S") && !$0.contains(".") } == true,
                      dnsQuestion: isTCP ? nil : question, line: line)
    }
}
