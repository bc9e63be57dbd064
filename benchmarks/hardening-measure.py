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
    # slow HTTP: four clients trickle a head, then /health
    slow = []
    for i in range(8):
        c = socket.create_connection(("127.0.0.1", http))
        c.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
        slow.append(c)
    t = time.monotonic()
    r = urllib.request.urlopen(f"http://127.0.0.1:{http}/health", timeout=60)
    print(f"/health under 8 slow clients: {r.status} in {(time.monotonic() - t) * 1000:.0f} ms")
    for c in slow:
        c.close()

main()
