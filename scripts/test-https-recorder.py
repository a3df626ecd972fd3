#!/usr/bin/env python3
"""A recording HTTPS server for VaultMail's one-click unsubscribe tests (issue 33).

Listens on 127.0.0.1 (port 0: the kernel picks one) with the given certificate, reads each
request exactly as it arrived (request line, headers in order, the body by Content-Length),
prints it as one JSON line ({"event": "request", ...}), and answers the status configured for
its path (--status PATH=CODE[:LOCATION]; 200 otherwise). Prints {"event": "ready", "port": N}
once listening. Standard library only; one thread per connection.
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


def serve(connection, context, statuses):
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
        path = request["target"].split("?", 1)[0]
        status, location = statuses.get(path, (200, None))
        reason = {200: "OK", 202: "Accepted", 302: "Found", 303: "See Other", 404: "Not Found", 500: "Server Error"}.get(status, "Status")
        body = b"done\n"
        response = "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n" % (status, reason, len(body))
        if location:
            response += "Location: %s\r\n" % location
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
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--status", action="append", default=[])
    arguments = parser.parse_args()
    statuses = {}
    for item in arguments.status:
        path, _, rest = item.partition("=")
        code, _, location = rest.partition(":")
        statuses[path] = (int(code), location or None)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(arguments.cert, arguments.key)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    emit({"event": "ready", "port": listener.getsockname()[1]})
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection, context, statuses), daemon=True).start()


if __name__ == "__main__":
    main()
