"""Writes README.md's code blocks marked "<!-- compat: PATH -->" to DIR/PATH, pinning versions as a user would.

usage: readme-blocks.py README DIR [junit=VERSION] [GROUP:ARTIFACT:VERSION[:import] ...]
  junit=VERSION           replaces the JUnit version the README's pom names
  GROUP:ARTIFACT:VERSION  pinned first in <dependencyManagement> (":import" for a BOM)
"""
import os
import re
import sys

readme, out = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"<!-- compat: (\S+) -->\n```\w*\n(.*?)\n```", text, re.S)
if not blocks:
    sys.exit("no compat blocks in " + readme)
pins, junit = [], None
for arg in sys.argv[3:]:
    if arg.startswith("junit="):
        junit = arg.split("=", 1)[1]
    else:
        pins.append(arg.split(":"))
for path, body in blocks:
    if path == "pom.xml":
        if junit:
            body, n = re.subn(r"(<artifactId>junit-jupiter</artifactId>\s*<version>)[^<]+", r"\g<1>" + junit, body)
            assert n == 1, "the README's pom names junit-jupiter's version once"
            pins.insert(0, ["org.junit", "junit-bom", junit, "import"])
        entries = ""
        for g, a, v, *kind in pins:
            extra = "<type>pom</type><scope>import</scope>" if kind == ["import"] else ""
            entries += (f"\n      <dependency><groupId>{g}</groupId><artifactId>{a}</artifactId>"
                        f"<version>{v}</version>{extra}</dependency>")
        body, n = re.subn(r"(<dependencyManagement>\s*<dependencies>)", r"\g<1>" + entries.replace("\\", "\\\\"), body)
        assert n == 1 or not pins, "the README's pom has one <dependencyManagement>"
    target = os.path.join(out, path)
    os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    with open(target, "w", encoding="utf-8") as f:
        f.write(body + "\n")
    print("wrote", target)
