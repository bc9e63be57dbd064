#!/usr/bin/env python3
"""Issue 24's many-clients figure: the sbemu-server jar as its own process (-Xmx512m) with N queues, and a load
client in another JVM (dev.sbemu.benchmarks.server.ManyConnections, Apache Qpid JMS on a shared event loop) that opens
N connections, each with a sender and a waiting receiver, reads the server's threads, heap after GC and RSS, and
measures the latency of messages sent on connection i to the receiver on connection i+1.

    ./mvnw -B -o -q -pl server,benchmarks -am package -DskipTests
    python3 benchmarks/server/many_connections.py [--connections 1000] [--samples 1000] [--warm-up 200]

Takes about a minute; not part of ./mvnw verify or .ci/run.
"""
import argparse
import glob
import json
import os
import re
import signal
import subprocess
import tempfile
import threading

READY = "Emulator Service is Successfully Up!"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--warm-up", type=int, default=200)
    parser.add_argument("--jar", default=None)
    parser.add_argument("--server-heap", default="512m")
    parser.add_argument("--client-option", action="append", default=[])
    args = parser.parse_args()
    jar = args.jar or [j for j in glob.glob("server/target/sbemu-server-*.jar") if "original-" not in j][0]
    print(f"load average {os.getloadavg()}, nproc {os.cpu_count()}, ulimit -n {os.sysconf('SC_OPEN_MAX')}")
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "Config.json")
        with open(config, "w") as f:
            json.dump({"UserConfig": {"Namespaces": [{"Name": "sbemulatorns", "Queues": [
                {"Name": f"lq-{i}", "Properties": {}} for i in range(args.connections)], "Topics": []}]}}, f)
        server = subprocess.Popen(["java", f"-Xmx{args.server_heap}", "-jar", jar, "--amqp-port", "0", "--http-port",
                                   "0", "--config", config], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True)
        port = None
        for line in server.stdout:
            m = re.match(r"AMQP: [^ ]*:(\d+) ", line)
            port = int(m.group(1)) if m else port
            if line.strip() == READY:
                break
        log = []
        threading.Thread(target=lambda: log.extend(server.stdout), daemon=True).start()
        try:
            client = subprocess.run(["java", "-Xmx6g", *args.client_option, "-cp", "benchmarks/target/benchmarks.jar",
                                     "dev.sbemu.benchmarks.server.ManyConnections", str(port), str(server.pid),
                                     str(args.connections), str(args.samples), str(args.warm_up)],
                                    timeout=900)
            print("client exit status", client.returncode)
        finally:
            server.send_signal(signal.SIGTERM)
            print("server exit status after SIGTERM", server.wait(timeout=10))
        warnings = [l for l in log if "WARN" in l or "SEVERE" in l or "Exception" in l]
        print(f"server log: {len(log)} lines after ready, {len(warnings)} warnings/exceptions")
        for l in warnings[:10]:
            print("  " + l.rstrip())


if __name__ == "__main__":
    main()
