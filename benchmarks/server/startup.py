#!/usr/bin/env python3
"""Start-to-ready and idle memory of the sbemu-server jar (issue 24), whole processes, several runs, medians.

    python3 benchmarks/server/startup.py [--runs 9] [--jar server/target/sbemu-server-<version>.jar]

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
import time
import urllib.request

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


def one_run(jar, config):
    start = time.perf_counter()
    process = subprocess.Popen(["java", "-jar", jar, "--amqp-port", "0", "--http-port", "0", "--config", config],
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
            with urllib.request.urlopen(f"http://127.0.0.1:{http_port}/health", timeout=5) as r:
                if r.status == 200:
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
    parser.add_argument("--jar", default=None)
    args = parser.parse_args()
    jar = args.jar or [j for j in glob.glob("server/target/sbemu-server-*.jar") if "original-" not in j][0]
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "Config.json")
        config_with_100_entities(config)
        one_run(jar, config)  # warm the file cache
        runs = [one_run(jar, config) for _ in range(args.runs)]
    for name, index, unit in (("ready line", 0, "ms"), ("/health 200", 1, "ms"), ("idle RSS", 2, "MB"),
                              ("SIGTERM to exit", 4, "ms")):
        values = sorted(r[index] for r in runs)
        print(f"{name}: median {statistics.median(values):.0f} {unit} (min {values[0]:.0f}, max {values[-1]:.0f}, "
              f"{len(values)} runs)")
    print("exit statuses after SIGTERM:", sorted({r[3] for r in runs}))


if __name__ == "__main__":
    main()
