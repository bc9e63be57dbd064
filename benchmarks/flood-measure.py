#!/usr/bin/env python3
"""Issue 32's two token-less AMQP floods against the sbemu-server jar, whole-process: the heap after GC (jcmd GC.run
twice, then GC.heap_info) before, during and after each flood, and whether /health stays answered (a thread asks it
every 0.2 s throughout and keeps the slowest answer and any failure).

  declares  One connection without a token pipelines transaction Declares to the coordinator for --seconds, as the
            link's credit allows (RES-1: at most --max-transactions-per-connection are held, the rest rejected); it
            closes, and then --connections connections each declare past the limit at once and close.
  cbs       --parallel connections without a token each attach a $cbs link and --links coordinator links, put an
            incomplete 60,000-byte delivery on one link after another until just under --max-unauthenticated-bytes,
            and then one more (RES-7: the connection is closed with amqp:resource-limit-exceeded).

    ./mvnw -B -o -q -pl server -am package -DskipTests
    python3 benchmarks/flood-measure.py [--jar server/target/sbemu-server-*.jar] [--heap 512m] [declares] [cbs]

Standard library only; speaks AMQP 1.0 frames itself (a hostile client is not an SDK). Takes about a minute.
"""
import argparse
import glob
import os
import platform
import re
import signal
import socket
import struct
import subprocess
import threading
import time
import urllib.request

READY = "Emulator Service is Successfully Up!"
HEADER = b"AMQP\x00\x01\x00\x00"

# ---- a minimal AMQP 1.0 encoder and decoder --------------------------------------------------------------------


def uint(v):
    return b"\x43" if v == 0 else (b"\x52" + bytes([v]) if v < 256 else b"\x70" + struct.pack(">I", v))


def ulong(v):
    return b"\x44" if v == 0 else (b"\x53" + bytes([v]) if v < 256 else b"\x80" + struct.pack(">Q", v))


def string(s):
    b = s.encode()
    return (b"\xa1" + bytes([len(b)]) if len(b) < 256 else b"\xb1" + struct.pack(">I", len(b))) + b


def symbol(s):
    b = s.encode()
    return b"\xa3" + bytes([len(b)]) + b


def binary(b):
    return (b"\xa0" + bytes([len(b)]) if len(b) < 256 else b"\xb0" + struct.pack(">I", len(b))) + b


NULL, TRUE, FALSE = b"\x40", b"\x41", b"\x42"


def described(code, *fields):
    body = b"".join(fields)
    return b"\x00" + ulong(code) + b"\xd0" + struct.pack(">II", len(body) + 4, len(fields)) + body


def frame(channel, performative, payload=b""):
    return struct.pack(">IBBH", 8 + len(performative) + len(payload), 2, 0, channel) + performative + payload


OPEN = described(0x10, string("flood-measure"))
BEGIN = described(0x11, NULL, uint(0), uint(0x7FFFFFFF), uint(0x7FFFFFFF))
CLOSE = described(0x18)
COORDINATOR = described(0x30, symbol("amqp:local-transactions"))
DECLARE_MESSAGE = b"\x00\x53\x77" + b"\x00\x53\x31\x45"  # an amqp-value section holding declare()


def attach_sender(handle, name, target):
    return described(0x12, string(name), uint(handle), FALSE, NULL, NULL, described(0x28), target, NULL, NULL,
                     uint(0))


def transfer(handle, delivery_id, more):
    return described(0x14, uint(handle), uint(delivery_id), binary(struct.pack(">I", delivery_id)), uint(0), FALSE,
                     TRUE if more else FALSE)


class Described:
    def __init__(self, code, value):
        self.code, self.value = code, value


