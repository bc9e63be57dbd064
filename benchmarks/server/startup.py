#!/usr/bin/env python3
"""Start-to-ready and idle memory of the sbemu-server jar (issue 24), whole processes, several runs, medians.

    python3 benchmarks/server/startup.py [--runs 9] [--jar server/target/sbemu-server-<version>.jar] [--jar other.jar]
        [--java-option=-Dsbemu.warm-up=false]

With more than one --jar the runs alternate between them (before/after in the same run, under the same load).

Writes a Config.json of 100 entities (60 queues, 10 topics with 3 subscriptions each, one SQL rule per subscription)
in Microsoft's emulator's format, then per run: starts `java -jar` on ephemeral ports, measures the time to the ready
line ("Emulator Service is Successfully Up!") and to the first 200 from GET /health, waits 2 s idle, reads VmRSS
from /proc, and stops the server with SIGTERM (its exit status and time to exit are checked too).
"""
import argparse
import glob
import json
import os
import re
import signal
import statistics
import subprocess
import tempfile
import socket
import time

READY = "Emulator Service is Successfully Up!"


def config_with_100_entities(path):
    queues = [{"Name": f"queue-{i}", "Properties": {"MaxDeliveryCount": 10}} for i in range(60)]
    topics = [{"Name": f"topic-{t}", "Properties": {}, "Subscriptions": [
        {"Name": f"sub-{s}", "Properties": {}, "Rules": [
            {"Name": "r", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": f"n > {s}"}}}]}
        for s in range(3)]} for t in range(10)]
    with open(path, "w") as f:
        f.write("// 100 entities: 60 queues, 10 topics, 30 subscriptions\n")
        json.dump({"UserConfig": {"Namespaces": [{"Name": "sbemulatorns", "Queues": queues, "Topics": topics}]}}, f)


def health_status(port):
    """The status of one GET /health on a fresh connection (a raw socket: no client library in the figure)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        head = s.recv(64)
    return int(head.split()[1]) if head.startswith(b"HTTP/1.1 ") else 0


def one_run(jar, config, java_options=()):
    start = time.perf_counter()
    process = subprocess.Popen(["java", *java_options, "-jar", jar, "--amqp-port", "0", "--http-port", "0", "--config", config],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    http_port = None
    for line in process.stdout:
        m = re.match(r"HTTP: http://[^ ]*:(\d+) ", line)
        if m:
            http_port = int(m.group(1))
        if line.strip() == READY:
            break
    ready = time.perf_counter() - start
    while True:
        try:
            if health_status(http_port) == 200:
                break
        except OSError:
            pass
    healthy = time.perf_counter() - start
    time.sleep(2)
    with open(f"/proc/{process.pid}/status") as f:
        rss_kb = int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1))
    stopping = time.perf_counter()
    process.send_signal(signal.SIGTERM)
    status = process.wait(timeout=10)
    stopped = time.perf_counter() - stopping
    process.stdout.close()
    return ready * 1000, healthy * 1000, rss_kb / 1024, status, stopped * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--jar", action="append", default=[])
    parser.add_argument("--java-option", action="append", default=[])
    args = parser.parse_args()
    jars = args.jar or [[j for j in glob.glob("server/target/sbemu-server-*.jar") if "original-" not in j][0]]
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "Config.json")
        config_with_100_entities(config)
        runs = {jar: [] for jar in jars}
        for jar in jars:
            one_run(jar, config, args.java_option)  # warm the file cache
        for _ in range(args.runs):
            for jar in jars:
                runs[jar].append(one_run(jar, config, args.java_option))
    load.append(os.getloadavg()[0])
    print(f"load average (1 min) {load[0]:.2f} before, {load[1]:.2f} after; nproc {os.cpu_count()}")
    for jar in jars:
        print(jar)
        for name, index, unit in (("ready line", 0, "ms"), ("/health 200", 1, "ms"), ("idle RSS", 2, "MB"),
                                  ("SIGTERM to exit", 4, "ms")):
            values = sorted(r[index] for r in runs[jar])
            print(f"  {name}: median {statistics.median(values):.0f} {unit} (min {values[0]:.0f}, "
                  f"max {values[-1]:.0f}, {len(values)} runs)")
        print("  exit statuses after SIGTERM:", sorted({r[3] for r in runs[jar]}))


if __name__ == "__main__":
    main()
