#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# A remote shell for two guests that have no ssh: Open MPI's launcher
# (mpirun --mca plm_rsh_agent) and tests/guest/multi.sh run commands in the
# other guest with it.  Both guests run it from the shared root:
#
#   multi-rsh.py serve ADDR     listen on ADDR:$FSLOAD_RSH_PORT (the guests'
#                               private link, never the host), run each
#                               command it is sent until it is sent "quit"
#   multi-rsh.py HOST WORD...   run WORD... (joined by blanks, as ssh does)
#                               by sh -c in HOST's guest: its stdout and
#                               stderr here, its exit status ours (255: the
#                               connection failed, as ssh)
#
# A connection starts with $FSLOAD_RSH_TOKEN (a secret the host gave both
# guests), then the command; the server answers with frames: one byte (o
# stdout, e stderr, x exit status), 4 bytes of length, the data.  When the
# client goes (mpirun ends its launcher, the client is killed), the
# server kills the command's process group: nothing is left running.
# Leading options (ssh's -x, -T ...) are ignored.

import os
import signal
import socket
import struct
import subprocess
import sys
import threading

PORT = int(os.environ.get("FSLOAD_RSH_PORT", "7310"))
TOKEN = os.environ.get("FSLOAD_RSH_TOKEN", "").encode()


def send_frame(sock, lock, kind, data):
    with lock:
        sock.sendall(kind + struct.pack("!I", len(data)) + data)


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def serve_one(conn, stop):
    lock = threading.Lock()
    f = conn.makefile("rb")
    token = f.readline().rstrip(b"\n")
    if not TOKEN or token != TOKEN:
        conn.close()
        return
    length = int(f.readline())
    cmd = f.read(length).decode()
    if cmd == "quit":
        send_frame(conn, lock, b"x", b"0")
        conn.close()
        stop.set()
        return
    proc = subprocess.Popen(["/bin/sh", "-c", cmd], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)

    def pump(pipe, kind):
        try:
            for chunk in iter(lambda: os.read(pipe.fileno(), 65536), b""):
                send_frame(conn, lock, kind, chunk)
        except OSError:
            pass

    def watch():
        # The client sends nothing more: EOF or an error means it is gone.
        try:
            conn.recv(1)
        except OSError:
            pass
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    pumps = [threading.Thread(target=pump, args=(proc.stdout, b"o")),
             threading.Thread(target=pump, args=(proc.stderr, b"e"))]
    for t in pumps:
        t.start()
    threading.Thread(target=watch, daemon=True).start()
    rc = proc.wait()
    for t in pumps:
        t.join()
    try:
        send_frame(conn, lock, b"x", str(rc if rc >= 0 else 128 - rc).encode())
        conn.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    conn.close()


def serve(addr):
    stop = threading.Event()
    srv = socket.create_server((addr, PORT), reuse_port=False)
    srv.settimeout(0.5)
    print("multi-rsh: listening on %s:%d" % (addr, PORT), flush=True)
    while not stop.is_set():
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            continue
        conn.settimeout(None)
        threading.Thread(target=serve_one, args=(conn, stop),
                         daemon=True).start()
    srv.close()
    return 0


def client(host, words):
    cmd = " ".join(words).encode()
    try:
        sock = socket.create_connection((host, PORT), timeout=10)
        sock.settimeout(None)
        sock.sendall(TOKEN + b"\n" + str(len(cmd)).encode() + b"\n" + cmd)
    except OSError as e:
        print("multi-rsh: %s:%d: %s" % (host, PORT, e), file=sys.stderr)
        return 255
    # Ended by a signal (mpirun stops its launchers so): the socket
    # closes with us, and the server kills the command.
    for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(s, lambda *_: os._exit(255))
    out = {b"o": sys.stdout.buffer, b"e": sys.stderr.buffer}
    while True:
        head = recv_exact(sock, 5)
        if head is None:
            print("multi-rsh: %s: connection closed" % host, file=sys.stderr)
            return 255
        kind, length = head[:1], struct.unpack("!I", head[1:])[0]
        data = recv_exact(sock, length) if length else b""
        if data is None:
            return 255
        if kind == b"x":
            return int(data)
        out[kind].write(data)
        out[kind].flush()


def main(argv):
    if len(argv) == 3 and argv[1] == "serve":
        return serve(argv[2])
    args = argv[1:]
    while args and args[0].startswith("-"):
        args.pop(0)
    if len(args) < 2:
        print("usage: multi-rsh.py serve ADDR | multi-rsh.py HOST WORD...",
              file=sys.stderr)
        return 2
    return client(args[0], args[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
