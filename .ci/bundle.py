"""Checks a staging repository for Maven Central's Publisher Portal and zips it into the bundle the portal takes.

usage: bundle.py STAGING ZIP [--release]
  STAGING    a directory in Maven repository layout, written by
             ./mvnw -Prelease deploy -DaltDeploymentRepository=staging::file://STAGING (see docs/releasing.md)
  ZIP        the bundle to write (the staging files, without maven-metadata*.xml)
  --release  also require a release version (no -SNAPSHOT) and a GPG signature (.asc) of every file

Every published artifact must be there with its POM, and (for jars) its sources and Javadoc jars; every file with
its .md5 and .sha1 checksum (verified); every POM, with what it inherits from its parent, with a name, a
description, a URL, a license (name and URL), a developer, and SCM (url and connection). No other artifact may be
there (examples, benchmarks and tests are not published).
"""
import hashlib
import os
import re
import sys
import xml.etree.ElementTree as ET
import zipfile

GROUP = "dev/sbemu"
# artifactId: packaging; keep in step with the README's install command and the modules without maven.deploy.skip
PUBLISHED = {"sbemu-parent": "pom", "sbemu-bom": "pom", "emulator-core": "jar", "wire": "jar", "sdk-adapter": "jar",
             "amqp-endpoint": "jar", "junit5-extension": "jar", "spring-boot-test-support": "jar"}
NS = {"m": "http://maven.apache.org/POM/4.0.0"}

args = [a for a in sys.argv[1:] if not a.startswith("--")]
release = "--release" in sys.argv
if len(args) != 2:
    sys.exit(__doc__)
staging, bundle = args
errors = []
poms = {}


def text(root, path):
    node = root.find(path, NS)
    return node.text.strip() if node is not None and node.text and node.text.strip() else None


def check_checksums(path):
    data = open(path, "rb").read()
    for ext, algorithm in (("md5", hashlib.md5), ("sha1", hashlib.sha1)):
        sums = path + "." + ext
        if not os.path.exists(sums):
            errors.append("no ." + ext + " checksum of " + os.path.relpath(path, staging))
        elif open(sums).read().split()[0].lower() != algorithm(data).hexdigest():
            errors.append("wrong ." + ext + " checksum of " + os.path.relpath(path, staging))
    if release and not os.path.exists(path + ".asc"):
        errors.append("no signature (.asc) of " + os.path.relpath(path, staging))


group_dir = os.path.join(staging, GROUP)
found = sorted(os.listdir(group_dir)) if os.path.isdir(group_dir) else []
for artifact in found:
    if artifact not in PUBLISHED:
        errors.append("not a published artifact, but in the bundle: dev.sbemu:" + artifact)
for artifact, packaging in PUBLISHED.items():
    adir = os.path.join(group_dir, artifact)
    versions = [v for v in sorted(os.listdir(adir)) if os.path.isdir(os.path.join(adir, v))] if os.path.isdir(adir) else []
    if len(versions) != 1:
        errors.append("dev.sbemu:%s: expected one version in the staging repository, found %s" % (artifact, versions))
        continue
    version = versions[0]
    if release and version.endswith("-SNAPSHOT"):
        errors.append("dev.sbemu:%s:%s: the portal takes releases only; set a release version" % (artifact, version))
    vdir = os.path.join(adir, version)
    files = os.listdir(vdir)
    # a SNAPSHOT deploy names files with a timestamp instead of -SNAPSHOT: take the newest of each kind
    def newest(suffix):
        names = sorted(f for f in files if re.fullmatch(re.escape(artifact) + r"-[^/]+?" + re.escape(suffix), f)
                       and (suffix != ".jar" or not re.search(r"-(sources|javadoc)\.jar$", f)))
        if not names:
            errors.append("dev.sbemu:%s:%s: no %s" % (artifact, version, suffix.lstrip("-")))
            return None
        path = os.path.join(vdir, names[-1])
        check_checksums(path)
        return path
    pom = newest(".pom")
    if pom:
        try:
            poms[artifact] = ET.parse(pom).getroot()
        except ET.ParseError as e:
            errors.append("dev.sbemu:%s: the POM is not well-formed XML: %s" % (artifact, e))
    if packaging == "jar":
        newest(".jar")
        sources, javadoc = newest("-sources.jar"), newest("-javadoc.jar")
        if sources and not any(n.endswith(".java") for n in zipfile.ZipFile(sources).namelist()):
            errors.append("dev.sbemu:%s: the sources jar holds no .java file" % artifact)
        if javadoc and "index.html" not in zipfile.ZipFile(javadoc).namelist():
            errors.append("dev.sbemu:%s: the Javadoc jar holds no index.html" % artifact)

REQUIRED = {"name": "m:name", "description": "m:description", "url": "m:url",
            "license name": "m:licenses/m:license/m:name", "license url": "m:licenses/m:license/m:url",
            "developer": "m:developers/m:developer/m:name", "scm url": "m:scm/m:url",
            "scm connection": "m:scm/m:connection"}
for artifact, root in poms.items():
    chain, node = [], root
    while node is not None:
        chain.append(node)
        parent = text(node, "m:parent/m:artifactId")
        node = poms.get(parent) if parent and text(node, "m:parent/m:groupId") == "dev.sbemu" else None
        if parent and node is None:
            errors.append("dev.sbemu:%s: its parent %s is not in the bundle" % (artifact, parent))
    props = {}
    for node in reversed(chain):
        for p in node.findall("m:properties/*", NS):
            props[p.tag.split("}")[1]] = (p.text or "").strip()
    for what, path in REQUIRED.items():
        value = next((v for v in (text(n, path) for n in chain) if v), None)
        value = re.sub(r"\$\{([^}]+)\}", lambda m: props.get(m.group(1), m.group(0)), value) if value else None
        if not value or "${" in value:
            errors.append("dev.sbemu:%s: the POM has no %s%s" % (artifact, what, " (" + value + ")" if value else ""))

if errors:
    print("the bundle is incomplete:\n  " + "\n  ".join(errors), file=sys.stderr)
    sys.exit(1)
count = 0
with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as z:
    for directory, _, names in os.walk(staging):
        for name in sorted(names):
            if name.startswith("maven-metadata"):
                continue
            path = os.path.join(directory, name)
            z.write(path, os.path.relpath(path, staging))
            count += 1
print("bundle complete: %d artifacts, %d files in %s%s" % (len(PUBLISHED), count, bundle,
      "" if release else " (not signed, a snapshot check: see docs/releasing.md)"))
