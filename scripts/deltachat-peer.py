#!/usr/bin/env python3
"""A Delta Chat account driven by VaultMail's tests (issue 32, docs/crypto.md).

Runs PyPI's deltachat-rpc-server through deltachat-rpc-client (both unpacked into
.build/deltachat by scripts/install-deltachat.sh) and answers one JSON command per line on
standard input with one JSON line on standard output:

  {"cmd": "configure", "addr": ..., "imapHost": ..., "imapPort": ..., "imapUser": ...,
   "smtpHost": ..., "smtpPort": ..., "smtpUser": ...}
      passwords come from the environment (DC_IMAP_PASSWORD, DC_SMTP_PASSWORD), never a
      command line; both servers over implicit TLS, the test's certificate accepted.
  {"cmd": "send", "to": ADDRESS, "text": ..., "vcard": ...}
                                                      a new chat with ADDRESS (its key from the
                                                      vCard, when given), one message
  {"cmd": "wait", "timeout": SECONDS}                 the next message from someone else
  {"cmd": "reply", "chatId": N, "text": ...}          a message in that chat (accepted first)
  {"cmd": "setup_message"}                            Autocrypt Setup Message (old cores only)
  {"cmd": "export_keys", "dir": PATH}                 the account's keys, as armored files
  {"cmd": "quit"}

A failure is answered {"error": "..."}; the driver goes on.
"""
import json
import os
import queue
import sys
import threading
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("DELTACHAT_PYTHONPATH", os.path.join(here, "..", ".build", "deltachat")))

from deltachat_rpc_client import DeltaChat, EventType, Rpc  # noqa: E402


def log(*parts):
    print("deltachat-peer:", *parts, file=sys.stderr, flush=True)


def main():
    server = os.environ.get("DELTACHAT_RPC_SERVER",
                            os.path.join(here, "..", ".build", "deltachat", "deltachat_rpc_server", "deltachat-rpc-server"))
    accounts_dir = os.environ["DC_ACCOUNTS_DIR"]
    with Rpc(accounts_dir=accounts_dir, rpc_server_path=server) as rpc:
        dc = DeltaChat(rpc)
        account = dc.add_account()
        incoming = queue.Queue()
        seen = set()

        # Every event of the account is read here; messages from others go to `incoming`.
        def pump():
            while True:
                try:
                    event = account.wait_for_event()
                except Exception as err:  # the server went away
                    log("event loop ended:", err)
                    return
                kind = event.get("kind")
                if kind in (EventType.WARNING, EventType.ERROR):
                    log(kind, event.get("msg"))
                if kind in (EventType.INCOMING_MSG, EventType.MSGS_CHANGED) and event.get("msg_id"):
                    msg_id = event["msg_id"]
                    if msg_id in seen:
                        continue
                    try:
                        snap = account.get_message_by_id(msg_id).get_snapshot()
                    except Exception:
                        continue
                    if snap.from_id <= 9 or snap.is_info:  # 1 to 9: the account itself, the device, info lines
                        continue
                    seen.add(msg_id)
                    incoming.put(snap)

        threading.Thread(target=pump, daemon=True).start()

        def reply(value):
            sys.stdout.write(json.dumps(value) + "\n")
            sys.stdout.flush()

        for line in sys.stdin:
            if not line.strip():
                continue
            command = json.loads(line)
            cmd = command.get("cmd")
            try:
                if cmd == "configure":
                    account.set_config("displayname", command.get("name", "Delta"))
                    account.set_config("mdns_enabled", "0")  # no read receipts: only the messages the test sends
                    try:
                        account.set_config("mvbox_move", "0")  # leave mail in the inbox, where the test's VaultMail looks
                    except Exception as err:
                        log("mvbox_move:", err)
                    account.add_or_update_transport({
                        "addr": command["addr"],
                        "password": os.environ["DC_IMAP_PASSWORD"],
                        "imapServer": command["imapHost"], "imapPort": int(command["imapPort"]),
                        "imapSecurity": "ssl", "imapUser": command["imapUser"],
                        "smtpServer": command["smtpHost"], "smtpPort": int(command["smtpPort"]),
                        "smtpSecurity": "ssl", "smtpUser": command["smtpUser"],
                        "smtpPassword": os.environ["DC_SMTP_PASSWORD"],
                        "certificateChecks": "acceptInvalidCertificates",
                    })
                    account.start_io()
                    reply({"ok": True, "version": rpc.get_system_info().get("deltachat_core_version")})
                elif cmd == "send":
                    if command.get("vcard"):
                        # The contact with their key, as Delta Chat shares contacts (a vCard with KEY).
                        contact = account.import_vcard(command["vcard"])[0]
                    else:
                        contact = account.create_contact(command["to"])
                    chat = contact.create_chat()
                    try:
                        msg = chat.send_text(command["text"])
                    except Exception as err:
                        log("send failed:", err,
                            "contact", dict(contact.get_snapshot()), "chat", dict(chat.get_basic_snapshot()))
                        raise
                    reply({"chatId": chat.id, "msgId": msg.id})
                elif cmd == "wait":
                    snap = incoming.get(timeout=float(command.get("timeout", 120)))
                    reply({"chatId": snap.chat_id, "msgId": snap.id, "text": snap.text, "showPadlock": bool(snap.show_padlock),
                           "subject": snap.get("subject"), "error": None if not snap.get("error") else snap.get("error")})
                elif cmd == "reply":
                    chat = account.get_chat_by_id(int(command["chatId"]))
                    chat.accept()
                    msg = chat.send_text(command["text"])
                    reply({"chatId": chat.id, "msgId": msg.id})
                elif cmd == "setup_message":
                    code = rpc.initiate_autocrypt_key_transfer(account.id)
                    reply({"code": code})
                elif cmd == "export_keys":
                    os.makedirs(command["dir"], exist_ok=True)
                    account.export_self_keys(command["dir"])
                    reply({"files": sorted(os.listdir(command["dir"]))})
                elif cmd == "quit":
                    reply({"ok": True})
                    break
                else:
                    reply({"error": "unknown command %r" % cmd})
            except queue.Empty:
                reply({"error": "no message came within the time"})
            except Exception as err:  # said to the test, which fails with it
                reply({"error": "%s: %s" % (type(err).__name__, err)})
        try:
            account.stop_io()
        except Exception:
            pass


if __name__ == "__main__":
    main()