def decode(b, i):
    """The value at b[i]: (value, next index). Enough of the type system for what the server sends."""
    c = b[i]
    i += 1
    if c == 0x00:
        code, i = decode(b, i)
        value, i = decode(b, i)
        return Described(code, value), i
    fixed = {0x40: 0, 0x41: 0, 0x42: 0, 0x43: 0, 0x44: 0, 0x45: 0, 0x56: 1, 0x50: 1, 0x51: 1, 0x52: 1, 0x53: 1,
             0x54: 1, 0x55: 1, 0x60: 2, 0x61: 2, 0x70: 4, 0x71: 4, 0x72: 4, 0x73: 4, 0x80: 8, 0x81: 8, 0x82: 8,
             0x83: 8, 0x84: 8, 0x94: 16, 0x98: 16}
    if c in fixed:
        n = fixed[c]
        raw = b[i:i + n]
        if c in (0x41,):
            return True, i
        if c in (0x42, 0x40):
            return (False if c == 0x42 else None), i
        if c in (0x43, 0x44):
            return 0, i
        if c == 0x45:
            return [], i
        if c == 0x56:
            return raw[0] != 0, i + n
        return int.from_bytes(raw, "big"), i + n
    if c in (0xa0, 0xa1, 0xa3, 0xb0, 0xb1, 0xb3):
        if c < 0xb0:
            n, i = b[i], i + 1
        else:
            n, i = struct.unpack_from(">I", b, i)[0], i + 4
        raw = b[i:i + n]
        return (raw if c in (0xa0, 0xb0) else raw.decode("utf-8", "replace")), i + n
    if c in (0xc0, 0xc1, 0xd0, 0xd1):
        if c in (0xc0, 0xc1):
            size, count, i = b[i], b[i + 1], i + 2
        else:
            size, count = struct.unpack_from(">II", b, i)
            i += 8
        items = []
        for _ in range(count):
            v, i = decode(b, i)
            items.append(v)
        return items, i
    if c in (0xe0, 0xf0):  # arrays: skipped
        size = b[i] if c == 0xe0 else struct.unpack_from(">I", b, i)[0]
        return None, i + (1 if c == 0xe0 else 4) + size
    raise ValueError(f"type 0x{c:02x} at {i - 1}")


