import Foundation

/// `vaultmail-demo`: VaultMail at work on one machine, with nothing leaving it. It starts a
/// private Dovecot and SMTP server with sample mail on 127.0.0.1, adds the account, runs the
/// daemon on a private D-Bus with a notification server, delivers new mail, and shows what
/// VaultMail did. Everything it starts is stopped and removed at the end, also after a
/// failure or Ctrl-C.
@main
enum VaultMailDemo {
    static let usage = """
        usage: vaultmail-demo [--print-notifications]

        Runs VaultMail against private mail servers on 127.0.0.1 and narrates what happens.
        Notifications appear through dunst on your display when $DISPLAY or $WAYLAND_DISPLAY
        is set, and are printed otherwise (or with --print-notifications).
        Needs the `vaultmail` binary beside this one (`make demo` builds both).
        """

    static func main() async {
        var printNotifications = false
        for argument in CommandLine.arguments.dropFirst() {
            switch argument {
            case "--print-notifications": printNotifications = true
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                FileHandle.standardError.write(Data("vaultmail-demo: unknown argument '\(argument)'\n\n\(usage)\n".utf8))
                exit(2)
            }
        }
        exit(await run(printNotifications: printNotifications))
    }

    @MainActor
    static func run(printNotifications: Bool) async -> Int32 {
        InterruptSignal.install()
        let say = Narrator()
        let environment = ProcessInfo.processInfo.environment
        let display = printNotifications ? nil : [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]]
            .compactMap { $0 }.first { !$0.isEmpty }
        say.write("VaultMail demo: real servers on 127.0.0.1 only; everything is removed at the end.")
        let world: DemoWorld
        do {
            world = try DemoWorld()
        } catch {
            say.write("vaultmail-demo: \(error)")
            return 1
        }
        let script = Task { @MainActor in
            try await DemoScript(world: world, say: say, display: display).run()
        }
        let watcher = Task { @MainActor in
            while !Task.isCancelled, InterruptSignal.caught == nil {
                try? await Task.sleep(for: .milliseconds(50))
            }
            if InterruptSignal.caught != nil { script.cancel() }
        }
        let result = await script.result
        watcher.cancel()

        let status: Int32
        say.step(nil, "Cleaning up")
        if let signal = InterruptSignal.caught {
            say.warn("interrupted (signal \(signal)): stopping everything")
            status = 128 + signal
        } else if case .failure(let error) = result {
            say.warn("the demo stopped: \(error)")
            status = 1
        } else {
            status = 0
        }
        for line in await world.shutDown() { say.done(line) }
        if status == 0 {
            say.blank()
            say.write("Done. No mail left this machine: every server listened on 127.0.0.1 only, and all of it is gone.")
        }
        return status
    }
}
