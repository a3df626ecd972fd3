#!/usr/bin/python3
"""A small OAuth2 authorization server (Python 3 standard library only) for VaultMail's tests,
on 127.0.0.1 only: a provider of our own, so no test reaches the internet.

  GET  /authorize   consent given at once: 302 to redirect_uri?code=…&state=… (PKCE S256 required)
  POST /token       grant_type=authorization_code (code, redirect_uri, client_id, code_verifier
                    checked against the challenge, client_secret when one is set) or refresh_token
  POST /revoke      RFC 7009: a refresh token (and the access tokens it gave) or an access token
  POST /introspect  RFC 7662: {"active": true, "username": …, "scope": …, "exp": …} or {"active": false}
                    (Dovecot's oauth2 passdb and the SMTP test server ask it)

The client secret comes from the environment (VAULTMAIL_OAUTH_CLIENT_SECRET), never the command
line. Events are JSON lines on stdout and never carry a token, code or verifier:
  {"event": "ready", "port": P}
  {"event": "authorize", "client_id": …, "user": …, "login_hint": …, "ok": true}
  {"event": "token", "grant_type": …, "ok": false, "error": "invalid_grant", "reason": …}
  {"event": "introspect", "active": true, "user": …}
  {"event": "revoke", "ok": true}
  {"event": "done"} after each command read on stdin, one JSON object a line:
  {"set": "access_lifetime", "value": 2}     seconds the next access tokens live
  {"set": "rotate", "value": true}           a refresh gives a new refresh token (Microsoft)
  {"set": "deny", "value": true}             the consent redirects with error=access_denied
  {"set": "wrong_state", "value": true}      the consent redirects with another state
  {"set": "token_status", "value": 503}      the token endpoint answers that status, as a provider
                                             that is down (null: it works again)
  {"expire_access": true}                    every access token issued so far expires now
  {"revoke_user": "ada"}                     every token of the user is revoked (a password change)
  {"secrets": true}                          emits {"event": "secrets", "tokens": [...]} (tests prove none leaked)
"""

import argparse
import base64
import hashlib
import json
import os
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

lock = threading.Lock()
settings = {"access_lifetime": 3600, "rotate": False, "deny": False, "wrong_state": False, "token_status": None}
codes = {}      # code -> {client_id, redirect_uri, challenge, user, scope}
refresh = {}    # refresh token -> {client_id, user, scope, revoked}
access = {}     # access token -> {user, scope, exp, refresh, client_id}
config = {}


def emit(event):
    with lock:
        sys.stdout.write(json.dumps(event) + "\n")
        sys.stdout.flush()


