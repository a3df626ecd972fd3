#!/usr/bin/env python3
"""Export a public-inbox v2 epoch git repo (one message per commit, file 'm') to an mboxrd file.
usage: pi2mbox.py GITDIR OUT.mbox [MAX]   (newest first unless --oldest)"""
import subprocess, sys, re
gitdir, out = sys.argv[1], sys.argv[2]
mx = int(sys.argv[3]) if len(sys.argv) > 3 else 0
revs = subprocess.run(['git', '-C', gitdir, 'rev-list', 'HEAD'], capture_output=True, text=True, check=True).stdout.split()
if mx: revs = revs[:mx]
p = subprocess.Popen(['git', '-C', gitdir, 'cat-file', '--batch'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
import threading
def _feed():
    p.stdin.write(''.join(r + ':m\n' for r in revs).encode()); p.stdin.close()
threading.Thread(target=_feed, daemon=True).start()
n = miss = 0
with open(out, 'wb') as f:
    while True:
        line = p.stdout.readline()
        if not line: break
        parts = line.split()
        if parts[-1] == b'missing': miss += 1; continue
        size = int(parts[2]); data = p.stdout.read(size); p.stdout.read(1)
        data = data.replace(b'\r\n', b'\n')
        body = re.sub(rb'(?m)^(>*From )', rb'>\1', data)
        f.write(b'From mboxrd@z Thu Jan  1 00:00:00 1970\n' + body + (b'' if body.endswith(b'\n') else b'\n') + b'\n')
        n += 1
print(out, 'messages', n, 'missing', miss)
