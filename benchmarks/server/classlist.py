#!/usr/bin/env python3
"""Writes the server's warm-up class list (server/src/main/resources/dev/sbemu/server/warm-up.classes, read by
dev.sbemu.server.WarmUp): the classes, in load order, that the start (from Main on: options, Config.json, namespace,
endpoint), a first GET /health and a first AMQP header load from the jar or the JDK's modules (not from the JDK's CDS
archive), taken from -Xlog:class+load of one run.

    ./mvnw -B -o -q -pl server -am package -DskipTests && python3 benchmarks/server/classlist.py

Rerun it when the endpoint's start path changes (a renamed class is only skipped by the warm-up, never an error).
"""
import glob
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(__file__))
from startup import config_with_100_entities, READY  # noqa: E402

OUT = "server/src/main/resources/dev/sbemu/server/warm-up.classes"


def main():
    jar = sys.argv[1] if len(sys.argv) > 1 else [j for j in glob.glob("server/target/sbemu-server-*.jar")
                                                   if "original-" not in j][0]
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "Config.json")
        config_with_100_entities(config)
        process = subprocess.Popen(["java", "-Dsbemu.warm-up=false", "-Xlog:class+load:stdout", "-jar", jar,
                                    "--amqp-port", "0", "--http-port", "0", "--config", config],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines, amqp_port, http_port = [], None, None
        for line in process.stdout:
            lines.append(line)
            m = re.match(r"AMQP: [^ ]*:(\d+) ", line)
            amqp_port = int(m.group(1)) if m else amqp_port
            m = re.match(r"HTTP: http://[^ ]*:(\d+) ", line)
            http_port = int(m.group(1)) if m else http_port
            if line.strip() == READY:
                break
        # keep reading (the log would fill the pipe and stop the JVM)
        reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
        reader.start()
        with socket.create_connection(("127.0.0.1", http_port)) as s:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            assert s.recv(100).startswith(b"HTTP/1.1 200"), "no 200 from /health"
        with socket.create_connection(("127.0.0.1", amqp_port)) as s:
            s.sendall(b"AMQP\x03\x01\x00\x00")
            assert s.recv(8) == b"AMQP\x03\x01\x00\x00", "no SASL header back"
            s.recv(100)  # the mechanisms frame
        # what the two requests loaded is logged by now: read what is there, then stop
        process.kill()
        process.wait()
        reader.join(5)
    names, on = [], False
    for line in lines:
        m = re.search(r"\] (\S+) source: (file:|jrt:)", line)
        if "dev.sbemu.server.Main source:" in line:
            on = True
        if on and m and "$$Lambda" not in m.group(1) and not m.group(1).startswith("dev.sbemu.server."):
            names.append(m.group(1))
    with open(OUT, "w") as f:
        f.write("# Written by benchmarks/server/classlist.py: classes the server's start and first requests load, in\n"
                "# load order (dev.sbemu.server.WarmUp loads them beside the main thread). Not hand-edited.\n")
        f.write("".join(n + "\n" for n in dict.fromkeys(names)))
    print(f"{OUT}: {len(names)} classes")


if __name__ == "__main__":
    main()
