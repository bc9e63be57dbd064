#!/usr/bin/env python3
"""Per-namespace costs of one sbemu-server (issue 33), a whole process driven over HTTP.

    python3 benchmarks/server/namespaces.py [--namespaces 100] [--entities 10] [--clock running|frozen]
        [--jar server/target/sbemu-server-<v>.jar]

Starts the jar on ephemeral ports with no Config.json, then:
- create-to-usable: per namespace, POST /__admin/namespaces, then the first management request signed with the key
  name it answers (PUT of a queue) answered 201; the time from sending the POST to that 201, and the POST alone;
- memory: VmRSS and the Java heap in use after a full GC (jcmd GC.run, then GC.heap_info) idle with no namespace
  but the default, and again with N namespaces of M queues each;
- the deletion of them all (DELETE /__admin/namespaces/{name}) and the memory after it.
Keep-alive HTTP/1.1 on one connection (http.client), so connection set-up is not in the figures.
"""
import argparse
import base64
import glob
import hashlib
import hmac
import http.client
import json
import re
import signal
import statistics
import subprocess
import time
import urllib.parse

READY = "Emulator Service is Successfully Up!"
QUEUE = ('<entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml">'
         '<QueueDescription xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect"/>'
         '</content></entry>')


def token(host, key_name, key="SAS_KEY_VALUE"):
    audience = urllib.parse.quote_plus(f"http://{host}/")
    expiry = str(int(time.time()) + 3600)
    sig = base64.b64encode(hmac.new(key.encode(), f"{audience}\n{expiry}".encode(), hashlib.sha256).digest())
    return (f"SharedAccessSignature sr={audience}&sig={urllib.parse.quote_plus(sig.decode())}&se={expiry}"
            f"&skn={urllib.parse.quote_plus(key_name)}")


def rss_and_heap(pid):
    with open(f"/proc/{pid}/status") as f:
        status = f.read()
    rss = int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024
    threads = int(re.search(r"Threads:\s+(\d+)", status).group(1))
    subprocess.run(["jcmd", str(pid), "GC.run"], capture_output=True, check=True)
    info = subprocess.run(["jcmd", str(pid), "GC.heap_info"], capture_output=True, text=True, check=True).stdout
    used = re.search(r"used (\d+)K", info)
    return rss, (int(used.group(1)) / 1024 if used else float("nan")), threads


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--namespaces", type=int, default=100)
    parser.add_argument("--entities", type=int, default=10)
    parser.add_argument("--jar", default=None)
    parser.add_argument("--clock", choices=["running", "frozen"], default=None,
                        help="the namespaces' clock (default: the server's, running)")
    args = parser.parse_args()
    jar = args.jar or [j for j in glob.glob("server/target/sbemu-server-*.jar") if "original-" not in j][0]
    server = subprocess.Popen(["java", "-jar", jar, "--amqp-port", "0", "--http-port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = None
    for line in server.stdout:
        m = re.match(r"HTTP: http://[^ ]*:(\d+) ", line)
        if m:
            port = int(m.group(1))
        if READY in line:
            break
    host = f"127.0.0.1:{port}"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(method, path, body=None, headers=None):
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()

    try:
        call("GET", "/__admin/namespaces")
        time.sleep(2)
        idle = rss_and_heap(server.pid)
        post_ms, usable_ms = [], []
        for n in range(args.namespaces):
            name = f"ns-{n}"
            started = time.perf_counter()
            status, body = call("POST", "/__admin/namespaces", json.dumps({"name": name, **({"clock": args.clock} if args.clock else {})}),
                                {"Content-Type": "application/json"})
            posted = time.perf_counter()
            assert status == 201, (status, body)
            key_name = json.loads(body)["keyName"]
            for e in range(args.entities):
                status, body = call("PUT", f"/queue-{e}?api-version=2021-05", QUEUE,
                                    {"Authorization": token(host, key_name), "Content-Type": "application/atom+xml"})
                assert status == 201, (status, body)
                if e == 0:
                    usable_ms.append((time.perf_counter() - started) * 1000)
            post_ms.append((posted - started) * 1000)
        time.sleep(2)
        full = rss_and_heap(server.pid)
        started = time.perf_counter()
        for n in range(args.namespaces):
            status, _ = call("DELETE", f"/__admin/namespaces/ns-{n}")
            assert status == 200, status
        delete_ms = (time.perf_counter() - started) * 1000
        time.sleep(2)
        after = rss_and_heap(server.pid)

        def q(values):
            values = sorted(values)
            return (f"median {statistics.median(values):.2f} ms, p90 {values[int(len(values) * 0.9)]:.2f} ms, "
                    f"max {values[-1]:.2f} ms")

        print(f"namespaces {args.namespaces} x {args.entities} queues")
        print(f"POST /__admin/namespaces: {q(post_ms)}")
        print(f"POST to the first signed PUT answered 201 (create-to-usable): {q(usable_ms)}")
        print(f"idle, default namespace only: RSS {idle[0]:.0f} MB, heap used after GC {idle[1]:.1f} MB, "
              f"{idle[2]} threads")
        print(f"with {args.namespaces} namespaces x {args.entities} queues: RSS {full[0]:.0f} MB, "
              f"heap used after GC {full[1]:.1f} MB ({(full[1] - idle[1]) * 1024 / args.namespaces:.0f} KB each), "
              f"{full[2]} threads")
        print(f"deleting them all: {delete_ms:.0f} ms; then RSS {after[0]:.0f} MB, heap used after GC {after[1]:.1f} MB, "
              f"{after[2]} threads")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
