#!/usr/bin/env python3
"""The rule that makes tare's unity builds safe (cmake/TareHelpers.cmake, docs/testing.md).

A unity build compiles several sources of one target as one translation unit. Two files that
each define a helper of the same name in an anonymous namespace (or `static`) then collide: as a
redefinition error when the signatures match, and silently when they differ — a call in one file
may pick the other file's overload. Which files share a translation unit depends on the batch
each lands in, which moves as files are added. So the rule is checked for whole targets, not
batches: within one target, a name defined at the top level of an anonymous namespace, or
`static` at namespace scope, is defined by one source file only.

Usage: unity_names.py MANIFEST|DIR...   each manifest: the target's name, its source directory,
                                        then its sources (one per line; relative to the directory or
                                        absolute); a directory: every *.txt in it (the build writes
                                        one per target to <build>/unity_sources/)
Exit 0 when every target keeps the rule; 1 with one line per clash; 2 on unreadable input.
"""
import os
import re
import sys

_ID = re.compile(r"[A-Za-z_]\w*")
_RAW = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')


def strip_code(text):
    """Comments, string and character literals (raw strings included) become spaces; newlines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "uULR" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) and _RAW.match(text, i):
            m = _RAW.match(text, i)
            end = ")" + m.group(1) + '"'
            j = text.find(end, m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + c)
            i = j + 1
        elif c == "#" and (i == 0 or text[i - 1] == "\n"):  # a preprocessor line and its continuations
            j = i
            while True:
                k = text.find("\n", j)
                if k < 0:
                    j = n
                    break
                if text[k - 1] == "\\":
                    j = k + 1
                    continue
                j = k
                break
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def declared_name(decl):
    """The name a namespace-scope declaration defines, or None (using-directives, macros, ...)."""
    d = " ".join(decl.split())
    d = re.sub(r"^template\s*<.*?>\s*(?=[A-Za-z_])", "", d)
    if not d or d.startswith(("using namespace", "namespace", "extern", "friend", "static_assert")):
        return None
    m = re.match(r"(?:struct|class|union|enum(?:\s+class|\s+struct)?)\s+(?:\[\[.*?\]\]\s*)?([A-Za-z_]\w*)", d)
    if m:
        return m.group(1)
    m = re.match(r"using\s+([A-Za-z_]\w*)\s*=", d)
    if m:
        return m.group(1)
    if d.startswith("using "):
        return None  # a using-declaration names something declared elsewhere
    # A function or a variable: the identifier before the first '(' '=' '{' '[' or ';' outside <>.
    depth = 0
    last = None
    k = 0
    while k < len(d):
        ch = d[k]
        if ch == "<":
            depth += 1
        elif ch == ">" and depth > 0:
            depth -= 1
        elif depth == 0 and ch in "(={[;":
            break
        m = _ID.match(d, k)
        if m:
            last = m.group(0)
            k = m.end()
            if last == "operator":
                return None
            continue
        k += 1
    if last is None or re.fullmatch(r"[A-Z][A-Z0-9_]*", last):
        return None  # a macro at namespace scope (TEST, INSTANTIATE_TEST_SUITE_P, ...)
    if last in ("const", "constexpr", "noexcept", "override", "final"):
        return None
    return last


def file_names(path):
    """Names defined at the top of anonymous namespaces, or `static` at namespace scope."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = strip_code(f.read())
    names = {}
    scopes = []  # for each open brace: "anon", "ns", or "other"
    decl_start = 0
    for m in re.finditer(r"[{};]", code):
        ch = m.group(0)
        at_namespace_scope = all(s in ("anon", "ns") for s in scopes)
        head = code[decl_start:m.start()]
        if ch == "{":
            h = " ".join(head.split())
            if re.fullmatch(r"(inline\s+)?namespace", h):
                scopes.append("anon")
            elif re.fullmatch(r"(inline\s+)?namespace\s+[\w:]+", h) or re.fullmatch(r'extern\s+"\s*"', h):
                scopes.append("ns")
            else:
                if at_namespace_scope:
                    record(names, head, scopes, code, decl_start)
                scopes.append("other")
            decl_start = m.end()
        elif ch == "}":
            if scopes:
                scopes.pop()
            decl_start = m.end()
        else:  # ';'
            if at_namespace_scope:
                record(names, head, scopes, code, decl_start)
            decl_start = m.end()
    return names


def record(names, head, scopes, code, offset):
    h = head.strip()
    if not h:
        return
    is_static = re.match(r"(?:template\s*<.*?>\s*)?(?:inline\s+|constexpr\s+)*static\b", " ".join(h.split()))
    if not ("anon" in scopes or is_static):
        return
    name = declared_name(h)
    if name:
        line = code.count("\n", 0, offset + len(head) - len(head.lstrip())) + 1
        names.setdefault(name, line)


def main(argv):
    if len(argv) < 2:
        print("usage: unity_names.py MANIFEST|DIR...", file=sys.stderr)
        return 2
    manifests = []
    for arg in argv[1:]:
        if os.path.isdir(arg):
            manifests += sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith(".txt"))
        else:
            manifests.append(arg)
    if not manifests:
        print(f"no manifests in {' '.join(argv[1:])}: configure the build first", file=sys.stderr)
        return 2
    clashes = 0
    for manifest in manifests:
        try:
            with open(manifest, encoding="utf-8") as f:
                lines = [l.strip() for l in f if l.strip()]
        except OSError as e:
            print(f"{manifest}: cannot read: {e.strerror}", file=sys.stderr)
            return 2
        if len(lines) < 2:
            print(f"{manifest}: not a manifest (target, source directory, sources)", file=sys.stderr)
            return 2
        target, base, sources = lines[0], lines[1], lines[2:]
        seen = {}  # name -> (file, line)
        for src in sources:
            if not src.endswith((".cc", ".cpp", ".cxx")):
                continue
            path = src if os.path.isabs(src) else os.path.join(base, src)
            try:
                found = file_names(path)
            except OSError as e:
                print(f"{path}: cannot read: {e.strerror}", file=sys.stderr)
                return 2
            for name, line in sorted(found.items()):
                if name in seen and seen[name][0] != path:
                    first, first_line = seen[name]
                    print(f"{path}:{line}: '{name}' is also defined in {first}:{first_line}, a source of the same "
                          f"target ({target}); in a unity build the two may share one translation unit. Give "
                          f"one a name of its own, or share one definition through a header.")
                    clashes += 1
                else:
                    seen.setdefault(name, (path, line))
    return 1 if clashes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
