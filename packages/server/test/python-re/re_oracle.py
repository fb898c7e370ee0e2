"""CPython's answers for the differential test of the Python-regex translation.

Reads one JSON request on stdin and writes one JSON answer on stdout:
- {"kind": "match", "cases": [{"pattern", "flags", "texts"}]}: for each case, Python's error
  message, or for each text every match of finditer as [[start, end] per group 0..n] in code
  points ([-1, -1] for a group that did not take part).
- {"kind": "unicode"}: which code points (assigned in this Python's Unicode) \\w, \\d and \\s
  match, and the code points IGNORECASE treats as cased with their lower-case forms.
"""
import json
import re
import sys
import unicodedata

import _sre
import warnings

warnings.simplefilter("ignore")


def match_case(case):
    try:
        compiled = re.compile(case["pattern"], case["flags"])
    except (re.error, ValueError, OverflowError) as error:
        return {"error": str(error), "class": "error" if isinstance(error, re.error) else type(error).__name__}
    results = []
    for text in case["texts"]:
        results.append([[list(m.span(g)) for g in range(compiled.groups + 1)] for m in compiled.finditer(text)])
    return {"matches": results}


def ranges_of(codes):
    out = []
    for code in codes:
        if out and out[-1][1] == code - 1:
            out[-1][1] = code
        else:
            out.append([code, code])
    return out


def unicode_tables():
    assigned = [c for c in range(0x110000) if unicodedata.category(chr(c)) not in ("Cn", "Cs")]
    tables = {"assigned": ranges_of(assigned)}
    for name, pattern in (("word", r"\w"), ("digit", r"\d"), ("space", r"\s")):
        compiled = re.compile(pattern)
        tables[name] = ranges_of([c for c in assigned if compiled.match(chr(c))])
    tables["lower"] = [[c, _sre.unicode_tolower(c)] for c in assigned if _sre.unicode_tolower(c) != c]
    tables["cased"] = ranges_of([c for c in assigned if _sre.unicode_iscased(c)])
    return tables


request = json.load(sys.stdin)
if request["kind"] == "match":
    json.dump([match_case(case) for case in request["cases"]], sys.stdout)
else:
    json.dump(unicode_tables(), sys.stdout)
