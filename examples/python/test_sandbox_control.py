"""Drive `fiatramp sandbox -control` from Python, standard library only.

Run: FIATRAMP_BIN=/path/to/fiatramp python3 test_sandbox_control.py
"""
import base64, hashlib, hmac, http.server, json, os, subprocess, threading, time, unittest
import urllib.error, urllib.request


class SandboxControlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.proc = subprocess.Popen(
            [os.environ.get("FIATRAMP_BIN", "fiatramp"), "sandbox", "-control", "-addr", "127.0.0.1:0"],
            stdout=subprocess.PIPE, text=True)
        text = ""
        while True:  # the start document: one JSON object over several lines
            line = cls.proc.stdout.readline()
            if not line:
                raise RuntimeError("fiatramp sandbox exited before printing its document")
            text += line
            try:
                doc = json.loads(text)
                break
            except json.JSONDecodeError:
                continue
        cls.base, cls.ctl, cls.token = doc["base_url"], doc["control"]["url"], doc["control"]["token"]

    @classmethod
    def tearDownClass(cls):
        cls.proc.terminate()
        cls.proc.wait(timeout=10)
        cls.proc.stdout.close()

    def control(self, method, path, body=None, token=None):
        """One control-plane call: (status, decoded JSON answer)."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.ctl + path, data=data, method=method)
        req.add_header("Authorization", "Bearer " + (self.token if token is None else token))
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, json.load(resp)
        except urllib.error.HTTPError as e:
            return e.code, json.load(e)

    def ok(self, method, path, body=None):
        status, answer = self.control(method, path, body)
        self.assertLess(status, 300, answer)
        return answer

    def call(self, org, method, path, payload=None, ts=None):
        """One signed call of the service as org: (status, headers, answer)."""
        body = "{}" if payload is None else json.dumps(payload, sort_keys=True, separators=(",", ":"))
        ts = str(ts if ts is not None else self.sandbox_now())
        mac = hmac.new(org["api_secret"].encode(), f"{org['api_key']}|{ts}|{body}".encode(), hashlib.sha256)
        req = urllib.request.Request(self.base + path, method=method,
                                     data=None if payload is None else body.encode())
        req.add_header("X-API-KEY", org["api_key"])
        req.add_header("X-TIMESTAMP", ts)
        req.add_header("X-SIGNATURE", base64.b64encode(mac.digest()).decode())
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, resp.headers, json.load(resp)
        except urllib.error.HTTPError as e:
            return e.code, e.headers, json.load(e)

    def sandbox_now(self):
        """The sandbox clock in Unix seconds: sign with it, not with time.time()."""
        return self.ok("GET", "/clock")["unix"]

    def setUp(self):
        self.demo = self.ok("POST", "/reset", {"seed_demo": True})["demo"]
        self.org = self.demo["organization"]

    def test_token_is_required(self):
        status, answer = self.control("GET", "/clock", token="wrong-token-wrong-token")
        self.assertEqual(status, 401)
        self.assertIn("admin token", answer["error"])

    def test_clock(self):
        self.ok("PUT", "/clock", {"time": "2030-01-01T00:00:00Z"})
        self.assertEqual(self.ok("POST", "/clock/advance", {"seconds": 90})["now"], "2030-01-01T00:01:30Z")
        # A request signed with this machine's clock is now far outside the window.
        status, _, answer = self.call(self.org, "GET", "/pos/api/v1/payout/balance", ts=int(time.time()))
        self.assertEqual((status, answer["err_code"]), (401, "AUTH_UNAUTHORIZED"))
        status, _, answer = self.call(self.org, "GET", "/pos/api/v1/payout/balance")
        self.assertEqual((status, answer["data"]["available_balance"]), (200, {"USDT": "1000"}))

    def test_faults(self):
        self.ok("POST", "/faults", {"kind": "rate_limit", "path": "/pos/api/v1/payout/balance",
                                    "count": 1, "retry_after_seconds": 2})
        status, headers, _ = self.call(self.org, "GET", "/pos/api/v1/payout/balance")
        self.assertEqual((status, headers["Retry-After"]), (429, "2"))
        status, _, _ = self.call(self.org, "GET", "/pos/api/v1/payout/balance")
        self.assertEqual(status, 200, "count 1: the next request passes")
        self.ok("POST", "/faults", {"kind": "unavailable"})
        self.assertEqual(self.call(self.org, "GET", "/pos/api/v1/payout/balance")[0], 503)
        self.ok("DELETE", "/faults")
        self.assertEqual(self.call(self.org, "GET", "/pos/api/v1/payout/balance")[0], 200)
        self.assertEqual(self.ok("GET", "/stats")["faults"]["rate_limit"], 1)

    def test_bad_input_names_the_field(self):
        status, answer = self.control("POST", "/faults", {"Kind": "rate_limit"})
        self.assertEqual((status, answer["field"]), (400, "Kind"))
        status, answer = self.control("POST", "/faults", {"kind": "delay"})
        self.assertEqual((status, answer["field"]), (400, "delay_seconds"))

    def test_fixtures_payouts_and_state(self):
        loaded = self.ok("POST", "/fixtures", {"organizations": [{
            "name": "Acme", "api_key": "acme_key", "api_secret": "acme_secret_0123456789",
            "prefunded": True, "balances": {"USDT": "250"},
            "customers": [{"name": "Asha Rao", "bank_accounts": [{
                "account_number": "001234567890", "ifsc": "SBIN0001234",
                "quotations": [{"sending_amount": "10", "rate": "88.25"}]}]}]}]})
        acme = loaded["organizations"][0]
        customer = acme["customers"][0]
        quotation = customer["bank_accounts"][0]["quotations"][0]

        status, _, answer = self.call(acme, "POST", "/pos/api/v1/prefunded/payout/initiate", {
            "quotation_id": quotation["id"], "client_reference_id": "py-42",
            "customer": {"sender": {"id": customer["id"]}, "receiver": {"id": customer["id"]}}})
        self.assertEqual(status, 201, answer)
        payout = self.ok("GET", f"/organizations/{acme['id']}/payouts/by-reference?client_reference_id=py-42")
        self.assertEqual((payout["id"], payout["status"]), (answer["data"]["id"], "PROCESSING"))
        self.assertEqual(self.ok("GET", f"/organizations/{acme['id']}/balances")["balances"], {"USDT": "240"})

        self.ok("PUT", f"/organizations/{acme['id']}/balances/USDT", {"amount": "0.5"})
        self.assertEqual(self.ok("GET", f"/organizations/{acme['id']}/balances/usdt")["amount"], "0.5")
        self.ok("PUT", f"/customers/{customer['id']}/kyc-status", {"kyc_status": "PROCESSING"})
        self.assertEqual(self.ok("GET", f"/customers/{customer['id']}")["kyc_status"], "PROCESSING")

    def test_webhook_deliveries(self):
        received = []

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                received.append(self.rfile.read(int(self.headers["Content-Length"])))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}/hooks"
            self.ok("PUT", f"/organizations/{self.org['id']}/webhook-url", {"webhook_url": url})
            self.ok("POST", "/delivery-faults", {"kind": "duplicate", "type": "CUSTOMER", "count": 1})
            status, _, _ = self.call(self.org, "PATCH", "/cms/api/v1/kyc/mock-kyc-status", {
                "customer_id": self.demo["pending_customer"]["id"], "kyc_status": "VERIFIED"})
            self.assertEqual(status, 200)
            self.assertEqual(self.ok("POST", "/deliveries/wait", {"timeout_seconds": 10}), {"pending": 0})
            [delivery] = self.ok("GET", "/deliveries")["deliveries"]
            self.assertEqual((delivery["fault"], delivery["state"], len(delivery["attempts"])),
                             ("duplicate", "delivered", 2))
            self.assertEqual(delivery["body"]["event"], "VERIFIED")
            self.assertEqual(len(received), 2, "the event and its duplicate")
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
