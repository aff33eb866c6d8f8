#!/usr/bin/env python3
"""Checks a JUnit file against the rules of the Jenkins xUnit plugin's JUnit schema (junit-10.xsd),
written out here as the elements each element may hold, in order, and the attributes each may
carry: <testsuites> holds <testsuite>s; a <testsuite> holds an optional <properties>, its
<testcase>s, then optional <system-out> and <system-err>; a <testcase> holds <skipped>, <error>,
<failure>, <system-out> and <system-err> only (no <properties>); every `time` is a decimal with
at most 3 decimals. Usage: junit_rules.py FILE; exits 1 naming the first rule broken."""
import re
import sys
import xml.etree.ElementTree as ET

TIME = re.compile(r"^[0-9]*(\.[0-9]{0,3})?$")
ATTRIBUTES = {
    "testsuites": {"name", "time", "tests", "failures", "disabled", "errors"},
    "testsuite": {"name", "tests", "failures", "errors", "time", "disabled", "skipped", "timestamp",
                  "hostname", "id", "package", "file", "log", "url", "version", "group"},
    "properties": set(),
    "property": {"name", "value"},
    "testcase": {"name", "assertions", "time", "classname", "status", "class", "file", "line", "log",
                 "group", "url"},
    "skipped": {"message"},
    "error": {"message", "type"},
    "failure": {"message", "type"},
    "system-out": set(),
    "system-err": set(),
}
REQUIRED = {"testsuite": {"name", "tests"}, "testcase": {"name"}, "property": {"name", "value"}}
# Children in the order the schema's sequences allow (a testcase's are a free choice).
CHILDREN = {
    "testsuites": ["testsuite"],
    "testsuite": ["properties", "testcase", "system-out", "system-err"],
    "properties": ["property"],
    "testcase": None,
}
TESTCASE_CHILDREN = {"skipped", "error", "failure", "system-out", "system-err"}
ONCE = {"testsuite": {"properties", "system-out", "system-err"}}


def check(element, path):
    where = f"{path}/{element.tag}"
    allowed = ATTRIBUTES.get(element.tag)
    if allowed is None:
        sys.exit(f"{where}: element not in the schema")
    for name in element.attrib:
        if name not in allowed:
            sys.exit(f"{where}: attribute '{name}' not allowed")
    for name in REQUIRED.get(element.tag, ()):
        if name not in element.attrib:
            sys.exit(f"{where}: required attribute '{name}' missing")
    if "time" in element.attrib and not TIME.match(element.attrib["time"]):
        sys.exit(f"{where}: time '{element.attrib['time']}' is not a decimal with at most 3 decimals")
    order = CHILDREN.get(element.tag, [])
    rank = -1
    seen = set()
    for child in element:
        if element.tag == "testcase":
            if child.tag not in TESTCASE_CHILDREN:
                sys.exit(f"{where}: <{child.tag}> not allowed in a testcase")
        else:
            if child.tag not in order:
                sys.exit(f"{where}: <{child.tag}> not allowed here")
            if order.index(child.tag) < rank:
                sys.exit(f"{where}: <{child.tag}> out of the schema's order")
            rank = order.index(child.tag)
            if child.tag in ONCE.get(element.tag, ()) and child.tag in seen:
                sys.exit(f"{where}: more than one <{child.tag}>")
            seen.add(child.tag)
        check(child, where)


root = ET.parse(sys.argv[1]).getroot()
if root.tag not in ("testsuites", "testsuite"):
    sys.exit(f"root <{root.tag}> is neither testsuites nor testsuite")
check(root, "")
print(f"{sys.argv[1]}: valid under the xUnit JUnit schema's rules")
