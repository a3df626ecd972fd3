#!/usr/bin/python3
"""A real SMTP server (Debian's python3-aiosmtpd) for VaultMail's tests, on 127.0.0.1 (and any --also-listen address).

Two listeners: one plain (EHLO, STARTTLS, then AUTH) and one with implicit TLS. AUTH PLAIN and
LOGIN check one user whose password comes from the environment (VAULTMAIL_SMTP_PASSWORD, never
the command line); XOAUTH2 and OAUTHBEARER check the token in VAULTMAIL_SMTP_TOKEN (or, with
--introspection-url, ask that RFC 7662 endpoint whether the token is active for the user) and
refuse like Gmail (334 with a JSON reason, then 535). --exclude-auth M leaves a mechanism out. Every message is stored byte for byte as it arrived
(dot-stuffing undone, the final CRLF.CRLF removed) in --out, one file each.

Everything that happens is one JSON object per line on stdout:
  {"event": "ready", "port": P, "tls_port": T}
  {"event": "connect", "listener": "plain" | "tls"}
  {"event": "command", "listener": ..., "verb": "EHLO"}   (the verb only: arguments may hold credentials)
  {"event": "auth", "mechanism": "PLAIN", "login": "ada", "success": true}
  {"event": "message", "mail_from": ..., "rcpt_tos": [...], "path": ..., "size": N}
  {"event": "refused", "reply": "554 ...", "subject": ...}   (a message refused by data_reply)
  {"event": "done"}                                        (after each command read on stdin)
Commands on stdin, one JSON object per line:
  {"set": "data_reply", "value": "451 4.3.0 Try again later"}   (null: accept again)
  {"set": "data_reply", "value": "hang-up"}   (keep the message, then close the connection
                                               before replying: the client cannot know its fate)
  {"set": "reject_rcpt", "value": ["nobody@example.com"]}
"""

import argparse
import asyncio
import base64
import email.parser
import email.policy
import json
import os
import ssl
import sys
import urllib.parse
import urllib.request

from aiosmtpd.smtp import SMTP, AuthResult

settings = {"data_reply": None, "reject_rcpt": []}
counter = {"messages": 0}


def emit(event):
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


class RecordingSMTP(SMTP):
    """Reports connections and command verbs."""

    def __init__(self, handler, listener, **kwargs):
        super().__init__(handler, **kwargs)
        self.listener = listener
        for verb, method in list(self._smtp_methods.items()):
            self._smtp_methods[verb] = self._recorded(verb, method)

    def _recorded(self, verb, method):
        async def recorded(arg):
            emit({"event": "command", "listener": self.listener, "verb": verb})
            return await method(arg)
        recorded.__doc__ = method.__doc__
        return recorded

    def connection_made(self, transport):
        if self._original_transport is None:  # not the STARTTLS re-entry
            emit({"event": "connect", "listener": self.listener})
        super().connection_made(transport)


