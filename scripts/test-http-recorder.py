#!/usr/bin/env python3
"""A recording HTTP(S) server for VaultMail's tests: one-click unsubscribe (issue 33) and the
daemon's image proxy (issue 30).

Listens on 127.0.0.1 or --host (port 0: the kernel picks one) with the given certificate (or plain HTTP
with --plain), reads each request exactly as it arrived (request line, headers in order, the
body by Content-Length), prints it as one JSON line ({"event": "request", ...}), and answers:
the status configured for its path (--status PATH=CODE[:LOCATION]), else the file configured for
it (--file PATH=FILE:CONTENT-TYPE, with a cookie set, as trackers do: a client that sends it
back keeps cookies), else 200 with a short text (404 with --plain, where only files exist). A request in absolute form ("GET http://host:port/path", as to an HTTP proxy) is
answered by its path, so the server can stand in for every remote host through http_proxy.
Prints {"event": "ready", "port": N} once listening. Standard library only; one thread per
connection.
"""
import argparse
import base64
import json
import socket
import ssl
import sys
import threading


def emit(event):
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def read_request(stream):
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = stream.recv(1)
        if not chunk:
            return None
        head += chunk
        if len(head) > 65536:
            return None
    lines = head[:-4].decode("latin-1").split("\r\n")
    method, target, version = (lines[0].split(" ", 2) + ["", ""])[:3]
    headers = []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.append([name, value.strip()])
    length = 0
    for name, value in headers:
        if name.lower() == "content-length":
            length = int(value)
    body = b""
    while len(body) < length:
        chunk = stream.recv(length - len(body))
        if not chunk:
            break
        body += chunk
    return {"event": "request", "method": method, "target": target, "version": version, "headers": headers,
            "body": base64.b64encode(body).decode("ascii")}


def serve(connection, context, statuses, files):
    if context is None:
        stream = connection
    else:
        try:
            stream = context.wrap_socket(connection, server_side=True)
        except (ssl.SSLError, OSError) as error:
            emit({"event": "tls-failed", "reason": str(error)})
            connection.close()
            return
    try:
        request = read_request(stream)
        if request is None:
            return
        emit(request)
        target = request["target"]
        if "://" in target:
            target = "/" + target.split("://", 1)[1].partition("/")[2]
        path = target.split("?", 1)[0]
        content_type, body = "text/plain", b"done\n"
        if path in statuses:
            status, location = statuses[path]
        elif path in files:
            (status, location), (content_type, body) = (200, None), files[path]
        else:
            status, location = (404 if context is None else 200), None
        reason = {200: "OK", 202: "Accepted", 302: "Found", 303: "See Other", 404: "Not Found", 500: "Server Error"}.get(status, "Status")
        response = "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n" % (status, reason, content_type, len(body))
        if location:
            response += "Location: %s\r\n" % location
        if path in files:
            response += "Set-Cookie: visitor=recorded-%s; Path=/; Max-Age=3600\r\n" % path.strip("/").replace("/", "-")
        stream.sendall(response.encode("ascii") + b"\r\n" + body)
    except (ssl.SSLError, OSError):
        pass
    finally:
        try:
            stream.close()
        except OSError:
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--plain", action="store_true")
    parser.add_argument("--host", default="127.0.0.1", help="the local address to listen on")
    parser.add_argument("--status", action="append", default=[])
    parser.add_argument("--file", action="append", default=[])
    arguments = parser.parse_args()
    statuses = {}
    for item in arguments.status:
        path, _, rest = item.partition("=")
        code, _, location = rest.partition(":")
        statuses[path] = (int(code), location or None)
    files = {}
    for item in arguments.file:
        path, _, rest = item.partition("=")
        name, _, content_type = rest.rpartition(":")
        with open(name, "rb") as file:
            files[path] = (content_type, file.read())
    if arguments.plain:
        context = None
    else:
        if not arguments.cert or not arguments.key:
            parser.error("--cert and --key are needed without --plain")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(arguments.cert, arguments.key)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((arguments.host, 0))
    listener.listen(16)
    emit({"event": "ready", "port": listener.getsockname()[1]})
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection, context, statuses, files), daemon=True).start()


if __name__ == "__main__":
    main()
