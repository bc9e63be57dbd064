"""Writes the code blocks marked "<!-- compat: PATH -->" in README.md and the user guide's pages to DIR/PATH,
pinning versions as a user would.

usage: readme-blocks.py MARKDOWN... DIR [project=NAME] [junit=VERSION] [boot=VERSION] [prop.NAME=VALUE ...]
                        [GROUP:ARTIFACT:VERSION[:import] ...]
  MARKDOWN...             the markdown files to read (names ending in .md), in the order given; a PATH may be
                          marked only once across them
  project=NAME            the blocks marked "<!-- compat NAME: PATH -->" instead (e.g. the Spring project)
  junit=VERSION           replaces the JUnit version the README's pom names
  boot=VERSION            replaces the version of the pom's parent, spring-boot-starter-parent
  prop.NAME=VALUE         replaces the value of the pom's property <NAME>
  GROUP:ARTIFACT:VERSION  pinned first in <dependencyManagement> (":import" for a BOM)
"""
import os
import re
import sys

args = sys.argv[1:]
markdown = []
while args and args[0].endswith(".md"):
    markdown.append(args.pop(0))
if not markdown or not args:
    sys.exit(__doc__)
out = args.pop(0)
pins, junit, boot, props, project = [], None, None, {}, None
for arg in args:
    if arg.startswith("junit="):
        junit = arg.split("=", 1)[1]
    elif arg.startswith("boot="):
        boot = arg.split("=", 1)[1]
    elif arg.startswith("project="):
        project = arg.split("=", 1)[1]
    elif arg.startswith("prop."):
        name, value = arg[len("prop."):].split("=", 1)
        props[name] = value
    else:
        pins.append(arg.split(":"))
blocks = []
for page in markdown:
    text = open(page, encoding="utf-8").read()
    blocks += [(path, body) for name, path, body
               in re.findall(r"<!-- compat(?: (\w+))?: (\S+) -->\n```\w*\n(.*?)\n```", text, re.S)
               if (name or None) == project]
if not blocks:
    sys.exit("no compat blocks" + (" of project " + project if project else "") + " in " + " ".join(markdown))
paths = [path for path, _ in blocks]
if len(paths) != len(set(paths)):
    sys.exit("a compat PATH is marked more than once: " + " ".join(sorted({p for p in paths if paths.count(p) > 1})))
for path, body in blocks:
    if path == "pom.xml":
        if junit:
            body, n = re.subn(r"(<artifactId>junit-jupiter</artifactId>\s*<version>)[^<]+", r"\g<1>" + junit, body)
            assert n == 1, "the README's pom names junit-jupiter's version once"
            pins.insert(0, ["org.junit", "junit-bom", junit, "import"])
        if boot:
            body, n = re.subn(r"(<artifactId>spring-boot-starter-parent</artifactId>\s*<version>)[^<]+",
                              r"\g<1>" + boot, body)
            assert n == 1, "the README's pom has spring-boot-starter-parent as its parent"
        for name, value in props.items():
            body, n = re.subn(r"(<" + re.escape(name) + r">)[^<]*(</" + re.escape(name) + r">)",
                              lambda m: m.group(1) + value + m.group(2), body)
            assert n == 1, "the README's pom has the property " + name
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