class Handler:
    def __init__(self, out_dir, user, password, token, introspection_url=None):
        self.out_dir = out_dir
        self.user = user
        self.password = password
        self.token = token
        self.introspection_url = introspection_url

    def token_is_valid(self, login, auth):
        if not auth.startswith("Bearer "):
            return False
        if self.introspection_url is None:
            return self.token is not None and login == self.user and auth == "Bearer " + self.token
        data = urllib.parse.urlencode({"token": auth[len("Bearer "):]}).encode()
        try:
            with urllib.request.urlopen(self.introspection_url, data=data, timeout=10) as reply:
                answer = json.load(reply)
        except Exception:
            return False
        return answer.get("active") is True and answer.get("username") == login

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        login = auth_data.login.decode("utf-8", "replace")
        success = (self.user is not None and login == self.user
                   and auth_data.password.decode("utf-8", "replace") == self.password)
        emit({"event": "auth", "mechanism": mechanism, "login": login, "success": success})
        return AuthResult(success=success, handled=False)

    async def auth_XOAUTH2(self, server, args):
        if (self.token is None and self.introspection_url is None) or len(args) != 2:
            return AuthResult(success=False, handled=False, message="504 5.5.4 Unrecognized authentication type")
        try:
            decoded = base64.b64decode(args[1], validate=True).decode("utf-8")
            fields = dict(part.split("=", 1) for part in decoded.split("\x01") if "=" in part)
        except Exception:
            await server.push("501 5.5.2 Cannot decode the response")
            return AuthResult(success=False, handled=True)
        login = fields.get("user", "")
        success = await asyncio.get_running_loop().run_in_executor(None, self.token_is_valid, login, fields.get("auth", ""))
        emit({"event": "auth", "mechanism": "XOAUTH2", "login": login, "success": success})
        if success:
            return AuthResult(success=True, auth_data=login)
        reason = json.dumps({"status": "401", "schemes": "Bearer", "scope": "https://mail.google.com/"})
        await server.challenge_auth(reason.encode())
        return AuthResult(success=False, handled=False,
                          message="535 5.7.8 Username and Password not accepted")

    async def auth_OAUTHBEARER(self, server, args):
        if (self.token is None and self.introspection_url is None) or len(args) != 2:
            return AuthResult(success=False, handled=False, message="504 5.5.4 Unrecognized authentication type")
        try:
            decoded = base64.b64decode(args[1], validate=True).decode("utf-8")
            header, _, rest = decoded.partition("\x01")
            login = next((part[2:] for part in header.split(",") if part.startswith("a=")), "")
            fields = dict(part.split("=", 1) for part in rest.split("\x01") if "=" in part)
        except Exception:
            await server.push("501 5.5.2 Cannot decode the response")
            return AuthResult(success=False, handled=True)
        success = await asyncio.get_running_loop().run_in_executor(None, self.token_is_valid, login, fields.get("auth", ""))
        emit({"event": "auth", "mechanism": "OAUTHBEARER", "login": login, "success": success})
        if success:
            return AuthResult(success=True, auth_data=login)
        reason = json.dumps({"status": "invalid_token", "schemes": "bearer", "scope": "mail"})
        await server.challenge_auth(reason.encode())
        return AuthResult(success=False, handled=False, message="535 5.7.8 Authentication credentials invalid")

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in settings["reject_rcpt"]:
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown" % address
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        if settings["data_reply"] and settings["data_reply"] != "hang-up":
            parsed = email.parser.BytesHeaderParser(policy=email.policy.default).parsebytes(envelope.original_content)
            emit({"event": "refused", "reply": settings["data_reply"], "subject": str(parsed.get("Subject", ""))})
            return settings["data_reply"]
        counter["messages"] += 1
        # The process id keeps the files of a restarted server (which counts from 1 again) apart.
        path = os.path.join(self.out_dir, "%d-%06d.eml" % (os.getpid(), counter["messages"]))
        with open(path, "wb") as handle:
            handle.write(envelope.original_content)
        emit({"event": "message", "mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
              "path": path, "size": len(envelope.original_content)})
        if settings["data_reply"] == "hang-up":
            server.transport.abort()
            return "250 2.0.0 OK"
        return "250 2.0.0 OK queued as %d" % counter["messages"]


async def read_commands():
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = await reader.readline()
        if not line:
            return
        command = json.loads(line)
        if "set" in command:
            settings[command["set"]] = command.get("value")
        emit({"event": "done"})


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls-port", type=int, default=0)
    parser.add_argument("--user")
    parser.add_argument("--introspection-url")
    parser.add_argument("--exclude-auth", action="append", default=[])
    parser.add_argument("--also-listen", action="append", default=[], help="a further local address to listen on (same ports)")
    args = parser.parse_args()

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(args.cert, args.key)
    handler = Handler(args.out, args.user, os.environ.get("VAULTMAIL_SMTP_PASSWORD"),
                      os.environ.get("VAULTMAIL_SMTP_TOKEN"), args.introspection_url)
    common = dict(hostname="smtp.test", authenticator=handler.authenticate, data_size_limit=64 * 1024 * 1024,
                  timeout=120, auth_exclude_mechanism=args.exclude_auth)
    loop = asyncio.get_running_loop()
    plain = await loop.create_server(
        lambda: RecordingSMTP(handler, "plain", tls_context=context, auth_require_tls=True, **common),
        host=["127.0.0.1"] + args.also_listen, port=args.port, reuse_address=True)
    # Implicit TLS: the connection is encrypted from the start, so AUTH needs no STARTTLS.
    implicit = await loop.create_server(
        lambda: RecordingSMTP(handler, "tls", auth_require_tls=False, **common),
        host=["127.0.0.1"] + args.also_listen, port=args.tls_port, ssl=context, reuse_address=True)
    emit({"event": "ready", "port": plain.sockets[0].getsockname()[1],
          "tls_port": implicit.sockets[0].getsockname()[1]})
    await read_commands()
    await asyncio.Event().wait()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