class Peer:
    """One raw AMQP connection; a thread reads its frames and keeps the counts the floods need."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.lock = threading.Condition()
        self.credit = {}  # handle -> link credit the server granted
        self.attached = 0
        self.declared = 0
        self.rejected = 0
        self.closed = None  # the close's error condition, once the server closed
        self.ended = False
        self.sent = {}  # handle -> transfers sent on it (our delivery count)
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.sock.sendall(HEADER + frame(0, OPEN) + frame(0, BEGIN))
        self.reader.start()

    def read(self):
        buf = b""
        try:
            while True:
                chunk = self.sock.recv(1 << 20)
                if not chunk:
                    break
                buf += chunk
                if buf.startswith(b"AMQP"):
                    buf = buf[8:]
                while len(buf) >= 8:
                    size, doff = struct.unpack_from(">IB", buf, 0)
                    if len(buf) < size:
                        break
                    body, buf = buf[doff * 4:size], buf[size:]
                    if body:
                        self.on(decode(body, 0)[0])
        except OSError:
            pass
        with self.lock:
            self.ended = True
            self.lock.notify_all()

    def on(self, p):
        with self.lock:
            f = p.value
            if p.code == 0x12:
                self.attached += 1
            elif p.code == 0x13 and len(f) > 6 and f[4] is not None:  # flow with a handle: the link's credit
                self.credit[f[4]] = (f[5] or 0) + (f[6] or 0) - self.sent_on(f[4])
            elif p.code == 0x15:  # disposition: declared (0x33) or rejected (0x25), for first..last
                first, last = f[1], (f[2] if len(f) > 2 and f[2] is not None else f[1])
                state = f[4] if len(f) > 4 else None
                n = last - first + 1
                if isinstance(state, Described) and state.code == 0x33:
                    self.declared += n
                elif isinstance(state, Described) and state.code == 0x25:
                    self.rejected += n
            elif p.code == 0x18:
                error = f[0] if f else None
                self.closed = error.value[0] if isinstance(error, Described) else "no error"
            self.lock.notify_all()

    def sent_on(self, handle):
        return self.sent.get(handle, 0)

    def wait(self, condition, timeout=120):
        with self.lock:
            if not self.lock.wait_for(lambda: condition(self) or self.ended, timeout):
                raise TimeoutError("the server did not answer")

    def close(self):
        try:
            self.sock.sendall(frame(0, CLOSE))
        except OSError:
            pass
        self.sock.close()


class Server:
    def __init__(self, jar, heap):
        self.process = subprocess.Popen(["java", f"-Xmx{heap}", "-jar", jar, "--amqp-port", "0", "--http-port", "0"],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in self.process.stdout:
            m = re.match(r"AMQP: [^ ]*:(\d+) ", line)
            self.amqp = int(m.group(1)) if m else getattr(self, "amqp", None)
            m = re.match(r"HTTP: http://[^ ]*:(\d+)", line)
            self.http = int(m.group(1)) if m else getattr(self, "http", None)
            if line.strip() == READY:
                break
        self.log = []
        threading.Thread(target=lambda: self.log.extend(self.process.stdout), daemon=True).start()

    def heap_mb(self):
        if self.process.poll() is not None:
            raise RuntimeError(f"the server exited with status {self.process.returncode}: " + "".join(
                l for l in self.log if "out of memory" in l))
        for _ in range(2):
            subprocess.run(["jcmd", str(self.process.pid), "GC.run"], capture_output=True)
        out = subprocess.run(["jcmd", str(self.process.pid), "GC.heap_info"], capture_output=True, text=True).stdout
        return int(re.search(r"used (\d+)K", out).group(1)) / 1024

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=30)


class Health(threading.Thread):
    """Asks /health every 0.2 s until stopped; keeps the slowest answer and the failures."""

    def __init__(self, port, process):
        super().__init__(daemon=True)
        self.process = process
        self.port, self.slowest, self.asked, self.failures, self.running = port, 0.0, 0, [], True

    def run(self):
        while self.running and self.process.poll() is None:  # once it exited, its port may be another's
            t = time.monotonic()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=30) as r:
                    r.read()
                    if r.status != 200:
                        self.failures.append(r.status)
            except Exception as e:  # noqa: BLE001 - any failure is the figure
                self.failures.append(repr(e))
            self.asked += 1
            self.slowest = max(self.slowest, time.monotonic() - t)
            time.sleep(0.2)


def declare_on(peer, handle, count_or_deadline):
    """Pipelines Declares on the coordinator link `handle` as its credit allows: `count` of them, or until a deadline
    (a float of time.monotonic())."""
    peer.sent[handle] = 0
    delivery = 0
    while True:
        if isinstance(count_or_deadline, int) and delivery >= count_or_deadline:
            break
        if isinstance(count_or_deadline, float) and time.monotonic() >= count_or_deadline:
            break
        peer.wait(lambda p: p.credit.get(handle, 0) > 0, timeout=60)
        if peer.ended:
            break
        with peer.lock:
            n = min(peer.credit[handle], 200)
            if isinstance(count_or_deadline, int):
                n = min(n, count_or_deadline - delivery)
            peer.credit[handle] -= n
            peer.sent[handle] += n
        frames = b"".join(frame(0, transfer(handle, delivery + k, False), DECLARE_MESSAGE) for k in range(n))
        peer.sock.sendall(frames)
        delivery += n
    return delivery


def attach_coordinator(peer, handle):
    peer.sock.sendall(frame(0, attach_sender(handle, f"txn-{handle}", COORDINATOR)))


def flood_declares(server, seconds, connections):
    print(f"\n== declares: one connection pipelines Declares for {seconds} s, then {connections} connections at once")
    before = server.heap_mb()
    peer = Peer(server.amqp)
    attach_coordinator(peer, 0)
    start = time.monotonic()
    sent = declare_on(peer, 0, start + seconds)
    peer.wait(lambda p: p.declared + p.rejected >= sent)
    elapsed = time.monotonic() - start
    during = server.heap_mb()
    print(f"one connection: {sent:,} Declares in {elapsed:.1f} s: {peer.declared:,} declared, {peer.rejected:,} "
          f"rejected; heap after GC {before:.1f} MB before, {during:.1f} MB with the connection open")
    peer.close()
    time.sleep(1)
    after = server.heap_mb()
    print(f"  after it closed: {after:.1f} MB")
    peers = [Peer(server.amqp) for _ in range(connections)]
    for p in peers:
        attach_coordinator(p, 0)
    threads = [threading.Thread(target=declare_on, args=(p, 0, 1500)) for p in peers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for p in peers:
        p.wait(lambda q: q.declared + q.rejected >= 1500)
    held = server.heap_mb()
    print(f"{connections} connections, 1,500 Declares each: declared {[p.declared for p in peers]}, rejected "
          f"{[p.rejected for p in peers]}; heap {held:.1f} MB while open")
    for p in peers:
        p.close()
    time.sleep(1)
    print(f"  after they closed: {server.heap_mb():.1f} MB")


def flood_cbs(server, parallel, links, limit):
    part = 60_000
    under = (limit - 1) // part  # deliveries that stay within the limit
    print(f"\n== cbs: {parallel} connections, each a $cbs link and {links - 1} coordinator links, {under} incomplete "
          f"{part:,}-byte deliveries each, then one more")
    before = server.heap_mb()
    peers = [Peer(server.amqp) for _ in range(parallel)]
    for p in peers:
        p.sock.sendall(frame(0, attach_sender(0, "cbs", described(0x29, string("$cbs")))) + b"".join(
            frame(0, attach_sender(h, f"txn-{h}", COORDINATOR)) for h in range(1, links)))
    for p in peers:  # before a token, links past 16 are refused and a flood of them closes the connection (RES-7)
        p.wait(lambda q: q.attached >= links or q.closed is not None or q.ended)
    refused = [p for p in peers if p.closed is not None or p.ended]
    if refused:
        print(f"{len(refused)} of {parallel} connections closed while attaching: {sorted({str(p.closed) for p in refused})}")
    attached = server.heap_mb()
    payload = b"\x00\x53\x75\xb0" + struct.pack(">I", 1 << 20) + b"x" * (part - 8)  # a data section announced as 1 MB
    for p in peers:
        for k in range(under):
            try:
                p.sock.sendall(frame(0, transfer(k, k, True), payload))
            except OSError:
                break  # closed by the endpoint
    time.sleep(1)
    open_now = sum(1 for p in peers if p.closed is None and not p.ended)
    held = server.heap_mb()
    print(f"heap after GC {before:.1f} MB before, {attached:.1f} MB with {parallel} x {links} links attached, "
          f"{held:.1f} MB with {under} x {part:,} bytes pending on each ({open_now} of {parallel} still open)")
    for p in peers:
        try:
            p.sock.sendall(frame(0, transfer(under, under, True), payload))
        except OSError:
            pass
    for p in peers:
        p.wait(lambda q: q.closed is not None or q.ended)
    conditions = sorted({str(p.closed) for p in peers})
    after = server.heap_mb()
    print(f"one more delivery each: {sum(1 for p in peers if p.closed is not None)} of {parallel} closed with "
          f"{conditions}; heap after GC {after:.1f} MB")
    for p in peers:
        p.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("floods", nargs="*", default=["declares", "cbs"])
    parser.add_argument("--jar", default=None)
    parser.add_argument("--heap", default="512m")
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--parallel", type=int, default=12)
    parser.add_argument("--links", type=int, default=1000)
    parser.add_argument("--max-unauthenticated-bytes", type=int, default=262144)
    args = parser.parse_args()
    jar = args.jar or [j for j in glob.glob("server/target/sbemu-server-*.jar") if "original-" not in j][0]
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {platform.machine()}, {os.cpu_count()} cores, {java}, "
          f"load average {os.getloadavg()}, java -Xmx{args.heap} -jar {jar}")
    server = Server(jar, args.heap)
    health = Health(server.http, server.process)
    health.start()
    try:
        print(f"idle server: heap after GC {server.heap_mb():.1f} MB")
        if "declares" in args.floods:
            flood_declares(server, args.seconds, args.connections)
        if "cbs" in args.floods:
            flood_cbs(server, args.parallel, args.links, args.max_unauthenticated_bytes)
    finally:
        health.running = False
        health.join()
        print(f"\n/health: asked {health.asked} times, slowest {health.slowest * 1000:.0f} ms, failures "
              f"{health.failures[:5] or 'none'}; load average {os.getloadavg()}")
        oom = [l for l in server.log if "out of memory" in l]
        print(f"server exit status after SIGTERM {server.stop()}; out-of-memory lines: {len(oom)}")


if __name__ == "__main__":
    main()
