#!/usr/bin/env python3
"""Summarises a `go test -json` stream of the azservicebus suite for .ci/go-conformance.

  summarise.py TEST_JSON NOT_APPLICABLE KNOWN_FAILURES MODULE SECONDS

Every test and subtest counts once, by its last action: pass, fail or skip; one that started and never ended (a
timeout or a crash) counts as failed. A failing or skipped test in not-applicable.txt counts as "not applicable", not as
failed or skipped. A failing test with failing subtests is judged by them: it is a regression only when one of them is.
A failing test is a regression unless not-applicable.txt or known-failures.txt lists it. Both lists: one test a
line, "<package> <test name> <reason>", <package> relative to the module ("." for its root), "#" starts a comment.
Exit status 1 on a regression, or when a package failed outside its tests (a build error, a panic, a timeout)."""
import json
import os
import sys


def read_list(path):
    entries = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                sys.exit(f"{path}: '{line}': expected '<package> <test> <reason>'")
            entries[(parts[0], parts[1])] = parts[2]
    return entries


def resume():
    """summarise.py resume TEST_JSON MODULE: for each package whose test binary panicked (a panic ends the
    binary, and the tests after the panicking one never run), prints "<import path> <-skip regexp>", the regexp
    matching its top-level tests that already ended, so that a rerun runs only the rest."""
    events_path, module = sys.argv[2:4]
    ended, panicked, failed = {}, set(), set()
    with open(events_path, encoding="utf-8") as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            pkg, test, action = e.get("Package", ""), e.get("Test"), e.get("Action")
            if test is None and action == "start":  # a rerun of the package: judge its last run only
                panicked.discard(pkg)
                failed.discard(pkg)
            elif action == "output" and e.get("Output", "").startswith("panic: ") \
                    and not e.get("Output", "").startswith("panic: test timed out"):  # a timeout is no crash
                panicked.add(pkg)
            elif test is None and action == "fail":
                failed.add(pkg)
            elif test is not None and "/" not in test and action in ("pass", "fail", "skip"):
                ended.setdefault(pkg, set()).add(test)
    for pkg in sorted(panicked & failed):
        if pkg.startswith(module) and ended.get(pkg):
            print(pkg, "^(" + "|".join(sorted(ended[pkg])) + ")$")


def main():
    if sys.argv[1] == "resume":
        return resume()
    events_path, na_path, known_path, module, seconds = sys.argv[1:6]
    not_applicable = read_list(na_path)
    known = read_list(known_path)

    def short(package):
        return "." if package == module else package[len(module) + 1:]

    state = {}  # (package, test) -> last action
    packages = {}  # package -> pass/fail/skip
    output = {}  # (package, test) -> output lines, kept for failures
    with open(events_path, encoding="utf-8") as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            pkg = short(e.get("Package", ""))
            test, action = e.get("Test"), e.get("Action")
            if test is None:
                if action in ("pass", "fail", "skip"):
                    packages[pkg] = action
                elif action == "output":
                    output.setdefault((pkg, None), []).append(e.get("Output", ""))
                continue
            key = (pkg, test)
            if action == "run":
                state.setdefault(key, "run")
            elif action in ("pass", "fail", "skip"):
                state[key] = action
            elif action == "output":
                output.setdefault(key, []).append(e.get("Output", ""))

    results = {k: ("fail" if v == "run" else v) for k, v in state.items()}
    failing = {k for k, v in results.items() if v == "fail"}

    def children(key):
        pkg, test = key
        return [k for k in failing if k[0] == pkg and k[1].startswith(test + "/") and "/" not in k[1][len(test) + 1:]]

    verdicts = {}  # failing key -> "not applicable" / "known" / "regression"

    def judge(key):
        if key in verdicts:
            return verdicts[key]
        if key in not_applicable:
            v = "not applicable"
        elif key in known:
            v = "known"
        else:
            kids = [judge(k) for k in children(key)]
            if not kids:
                v = "regression"
            elif "regression" in kids:
                v = "regression"
            elif all(k == "not applicable" for k in kids):
                v = "not applicable"
            else:
                v = "known"
        verdicts[key] = v
        return v

    for key in failing:
        judge(key)

    def name(key):
        return f"{key[0]} {key[1]}"

    skipped_na = {k for k, v in results.items() if v == "skip" and k in not_applicable}
    passed = sum(1 for v in results.values() if v == "pass")
    skipped = sum(1 for v in results.values() if v == "skip") - len(skipped_na)
    na = sum(1 for k in failing if verdicts[k] == "not applicable") + len(skipped_na)
    failed = len(failing) - (na - len(skipped_na))
    regressions = sorted(k for k in failing if verdicts[k] == "regression")

    print("package results:")
    for pkg in sorted({k[0] for k in results}):  # the packages with tests
        counts = {a: sum(1 for k, v in results.items() if k[0] == pkg and v == a) for a in ("pass", "fail", "skip")}
        print(f"  {pkg:28} {packages.get(pkg, 'no result'):9} {counts['pass']} passed, {counts['fail']} failed,"
              f" {counts['skip']} skipped")
    broken = [p for p, a in packages.items() if a == "fail" and not any(k[0] == p for k in failing)]
    for pkg in broken:
        print(f"PACKAGE FAILED outside its tests: {pkg}")
        print("".join(output.get((pkg, None), [])[-30:]), end="")

    for key in sorted(k for k in failing if verdicts[k] == "known"):
        print(f"known failure: {name(key)}")
    for key in sorted({k for k in failing if verdicts[k] == "not applicable"} | skipped_na):
        print(f"not applicable: {name(key)}")
    for key in regressions:
        print(f"REGRESSION: {name(key)}")
        print("".join(line for line in output.get(key, [])[-25:]), end="")
    for key in sorted(set(known) | set(not_applicable)):
        listed = "known-failures.txt" if key in known else "not-applicable.txt"
        if results.get(key) == "pass":
            print(f"hint: {name(key)} passes now: remove it from {listed}")
        elif key not in results and results and not os.environ.get("GO_CONFORMANCE_RUN"):
            print(f"hint: {name(key)} did not run (renamed?): check {listed}")

    if not results:
        print("no test ran")
    print(f"regressions: {len(regressions)}")
    print(f"go-conformance: {passed} passed, {failed} failed, {skipped} skipped, {na} not applicable;"
          f" regressions: {len(regressions)} ({seconds} s)")
    sys.exit(1 if regressions or broken or not results else 0)


main()
