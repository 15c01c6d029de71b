"""Canonical-body oracle for canonical_test.go.

Reads one Base64-encoded document per line on stdin and, for each, prints
"OK <Base64 of the canonical form>" or "ERR <exception name>", where the
canonical form is what the service computes:

    json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"))
"""
import base64
import json
import sys

out = []
for line in sys.stdin:
    line = line.strip()
    body = base64.b64decode(line)
    try:
        canon = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"))
    except Exception as e:  # ValueError, RecursionError, UnicodeDecodeError...
        out.append("ERR " + type(e).__name__)
        continue
    out.append("OK " + base64.b64encode(canon.encode("ascii")).decode("ascii"))
sys.stdout.write("\n".join(out) + "\n")