def s256(verifier):
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def issue_access(user, scope, refresh_token, client_id):
    token = "at-" + secrets.token_urlsafe(24)
    access[token] = {"user": user, "scope": scope, "exp": time.time() + settings["access_lifetime"],
                     "refresh": refresh_token, "client_id": client_id}
    return token


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass  # the request line holds codes: never printed

    def reply(self, status, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def form(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode("utf-8", "replace")
        return {name: values[0] for name, values in parse_qs(raw, keep_blank_values=True).items()}

    def do_GET(self):
        url = urlparse(self.path)
        if url.path != "/authorize":
            return self.reply(404, {"error": "not_found"})
        query = {name: values[0] for name, values in parse_qs(url.query, keep_blank_values=True).items()}
        redirect = query.get("redirect_uri", "")
        target = urlparse(redirect)
        problem = None
        if query.get("client_id") != config["client_id"]:
            problem = "unknown client_id"
        elif target.scheme != "http" or target.hostname not in ("127.0.0.1", "::1", "localhost"):
            problem = "redirect_uri must be a loopback address"
        elif query.get("response_type") != "code":
            problem = "response_type must be code"
        elif query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            problem = "PKCE S256 is required"
        if problem:
            emit({"event": "authorize", "ok": False, "reason": problem})
            return self.reply(400, {"error": "invalid_request", "error_description": problem})
        user = config["user"]  # the one user of this provider; login_hint is only reported
        state = query.get("state", "")
        if settings["wrong_state"]:
            state = "not-" + state
        if settings["deny"]:
            params = {"error": "access_denied", "error_description": "The user said no", "state": state}
        else:
            code = "code-" + secrets.token_urlsafe(16)
            codes[code] = {"client_id": query["client_id"], "redirect_uri": redirect, "challenge": query["code_challenge"],
                           "user": user, "scope": query.get("scope", "")}
            params = {"code": code, "state": state}
        emit({"event": "authorize", "ok": True, "client_id": query["client_id"], "user": user,
              "login_hint": query.get("login_hint"), "scope": query.get("scope", "")})
        self.reply(302, headers={"Location": redirect + ("&" if "?" in redirect else "?") + urlencode(params)})

    def do_POST(self):
        path = urlparse(self.path).path
        form = self.form()
        if path == "/token":
            return self.token(form)
        if path == "/revoke":
            token = form.get("token", "")
            with lock:
                if token in refresh:
                    refresh[token]["revoked"] = True
                    for record in access.values():
                        if record["refresh"] == token:
                            record["exp"] = 0
                elif token in access:
                    access[token]["exp"] = 0
            emit({"event": "revoke", "ok": True})
            return self.reply(200, {})
        if path == "/introspect":
            record = access.get(form.get("token", ""))
            active = record is not None and record["exp"] > time.time()
            emit({"event": "introspect", "active": active, "user": record["user"] if record else None})
            if not active:
                return self.reply(200, {"active": False})
            return self.reply(200, {"active": True, "username": record["user"], "scope": record["scope"],
                                    "exp": int(record["exp"]), "client_id": record["client_id"], "token_type": "Bearer"})
        self.reply(404, {"error": "not_found"})

    def refuse(self, grant_type, error, reason, status=400):
        emit({"event": "token", "grant_type": grant_type, "ok": False, "error": error, "reason": reason})
        self.reply(status, {"error": error, "error_description": reason})

    def token(self, form):
        grant_type = form.get("grant_type", "")
        if settings["token_status"]:
            emit({"event": "token", "grant_type": grant_type, "ok": False, "error": "status %d" % settings["token_status"]})
            body = b"Service Unavailable"
            self.send_response(settings["token_status"])
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if form.get("client_id") != config["client_id"]:
            return self.refuse(grant_type, "invalid_client", "unknown client", 401)
        if config["client_secret"] is not None and form.get("client_secret") != config["client_secret"]:
            return self.refuse(grant_type, "invalid_client", "wrong client secret", 401)
        if grant_type == "authorization_code":
            grant = codes.pop(form.get("code", ""), None)
            if grant is None:
                return self.refuse(grant_type, "invalid_grant", "unknown or used code")
            if grant["redirect_uri"] != form.get("redirect_uri"):
                return self.refuse(grant_type, "invalid_grant", "redirect_uri does not match")
            if s256(form.get("code_verifier", "")) != grant["challenge"]:
                return self.refuse(grant_type, "invalid_grant", "PKCE verification failed")
            refresh_token = "rt-" + secrets.token_urlsafe(24)
            refresh[refresh_token] = {"client_id": grant["client_id"], "user": grant["user"], "scope": grant["scope"],
                                      "revoked": False}
            token = issue_access(grant["user"], grant["scope"], refresh_token, grant["client_id"])
            emit({"event": "token", "grant_type": grant_type, "ok": True, "user": grant["user"]})
            return self.reply(200, {"access_token": token, "token_type": "Bearer", "expires_in": settings["access_lifetime"],
                                    "refresh_token": refresh_token, "scope": grant["scope"]})
        if grant_type == "refresh_token":
            old = form.get("refresh_token", "")
            record = refresh.get(old)
            if record is None or record["revoked"]:
                return self.refuse(grant_type, "invalid_grant", "Token has been expired or revoked.")
            body = {"token_type": "Bearer", "expires_in": settings["access_lifetime"], "scope": record["scope"]}
            current = old
            if settings["rotate"]:
                record["revoked"] = True
                current = "rt-" + secrets.token_urlsafe(24)
                refresh[current] = dict(record, revoked=False)
                body["refresh_token"] = current
            body["access_token"] = issue_access(record["user"], record["scope"], current, record["client_id"])
            emit({"event": "token", "grant_type": grant_type, "ok": True, "user": record["user"]})
            return self.reply(200, body)
        self.refuse(grant_type, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token")


def read_commands():
    for line in sys.stdin:
        command = json.loads(line)
        with lock:
            if "set" in command:
                settings[command["set"]] = command.get("value")
            if command.get("expire_access"):
                for record in access.values():
                    record["exp"] = 0
            if "revoke_user" in command:
                for record in refresh.values():
                    if record["user"] == command["revoke_user"]:
                        record["revoked"] = True
                for record in access.values():
                    if record["user"] == command["revoke_user"]:
                        record["exp"] = 0
            tokens = list(refresh) + list(access) if command.get("secrets") else None
        if tokens is not None:
            emit({"event": "secrets", "tokens": tokens})
        emit({"event": "done"})
    os._exit(0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--user", default="ada")
    parser.add_argument("--access-lifetime", type=int, default=3600)
    args = parser.parse_args()
    config.update(client_id=args.client_id, user=args.user,
                  client_secret=os.environ.get("VAULTMAIL_OAUTH_CLIENT_SECRET"))
    settings["access_lifetime"] = args.access_lifetime
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    threading.Thread(target=read_commands, daemon=True).start()
    emit({"event": "ready", "port": server.server_address[1]})
    server.serve_forever()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
