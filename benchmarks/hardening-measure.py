"""Issue 32's floods against the sbemu-server jar, whole-process: the heap after GC (jcmd GC.run, GC.heap_info) held by
N unauthenticated AMQP connections (header and open, no token), whether one more is refused, and how long /health
stays unanswered while four clients hold incomplete HTTP heads.

    java -Xmx512m -jar server/target/sbemu-server-0.1.0-SNAPSHOT.jar --amqp-port 0 --http-port 0 &
    python3 benchmarks/hardening-measure.py <pid> <amqp port> <http port> 500
"""
import socket, struct, subprocess, sys, time, re, urllib.request

AMQP = b"AMQP\x00\x01\x00\x00"
body = bytes([0x00, 0x53, 0x10, 0xc0, 0x04, 0x01, 0xa1, 0x01, 0x78])
OPEN = struct.pack(">IBBH", 8 + len(body), 2, 0, 0) + body

def heap(pid):
    subprocess.run(["jcmd", str(pid), "GC.run"], capture_output=True)
    subprocess.run(["jcmd", str(pid), "GC.run"], capture_output=True)
    out = subprocess.run(["jcmd", str(pid), "GC.heap_info"], capture_output=True, text=True).stdout
    m = re.search(r"used (\d+)K", out)
    return int(m.group(1))

def opened(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(AMQP + OPEN)
    s.settimeout(30)
    data = b""
    while len(data) < 8 + 8:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    return s, data

def main():
    pid, amqp, http, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    base = heap(pid)
    socks = []
    for i in range(n):
        s, d = opened(amqp)
        socks.append(s)
    time.sleep(1)
    full = heap(pid)
    print(f"unauthenticated connections: {n}; heap after GC {base} KB -> {full} KB: {(full - base) / n:.1f} KB each")
    s, d = opened(amqp)
    time.sleep(0.5)
    try:
        d += s.recv(65536)
    except Exception:
        pass
    print("one more:", "refused (resource-limit-exceeded)" if b"resource-limit-exceeded" in d else "admitted", len(d), "bytes")
    s.close()
    for s in socks:
        s.close()
    # slow HTTP: four clients (the HTTP server's four workers) trickle a head, and /health is asked beside them
    slow = []
    for i in range(4):
        c = socket.create_connection(("127.0.0.1", http))
        c.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
        slow.append(c)
    times = []
    for i in range(5):
        for c in slow:
            c.sendall(b"X-More: 1\r\n")  # one more header line each round, never the end of the head
        t = time.monotonic()
        r = urllib.request.urlopen(f"http://127.0.0.1:{http}/health", timeout=60)
        times.append((time.monotonic() - t) * 1000)
        r.read()
    print(f"/health under 4 slow clients: {r.status}, unanswered for at most {max(times):.0f} ms "
          f"(5 requests: {', '.join(f'{x:.0f}' for x in times)} ms)")
    for c in slow:
        c.close()

main()
