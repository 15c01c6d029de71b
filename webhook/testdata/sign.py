# The service's webhook signature, as the oracle of verify_test.go.
# Each input line: base64(key) base64(secret) timestamp base64(body).
# Each output line: the X-SIGNATURE value, or "ERR" when json.loads refuses.
import base64, hashlib, hmac, json, sys

for line in sys.stdin:
    k, s, ts, b = line.split()
    key = base64.b64decode(k).decode()
    secret = base64.b64decode(s).decode()
    body = base64.b64decode(b)
    try:
        canonical = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"))
    except ValueError:
        print("ERR")
        continue
    msg = f"{key}|{ts}|{canonical}".encode()
    mac = hmac.new(secret.encode(), msg, hashlib.sha256).digest()
    print(base64.b64encode(mac).decode())
