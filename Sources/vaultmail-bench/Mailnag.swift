import Foundation
import VaultMailCore
import VaultMailTesting

/// mailnag (Debian `mailnag`, 2.2.0), run headless for the e2e benchmark: its own home and
/// XDG directories in `home`, the private bus, the password in the Secret Service (the only
/// place it reads one from), configured and stored by mailnag's own Python code exactly as
/// `mailnag-config` stores them.
///
/// It never contacts anything off loopback: its connectivity test asks GLib's network
/// monitor, which would try www.google.com; `GIO_USE_NETWORK_MONITOR=base` makes that
/// monitor report full connectivity without sending anything. No display, no sound (only
/// `libnotifyplugin` is enabled), no GSettings or accessibility bus.
struct Mailnag {
    static let executable = "/usr/bin/mailnag"
    /// Debian's python, which has mailnag's modules (a python on PATH, e.g. pyenv's, may not).
    static let python = "/usr/bin/python3"
    static let installHint = "install it with `scripts/install-bench-deps.sh` (or `apt-get install mailnag`)"

    let home: URL
    let environment: [String: String]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The installed version (`2.2.0-1`), or nil when mailnag is not installed.
    static func installedVersion() -> String? {
        guard FileManager.default.isExecutableFile(atPath: executable),
              let result = try? ProcessCapture.run("/usr/bin/dpkg-query", ["-W", "-f=${Version}", "mailnag"], includeErrors: false),
              result.status == 0 else { return nil }
        let version = String(decoding: result.output, as: UTF8.self)
        return version.isEmpty ? nil : version
    }

    /// Writes mailnag's configuration for one IMAP account (plain IMAP with IDLE on INBOX) in
    /// a fresh `home` and stores its password in the Secret Service on `bus` (the keyring must
    /// be serving there). The password reaches mailnag's code on standard input only.
    static func configure(home: URL, bus: DBusDaemon, host: String, port: Int, user: String, password: String) async throws -> Mailnag {
        for sub in [".config", ".local/share", ".cache", "run"] {
            try FileManager.default.createDirectory(at: home.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        chmod(home.appendingPathComponent("run").path, 0o700)
        let environment: [String: String] = [
            "PATH": "/usr/bin:/bin",
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            "XDG_RUNTIME_DIR": home.appendingPathComponent("run").path,
            "DBUS_SESSION_BUS_ADDRESS": bus.address,
            // Mandatory: without it mailnag's connectivity test contacts www.google.com.
            "GIO_USE_NETWORK_MONITOR": "base",
            "GSETTINGS_BACKEND": "memory",
            "GIO_USE_VFS": "local",
            "NO_AT_BRIDGE": "1",
            "LANG": "C.UTF-8",
            "PYTHONUNBUFFERED": "1",
        ]
        let result = try await ProcessCapture.run(
            python, ["-c", configureScript, user, host, String(port)], environment: environment,
            input: Data((password + "\n").utf8), timeout: .seconds(60))
        let output = String(decoding: result.output, as: UTF8.self)
        guard result.exitedNormally, result.status == 0, output.contains("mailnag configured") else {
            throw Failure(description: "configuring mailnag failed (status \(result.status)): \(output)")
        }
        return Mailnag(home: home, environment: environment)
    }

    /// mailnag's own classes write the configuration and store the secret, as `mailnag-config`
    /// does: `AccountManager.save_to_cfg` stores it under schema `com.github.pulb.mailnag`,
    /// attribute `id` = md5(user + server + "True"); the script checks that id and reads the
    /// secret back through `load_from_cfg`, as the daemon will.
    private static let configureScript = #"""
        import hashlib, sys
        from Mailnag.common.config import read_cfg, write_cfg, cfg_file
        from Mailnag.common.accounts import Account, AccountManager
        password = sys.stdin.readline().rstrip("\n")
        user, server, port = sys.argv[1:4]
        cfg = read_cfg()
        cfg.set("core", "enabled_plugins", "libnotifyplugin")
        cfg.set("core", "connectivity_test", "networkmonitor")
        cfg.set("core", "autostart", "0")
        manager = AccountManager()
        manager.add(Account(mailbox_type="imap", enabled=True, name="bench", user=user, password=password,
                            server=server, port=port, ssl=False, imap=True, idle=True, folders=[]))
        manager.save_to_cfg(cfg)
        write_cfg(cfg)
        secret_id = hashlib.md5((user + server + "True").encode("utf-8")).hexdigest()
        assert manager._get_account_id(user, server, True) == secret_id, "mailnag's secret id is not md5(user+server+'True')"
        loaded = AccountManager()
        loaded.load_from_cfg(read_cfg(), enabled_only=True)
        accounts = loaded.to_list()
        assert len(accounts) == 1 and accounts[0].idle and not accounts[0].ssl, "the account did not load back as configured"
        assert accounts[0].password == password, "the password did not come back from the Secret Service"
        print("mailnag configured:", cfg_file, "secret id", secret_id)
        """#

    /// Starts the daemon (it logs to standard error).
    func start() throws -> ChildProcess {
        try ChildProcess(Self.executable, [], environment: environment, currentDirectory: home)
    }

    /// The line mailnag logs when a check begins (the first one right after start, then one per IDLE wake).
    static let checkLine = "Checking 1 email account(s)."
}
