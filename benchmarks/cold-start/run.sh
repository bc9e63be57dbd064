#!/usr/bin/env bash
# Cold start of one test class, each run in a fresh JVM through the JUnit Platform console launcher:
#   quickstart  the README's quick-start test class (@ServiceBusEmulator, three injected clients, the virtual clock)
#   byhand      the same scenario as users write it without sbemu: the SDK's ServiceBusSenderClient mocked by hand
#               with Mockito's inline mock maker (mock, send, verify)
#   plain       a JUnit test touching neither the SDK nor Mockito
# All three run with the same class path (sbemu's junit5-extension and its runtime dependencies, built here from the
# reactor) and the JVM flags the README's pom gives surefire (Mockito's agent, -Xshare:off), N alternating rounds
# after one discarded warm-up round, timed with /usr/bin/time. Prints the medians of wall and CPU (user + system)
# time, the ratios quickstart/byhand and quickstart/plain, and the classes each variant loads, grouped by package.
#
# usage: benchmarks/cold-start/run.sh [N]          (N rounds, default 5; JAVA_HOME picks the JDK)
#        COLD_START_SKIP_BUILD=1 ...               reuse the last build in benchmarks/cold-start/target
#        COLD_START_MVN_ARGS="-o" ...              extra Maven arguments (e.g. offline)
# Not part of .ci/run: it takes a few minutes.
set -euo pipefail
rounds=${1:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$here/target
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
mvn_args=${COLD_START_MVN_ARGS:-}

if [ "${COLD_START_SKIP_BUILD:-0}" != 1 ]; then
    rm -rf "$work"
    mkdir -p "$work"
    echo "=== building junit5-extension and its modules (package, no tests) ==="
    # In the reactor, dependency:build-classpath names the sibling modules' freshly packaged jars; each module writes
    # its own target/cold-start-classpath.txt, junit5-extension's is the one used.
    (cd "$root" && ./mvnw -B -q -ntp $mvn_args -pl junit5-extension -am package dependency:build-classpath \
        -DskipTests -Dmaven.javadoc.skip=true -Dmdep.includeScope=runtime \
        -Dmdep.outputFile=target/cold-start-classpath.txt)
    cp "$root/junit5-extension/target/cold-start-classpath.txt" "$work/runtime.cp"
    extension_jar=$(ls "$root"/junit5-extension/target/junit5-extension-*.jar | grep -v -e sources -e javadoc | head -1)
    # JUnit comes from the console launcher's standalone jar, of the version the build uses
    jupiter=$(tr ':' '\n' <"$work/runtime.cp" | grep -o 'junit-jupiter-api-[0-9][^/]*\.jar$' | head -1)
    jupiter=${jupiter#junit-jupiter-api-}
    jupiter=${jupiter%.jar}
    case $jupiter in 5.*) platform=1.${jupiter#5.} ;; *) platform=$jupiter ;; esac
    echo "=== fetching junit-platform-console-standalone $platform ==="
    (cd "$root" && ./mvnw -B -q -ntp $mvn_args dependency:copy -N \
        -Dartifact=org.junit.platform:junit-platform-console-standalone:"$platform" -DoutputDirectory="$work")
    launcher=$(ls "$work"/junit-platform-console-standalone-*.jar)
    cp_deps=$(tr ':' '\n' <"$work/runtime.cp" | grep -v -e '/org/junit/' -e '/org/opentest4j/' -e '/org/apiguardian/' \
        | paste -sd: -)
    echo "$launcher:$extension_jar:$cp_deps" >"$work/classpath"
    echo "=== compiling the three test classes ==="
    mkdir -p "$work/src/com/example" "$work/readme"
    python3 "$root/.ci/readme-blocks.py" "$root/README.md" "$work/readme" >/dev/null
    cp "$work/readme/src/test/java/com/example/OrderExpiryTest.java" "$work/src/com/example/"
    cp "$here"/src/byhand/com/example/*.java "$here"/src/plain/com/example/*.java "$work/src/com/example/"
    ${JAVA_HOME:+$JAVA_HOME/bin/}javac --release 17 -cp "$(cat "$work/classpath")" -d "$work/classes" \
        "$work"/src/com/example/*.java
fi

classpath=$work/classes:$(cat "$work/classpath")
mockito=$(tr ':' '\n' <<<"$classpath" | grep '/mockito-core-[^/]*\.jar$' | head -1)
declare -A test_class=([quickstart]=com.example.OrderExpiryTest [byhand]=com.example.OrderSenderByHandTest
    [plain]=com.example.PlainTest)
variants=(quickstart byhand plain)

# launch [TIMER...] VARIANT [extra JVM flags...]: one fresh JVM running one test class; fails if the test fails
launch() {
    local timer=()
    while [ "$1" = /usr/bin/time ]; do timer=(/usr/bin/time -f "%e %U %S" -o "$work/time.txt"); shift; done
    local variant=$1; shift
    "${timer[@]}" "$java" -javaagent:"$mockito" -Xshare:off "$@" -cp "$classpath" \
        org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=none --fail-if-no-tests \
        --select-class "${test_class[$variant]}"
}

echo "=== $("$java" -version 2>&1 | head -1); $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg) ==="
: >"$work/times.txt"
for round in $(seq 0 "$rounds"); do
    for variant in "${variants[@]}"; do
        launch /usr/bin/time "$variant" >"$work/out-$variant.txt" 2>&1 \
            || { cat "$work/out-$variant.txt"; echo "cold-start: $variant failed" >&2; exit 1; }
        # round 0 warms the file cache and is discarded
        if [ "$round" -gt 0 ]; then echo "$variant $(tail -1 "$work/time.txt")" >>"$work/times.txt"; fi
    done
    [ "$round" -gt 0 ] && echo "round $round/$rounds done (load $(cut -d' ' -f1 /proc/loadavg))"
done
echo "=== load after: $(cut -d' ' -f1-3 /proc/loadavg) ==="

# one more run per variant, not timed, listing the classes it loads
for variant in "${variants[@]}"; do
    launch "$variant" -Xlog:class+load=info:file="$work/classes-$variant.txt" >/dev/null 2>&1
done

python3 - "$work" "${variants[@]}" <<'EOF'
import collections, re, statistics, sys
work, variants = sys.argv[1], sys.argv[2:]
wall, cpu = collections.defaultdict(list), collections.defaultdict(list)
for line in open(f"{work}/times.txt"):
    v, e, u, s = line.split()
    wall[v].append(float(e)); cpu[v].append(float(u) + float(s))
med = {v: (statistics.median(wall[v]), statistics.median(cpu[v])) for v in variants}
print(f"\n{'variant':<12}{'wall median (s)':>16}{'CPU median (s)':>16}   runs (wall)")
for v in variants:
    print(f"{v:<12}{med[v][0]:>16.2f}{med[v][1]:>16.2f}   {' '.join(f'{x:.2f}' for x in wall[v])}")
q, b, p = med["quickstart"], med["byhand"], med["plain"]
print(f"\nquickstart / byhand: {q[0] / b[0]:.2f}x wall, {q[1] / b[1]:.2f}x CPU "
      f"({q[0] - b[0]:+.2f} s wall, {q[1] - b[1]:+.2f} s CPU)")
print(f"quickstart / plain:  {q[0] / p[0]:.2f}x wall, {q[1] / p[1]:.2f}x CPU")

# classes loaded, grouped by package prefix
GROUPS = ["dev.sbemu.", "reactor.", "org.apache.qpid.proton.", "com.fasterxml.jackson.", "com.azure.core.",
          "com.azure.messaging.", "io.netty.", "org.mockito.", "net.bytebuddy.", "org.junit.", "org.slf4j.",
          "org.objenesis."]
def group(name):
    if "$$Lambda" in name or name.startswith("java.lang.invoke.LambdaForm$"):
        return "lambdas, lambda forms"
    if name.startswith("dev.sbemu."):
        return ".".join(name.split(".")[:3]) + "."
    for g in GROUPS:
        if name.startswith(g):
            return g
    if name.startswith(("java.", "javax.", "jdk.", "sun.", "com.sun.")):
        return "JDK (java., jdk., sun., ...)"
    return "other: " + ".".join(name.split(".")[:2]) + "."
counts = {}
for v in variants:
    c = collections.Counter()
    for line in open(f"{work}/classes-{v}.txt"):
        m = re.search(r"\]\s+(\S+) source:", line)
        if m:
            c[group(m.group(1))] += 1
    counts[v] = c
    with open(f"{work}/classes-{v}-by-package.txt", "w") as f:
        for g, n in c.most_common():
            f.write(f"{n:6d} {g}\n")
print(f"\nclasses loaded (-Xlog:class+load), by package{'':<23}{'quickstart':>11}{'byhand':>8}{'plain':>7}"
      f"{'quick-byhand':>14}")
rows = sorted(set().union(*counts.values()), key=lambda g: -(counts["quickstart"][g] - counts["byhand"][g]))
for g in rows:
    d = counts["quickstart"][g] - counts["byhand"][g]
    if max(counts[v][g] for v in variants) >= 10 or abs(d) >= 5:
        print(f"  {g:<64}{counts['quickstart'][g]:>11}{counts['byhand'][g]:>8}{counts['plain'][g]:>7}{d:>+14}")
tot = {v: sum(counts[v].values()) for v in variants}
print(f"  {'total':<64}{tot['quickstart']:>11}{tot['byhand']:>8}{tot['plain']:>7}"
      f"{tot['quickstart'] - tot['byhand']:>+14}")
print(f"\n(lists: {work}/classes-VARIANT.txt)")
EOF
