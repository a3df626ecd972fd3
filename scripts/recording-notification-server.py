#!/usr/bin/python3
"""A scriptable org.freedesktop.Notifications server for VaultMail's tests and benchmarks.

Records every call as a JSON line on stdout and emits signals on command (JSON lines on
stdin). Runs on the session bus named by DBUS_SESSION_BUS_ADDRESS (a private test bus).

stdout events:  {"event": "ready", "unique_name": ...}
                {"event": "call", "method": "Notify", "id": N, "app_name": ..., "replaces_id": ...,
                 "app_icon": ..., "summary": ..., "body": ..., "actions": [...], "expire_timeout": ...,
                 "hints": {key: {"type": "String", "value": ...}},
                 "at": <time.monotonic() when the call arrived: CLOCK_MONOTONIC seconds, for latency figures>}
                {"event": "call", "method": "CloseNotification" | "GetCapabilities" | "GetServerInformation", ...}
                {"event": "launcher-update", "app_uri": ..., "properties": {key: {"type": ..., "value": ...}}}
                {"event": "query-reply", "types": [...], "app_uri": ..., "properties": {...}}
                {"event": "done", "command": ...}
stdin commands: {"emit": "ActionInvoked", "id": N, "key": "default"}
                {"emit": "NotificationReplied", "id": N, "text": "..."}
                {"emit": "NotificationClosed", "id": N, "reason": 2}
                {"query_launcher": {"destination": ":1.5", "path": "/..."}}
"""
import argparse
import json
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

IFACE = "org.freedesktop.Notifications"
LAUNCHER = "com.canonical.Unity.LauncherEntry"


def plain(value):
    """A dbus-python value as plain JSON."""
    if isinstance(value, (dbus.Array, list)):
        return [plain(v) for v in value]
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Byte, dbus.Int16, dbus.UInt16, dbus.Int32, dbus.UInt32, dbus.Int64, dbus.UInt64)):
        return int(value)
    if isinstance(value, dbus.Double):
        return float(value)
    return str(value)


def typed(mapping):
    return {str(k): {"type": type(v).__name__, "value": plain(v)} for k, v in mapping.items()}


def emit(event):
    print(json.dumps(event), flush=True)


class Server(dbus.service.Object):
    def __init__(self, bus, capabilities, hang):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.capabilities = capabilities
        self.hang = hang
        self.next_id = 1
        self.held = []

    @dbus.service.method(IFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        emit({"event": "call", "method": "GetCapabilities"})
        return dbus.Array(self.capabilities, signature="s")

    @dbus.service.method(IFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        emit({"event": "call", "method": "GetServerInformation"})
        return ("vaultmail-test-server", "VaultMail", "1.0", "1.2")

    @dbus.service.method(IFACE, in_signature="susssasa{sv}i", out_signature="u",
                         async_callbacks=("reply", "error"))
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout, reply, error):
        arrived = time.monotonic()
        if replaces_id:
            notification_id = int(replaces_id)
        else:
            notification_id = self.next_id
            self.next_id += 1
        emit({"event": "call", "method": "Notify", "id": notification_id, "app_name": str(app_name),
              "replaces_id": int(replaces_id), "app_icon": str(app_icon), "summary": str(summary),
              "body": str(body), "actions": [str(a) for a in actions], "hints": typed(hints),
              "expire_timeout": int(expire_timeout), "at": arrived})
        if self.hang:
            self.held.append(reply)  # never answered: a hung server
        else:
            reply(dbus.UInt32(notification_id))

    @dbus.service.method(IFACE, in_signature="u", out_signature="")
    def CloseNotification(self, notification_id):
        emit({"event": "call", "method": "CloseNotification", "id": int(notification_id)})
        self.NotificationClosed(notification_id, dbus.UInt32(3))

    @dbus.service.signal(IFACE, signature="us")
    def ActionInvoked(self, notification_id, action_key):
        pass

    @dbus.service.signal(IFACE, signature="uu")
    def NotificationClosed(self, notification_id, reason):
        pass

    @dbus.service.signal(IFACE, signature="us")
    def NotificationReplied(self, notification_id, text):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--capabilities", default="actions,body,body-markup,inline-reply,persistence")
    parser.add_argument("--hang", action="store_true", help="never answer Notify")
    options = parser.parse_args()
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    capabilities = [c for c in options.capabilities.split(",") if c]
    server = Server(bus, capabilities, options.hang)
    name = dbus.service.BusName(IFACE, bus, do_not_queue=True)
    loop = GLib.MainLoop()

    def on_update(app_uri, properties):
        emit({"event": "launcher-update", "app_uri": str(app_uri), "properties": typed(properties)})

    bus.add_signal_receiver(on_update, signal_name="Update", dbus_interface=LAUNCHER)

    def on_command(source, condition):
        line = sys.stdin.readline()
        if not line:
            loop.quit()
            return False
        command = json.loads(line)
        if "emit" in command:
            kind = command["emit"]
            notification_id = dbus.UInt32(command["id"])
            if kind == "ActionInvoked":
                server.ActionInvoked(notification_id, command["key"])
            elif kind == "NotificationReplied":
                server.NotificationReplied(notification_id, command["text"])
            elif kind == "NotificationClosed":
                server.NotificationClosed(notification_id, dbus.UInt32(command.get("reason", 2)))
        elif "query_launcher" in command:
            target = command["query_launcher"]
            proxy = bus.get_object(target["destination"], target["path"], introspect=False)
            app_uri, properties = proxy.Query(dbus_interface=LAUNCHER, signature="")
            emit({"event": "query-reply", "types": [type(app_uri).__name__, type(properties).__name__],
                  "app_uri": str(app_uri), "properties": typed(properties)})
        emit({"event": "done", "command": command})
        return True

    GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, on_command)
    emit({"event": "ready", "unique_name": bus.get_unique_name()})
    loop.run()


if __name__ == "__main__":
    main()
