package sandbox_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// authReq is one request built and signed by hand (handSign), as a
// program in another language would.
type authReq struct {
	method, path string
	// body is sent as is; nil sends none.
	body []byte
	// signed is what the signature covers; nil means body, or "{}" for a
	// GET or a request without a body.
	signed []byte
	// key and secret default to the env organization's.
	key, secret string
	// stamp is X-TIMESTAMP; empty means the sandbox clock's second.
	stamp string
	// sig replaces the computed X-SIGNATURE when set.
	sig string
	// omit leaves this header out.
	omit string
	// contentType replaces application/json on a request with a body;
	// "-" sends none.
	contentType string
}

// authResp is a response as received.
type authResp struct {
	status int
	header http.Header
	raw    []byte
	body   struct {
		Status  *bool           `json:"status"`
		Success *bool           `json:"success"`
		Message string          `json:"message"`
		ErrCode string          `json:"err_code"`
		Errors  json.RawMessage `json:"errors"`
		Data    json.RawMessage `json:"data"`
	}
}

// authSend sends rq to the env's server (or to base, when given).
func authSend(t testing.TB, e *env, rq authReq, base ...string) authResp {
	t.Helper()
	key, secret := e.org.APIKey, e.org.APISecret
	if rq.key != "" {
		key = rq.key
	}
	if rq.secret != "" {
		secret = rq.secret
	}
	stamp := rq.stamp
	if stamp == "" {
		stamp = strconv.FormatInt(e.sb.Now().Unix(), 10)
	}
	signed := rq.signed
	if signed == nil {
		signed = rq.body
		if rq.method == http.MethodGet || rq.body == nil {
			signed = []byte("{}")
		}
	}
	sig := rq.sig
	if sig == "" {
		ts, err := strconv.ParseInt(stamp, 10, 64)
		if err != nil { // the stamp is the point of the test; sign anything
			ts = 0
		}
		sig = handSign(key, secret, ts, signed)
	}
	url := e.srv.URL
	if len(base) > 0 {
		url = base[0]
	}
	var body io.Reader
	if rq.body != nil {
		body = bytes.NewReader(rq.body)
	}
	req, err := http.NewRequestWithContext(ctx(t), rq.method, url+rq.path, body)
	require.NoError(t, err)
	if rq.body != nil {
		switch rq.contentType {
		case "":
			req.Header.Set("Content-Type", "application/json")
		case "-":
		default:
			req.Header.Set("Content-Type", rq.contentType)
		}
	}
	for h, v := range map[string]string{"X-API-KEY": key, "X-TIMESTAMP": stamp, "X-SIGNATURE": sig} {
		if h != rq.omit {
			req.Header.Set(h, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	out := authResp{status: resp.StatusCode, header: resp.Header}
	out.raw, err = io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(out.raw, &out.body), string(out.raw))
	return out
}

// authRefused asserts a 401 with code and message, in the error envelope.
func authRefused(t testing.TB, r authResp, code, message string) {
	t.Helper()
	assert.Equal(t, http.StatusUnauthorized, r.status, string(r.raw))
	assert.Equal(t, code, r.body.ErrCode, string(r.raw))
	if message != "" {
		assert.Equal(t, message, r.body.Message)
	}
	require.NotNil(t, r.body.Status, string(r.raw))
	assert.False(t, *r.body.Status)
	assert.Equal(t, "null", string(r.body.Data))
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
}

// authOK asserts the request passed authentication and the operation
// answered status.
func authOK(t testing.TB, r authResp, status int) {
	t.Helper()
	require.Equal(t, status, r.status, string(r.raw))
	require.NotNil(t, r.body.Status, string(r.raw))
}

// authGet is a signed GET of the env customer's KYC configuration.
func authGet(e *env) authReq {
	return authReq{method: http.MethodGet, path: "/cms/api/v1/kyc/configuration/" + e.cust.ID.String()}
}

// authWallet is a signed POST adding a wallet to the env customer, with
// body exactly as given.
func authWallet(body string) authReq {
	return authReq{method: http.MethodPost, path: "/cms/api/v1/wallet/add", body: []byte(body)}
}

func TestAuthSignedByHand(t *testing.T) {
	e := newEnv(t)
	r := authSend(t, e, authGet(e))
	authOK(t, r, http.StatusOK)
	assert.True(t, *r.body.Status)

	body := `{"customer_id":"` + e.cust.ID.String() + `","wallet_address":"TAuth1"}`
	r = authSend(t, e, authWallet(body))
	authOK(t, r, http.StatusOK)
	assert.Contains(t, string(r.body.Data), `"wallet_address":"TAuth1"`)
}

// handSign is the signature rule computed by hand from RFC 2104 over
// crypto/sha256, independent of both the client's fiatramp.Sign and the
// sandbox's crypto/hmac: the standard Base64 of HMAC-SHA256, keyed by
// secret, over key + "|" + ts + "|" + body.
func handSign(key, secret string, ts int64, body []byte) string {
	k := []byte(secret)
	if len(k) > sha256.BlockSize {
		sum := sha256.Sum256(k)
		k = sum[:]
	}
	var ipad, opad [sha256.BlockSize]byte
	copy(ipad[:], k)
	copy(opad[:], k)
	for i := range ipad {
		ipad[i] ^= 0x36
		opad[i] ^= 0x5c
	}
	inner := sha256.New()
	inner.Write(ipad[:])
	inner.Write([]byte(key + "|" + strconv.FormatInt(ts, 10) + "|"))
	inner.Write(body)
	outer := sha256.New()
	outer.Write(opad[:])
	outer.Write(inner.Sum(nil))
	return base64.StdEncoding.EncodeToString(outer.Sum(nil))
}

// pythonSignedRequest is a request whose X-SIGNATURE python3 computed.
type pythonSignedRequest struct {
	name, key, secret string
	ts                int64
	method, path      string
	body              string // sent and signed; "" sends none and signs "{}"
	sig               string
	status            int    // what the operation answers once authenticated
	message           string // its message
}

// pythonSigned returns requests whose X-SIGNATURE python3 computed, with
// base64.b64encode(hmac.new(secret, f"{key}|{ts}|{body}".encode(),
// hashlib.sha256).digest()): known answers, written down, that hold
// whatever the Go code of the client or the sandbox does.
func pythonSigned() []pythonSignedRequest {
	return []pythonSignedRequest{
		{"GET signs {}", "fr_live_9f8e7d6c", "sk_5a4b3c2d1e0f", 1741419084, http.MethodGet, "/pos/api/v1/payout/balance", "",
			"mkioiKcPdXFwy6gtInGilRS46GhuDOHL49SQJXNny00=", http.StatusOK, ""},
		{"POST with a body", "fr_live_9f8e7d6c", "sk_5a4b3c2d1e0f", 1741419084, http.MethodPost, "/pis/api/v1/payin/quotation",
			`{"asset":"usdt","fiat":"inr","sending_amount":"1500.75"}`,
			"vbrUmLZNLBUVVDDUx0pqla3AXoifLmu6e+GK4BaqN84=", http.StatusBadRequest, "This field is required."},
		{"secret longer than the hash block, escaped non-ASCII, negative timestamp", "key", strings.Repeat("x", 100), -5,
			http.MethodPost, "/cms/api/v1/wallet/add", `[1,"\u00e9"]`,
			"VrEwbctSL/Tm4FIVU6Dsy7rXzrABZc9Yl+mGLaZj300=", http.StatusBadRequest, "Invalid data. Expected a dictionary, but got list."},
	}
}

// TestAuthHandSignMatchesPython: the tests' own signer gives Python's
// answers, so the signatures the other tests send are the service's.
func TestAuthHandSignMatchesPython(t *testing.T) {
	for _, c := range pythonSigned() {
		body := c.body
		if body == "" {
			body = "{}"
		}
		assert.Equal(t, c.sig, handSign(c.key, c.secret, c.ts, []byte(body)), c.name)
	}
	assert.Equal(t, "gkCzpWM7vQ2jJOCE1tO4TKyicXItbWEdN9nYdKpUJoE=", handSign("", "", 0, nil))
}

// pythonEnv is an env whose sandbox also holds the organization of key and
// secret, with its clock at ts.
func pythonEnv(t *testing.T, key, secret string, ts int64) *env {
	e := newEnv(t)
	e.must(e.sb.AddOrganization(sandbox.Organization{Name: "Python", APIKey: key, APISecret: secret, Prefunded: true}))
	e.sb.SetTime(time.Unix(ts, 0))
	return e
}

// TestAuthAcceptsPythonSignatures: requests signed by Python, not by any
// Go code, pass authentication and reach their operation; the same
// request with the signature's one character changed, the timestamp moved
// by a second or the body changed by a byte is refused as an invalid
// signature.
func TestAuthAcceptsPythonSignatures(t *testing.T) {
	for _, c := range pythonSigned() {
		t.Run(c.name, func(t *testing.T) {
			e := pythonEnv(t, c.key, c.secret, c.ts)
			rq := authReq{method: c.method, path: c.path, key: c.key, secret: c.secret,
				stamp: strconv.FormatInt(c.ts, 10), sig: c.sig}
			if c.body != "" {
				rq.body = []byte(c.body)
			}
			r := authSend(t, e, rq)
			authOK(t, r, c.status)
			if c.message != "" {
				assert.Equal(t, c.message, r.body.Message)
			}

			bad := rq
			bad.sig = c.sig[:5] + string(c.sig[5]^1) + c.sig[6:]
			authRefused(t, authSend(t, e, bad), sandbox.CodeInvalidSignature, "Invalid Signature")

			bad = rq
			bad.stamp = strconv.FormatInt(c.ts+1, 10)
			authRefused(t, authSend(t, e, bad), sandbox.CodeInvalidSignature, "Invalid Signature")

			if c.body != "" {
				bad = rq
				bad.body = []byte(strings.Replace(c.body, "1", "2", 1))
				authRefused(t, authSend(t, e, bad), sandbox.CodeInvalidSignature, "Invalid Signature")
			}
		})
	}
}

// TestAuthAcceptsSignPy: signatures computed by python3 running
// webhook/testdata/sign.py (the service's formula over json.dumps with
// sorted keys and compact separators) are accepted, for keys, secrets and
// bodies the known answers do not cover; the same signature over another
// secret is refused. Skipped when python3 is not installed.
func TestAuthAcceptsSignPy(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: signatures cannot be checked against the service's Python formula")
	}
	e := newEnv(t)
	id := e.cust.ID.String()
	cases := []struct {
		name, secret string
		method, path string
		body         string
	}{
		{"GET", "s3cr\u00e9t-\u2603", http.MethodGet, "/cms/api/v1/kyc/configuration/" + id, ""},
		{"wallet with escaped non-ASCII", strings.Repeat("sécret", 20), http.MethodPost, "/cms/api/v1/wallet/add",
			`{"customer_id":"` + id + `","wallet_address":"TPy\u00e9\ud83d\ude00"}`},
		{"secret of exactly one block", strings.Repeat("k", 64), http.MethodPost, "/cms/api/v1/wallet/add",
			`{"customer_id":"` + id + `","wallet_address":"TPy2"}`},
	}
	ts := epoch.Unix()
	var in bytes.Buffer
	enc := base64.StdEncoding.EncodeToString
	orgs := make([]sandbox.Organization, len(cases))
	for i, c := range cases {
		orgs[i] = e.must(e.sb.AddOrganization(sandbox.Organization{Name: "Py", APISecret: c.secret})).(sandbox.Organization)
		cust := e.customer(orgs[i], sandbox.Customer{Name: "Py"})
		cases[i].path = strings.ReplaceAll(c.path, id, cust.ID.String())
		cases[i].body = strings.ReplaceAll(c.body, id, cust.ID.String())
		signed := cases[i].body
		if signed == "" {
			signed = "{}"
		}
		in.WriteString(enc([]byte(orgs[i].APIKey)) + " " + enc([]byte(c.secret)) + " " + strconv.FormatInt(ts, 10) + " " + enc([]byte(signed)) + "\n")
	}
	cmd := exec.CommandContext(ctx(t), py, filepath.Join("..", "webhook", "testdata", "sign.py"))
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "python3: %s", stderr.String())
	sigs := strings.Fields(string(out))
	require.Len(t, sigs, len(cases))
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NotEqual(t, "ERR", sigs[i])
			rq := authReq{method: c.method, path: cases[i].path, key: orgs[i].APIKey, secret: c.secret, sig: sigs[i]}
			if cases[i].body != "" {
				rq.body = []byte(cases[i].body)
			}
			authOK(t, authSend(t, e, rq), http.StatusOK)

			// Python's signature under another organization's secret.
			rq.secret, rq.sig = "", ""
			rq.key = orgs[(i+1)%len(orgs)].APIKey
			rq.sig = sigs[i]
			authRefused(t, authSend(t, e, rq), sandbox.CodeInvalidSignature, "Invalid Signature")
		})
	}
}

func TestAuthMissingHeader(t *testing.T) {
	e := newEnv(t)
	for _, h := range []string{"X-API-KEY", "X-TIMESTAMP", "X-SIGNATURE"} {
		t.Run(h, func(t *testing.T) {
			rq := authGet(e)
			rq.omit = h
			authRefused(t, authSend(t, e, rq), sandbox.CodeMissingHeaders, "Authentication header "+h+" is missing.")

			// Empty counts as missing.
			rq = authGet(e)
			switch h {
			case "X-API-KEY":
				rq.key = " "
			case "X-TIMESTAMP":
				rq.stamp = " "
			case "X-SIGNATURE":
				rq.sig = " "
			}
			authRefused(t, authSend(t, e, rq), sandbox.CodeMissingHeaders, "Authentication header "+h+" is missing.")

			// A POST too, before its body is looked at.
			rq = authWallet(`not json`)
			rq.omit = h
			authRefused(t, authSend(t, e, rq), sandbox.CodeMissingHeaders, "Authentication header "+h+" is missing.")
		})
	}
	// All three missing: the first is named.
	resp, err := http.Get(e.srv.URL + "/cms/api/v1/kyc/configuration/" + e.cust.ID.String())
	require.NoError(t, err)
	raw, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.JSONEq(t, `{"status":false,"message":"Authentication header X-API-KEY is missing.","err_code":"AUTH_MISSING_HEADERS","data":null}`, string(raw))
}

func TestAuthUnknownKey(t *testing.T) {
	e := newEnv(t)
	rq := authGet(e)
	rq.key = "sbx_key_nobody"
	authRefused(t, authSend(t, e, rq), sandbox.CodeUnauthorized, "Invalid API key.")

	// Keys are case-sensitive.
	rq.key = strings.ToUpper(e.org.APIKey)
	authRefused(t, authSend(t, e, rq), sandbox.CodeUnauthorized, "Invalid API key.")

	c, err := e.srv.Client(sandbox.Organization{APIKey: "sbx_key_nobody", APISecret: e.org.APISecret}, fiatramp.WithClock(e.sb.Now))
	require.NoError(t, err)
	_, err = c.KYC.GetConfiguration(ctx(t), e.cust.ID)
	apiErr := refused(t, err, http.StatusUnauthorized, "Invalid API key.", fiatramp.ErrUnauthorized)
	assert.Equal(t, sandbox.CodeUnauthorized, apiErr.Code)
}

func TestAuthInvalidTimestamp(t *testing.T) {
	e := newEnv(t)
	now := strconv.FormatInt(epoch.Unix(), 10)
	for _, stamp := range []string{
		"yesterday", "1.5", now + ".0", "0x10", now + "000000000000000000000", // overflows int64
		"+" + now, "0" + now, "1e9", "１２３", // fullwidth digits
	} {
		rq := authGet(e)
		rq.stamp = stamp
		authRefused(t, authSend(t, e, rq), sandbox.CodeUnauthorized, "X-TIMESTAMP must be a Unix time in seconds.")
	}
	// Milliseconds are a number, but far from now.
	rq := authGet(e)
	rq.stamp = now + "000"
	authRefused(t, authSend(t, e, rq), sandbox.CodeUnauthorized, "")
}

// The window is 300 seconds either way, inclusive, in whole seconds.
func TestAuthTimestampWindow(t *testing.T) {
	e := newEnv(t)
	call := func(skew time.Duration) error {
		c := e.clientFor(e.org, fiatramp.WithClock(func() time.Time { return e.sb.Now().Add(skew) }))
		_, err := c.KYC.GetConfiguration(ctx(t), e.cust.ID)
		return err
	}
	for _, skew := range []time.Duration{0, 300 * time.Second, -300 * time.Second, 299 * time.Second} {
		require.NoError(t, call(skew), "skew %v", skew)
	}
	for _, skew := range []time.Duration{301 * time.Second, -301 * time.Second, time.Hour, -24 * time.Hour} {
		err := call(skew)
		apiErr := refused(t, err, http.StatusUnauthorized,
			"Request timestamp is outside the allowed window of 300 seconds (server time "+strconv.FormatInt(epoch.Unix(), 10)+").",
			fiatramp.ErrUnauthorized)
		assert.Equal(t, sandbox.CodeUnauthorized, apiErr.Code, "skew %v", skew)
	}

	// The sandbox clock is the one that counts: a client stuck at epoch
	// signs fine until the sandbox moves 301 seconds on.
	stuck := e.clientFor(e.org, fiatramp.WithClock(func() time.Time { return epoch }))
	e.sb.Advance(300 * time.Second)
	_, err := stuck.KYC.GetConfiguration(ctx(t), e.cust.ID)
	require.NoError(t, err)
	e.sb.Advance(time.Second)
	_, err = stuck.KYC.GetConfiguration(ctx(t), e.cust.ID)
	assert.True(t, errors.Is(err, fiatramp.ErrUnauthorized), "%v", err)

	// A fraction of a second on the sandbox clock does not shrink the
	// window: the header is whole seconds, so the comparison is too.
	e.sb.SetTime(epoch.Add(999 * time.Millisecond))
	for _, d := range []int64{-300, 300} {
		rq := authGet(e)
		rq.stamp = strconv.FormatInt(epoch.Unix()+d, 10)
		authOK(t, authSend(t, e, rq), http.StatusOK)
	}
	for _, d := range []int64{-301, 301} {
		rq := authGet(e)
		rq.stamp = strconv.FormatInt(epoch.Unix()+d, 10)
		authRefused(t, authSend(t, e, rq), sandbox.CodeUnauthorized, "")
	}

	// The window is a setting.
	e2 := newEnv(t, func(s *sandbox.Settings) { s.TimestampWindow = 10 * time.Second })
	rq := authGet(e2)
	rq.stamp = strconv.FormatInt(epoch.Unix()-10, 10)
	authOK(t, authSend(t, e2, rq), http.StatusOK)
	rq.stamp = strconv.FormatInt(epoch.Unix()-11, 10)
	authRefused(t, authSend(t, e2, rq), sandbox.CodeUnauthorized,
		"Request timestamp is outside the allowed window of 10 seconds (server time "+strconv.FormatInt(epoch.Unix(), 10)+").")
}

func TestAuthInvalidSignature(t *testing.T) {
	e := newEnv(t)
	other := e.otherOrg(false)
	ts := epoch.Unix()
	good := handSign(e.org.APIKey, e.org.APISecret, ts, []byte("{}"))
	for name, sig := range map[string]string{
		"garbage":                  "not-a-signature",
		"another org's secret":     handSign(e.org.APIKey, other.APISecret, ts, []byte("{}")),
		"another org's key in it":  handSign(other.APIKey, e.org.APISecret, ts, []byte("{}")),
		"another timestamp":        handSign(e.org.APIKey, e.org.APISecret, ts-1, []byte("{}")),
		"another body":             handSign(e.org.APIKey, e.org.APISecret, ts, []byte("")),
		"padding dropped":          strings.TrimRight(good, "="),
		"URL-safe alphabet":        strings.NewReplacer("+", "-", "/", "_").Replace(good) + "x",
		"last character changed":   good[:42] + string(good[42]^1) + "=",
		"hex instead of base64":    "3f1d9c0a7b6e5d4c3b2a19080706050403020100ffeeddccbbaa998877665544",
		"signature of the secret":  handSign(e.org.APISecret, e.org.APIKey, ts, []byte("{}")),
		"lower-case of the base64": strings.ToLower(good),
	} {
		t.Run(name, func(t *testing.T) {
			rq := authGet(e)
			rq.sig = sig
			rq.stamp = strconv.FormatInt(ts, 10)
			authRefused(t, authSend(t, e, rq), sandbox.CodeInvalidSignature, "Invalid Signature")
		})
	}
	// The signature itself was fine.
	rq := authGet(e)
	rq.sig = good
	rq.stamp = strconv.FormatInt(ts, 10)
	authOK(t, authSend(t, e, rq), http.StatusOK)

	// Signing as the other organization with its own secret works, and
	// sees only its own records.
	rq = authGet(e)
	rq.key, rq.secret = other.APIKey, other.APISecret
	r := authSend(t, e, rq)
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.Equal(t, "Customer not found or access denied", r.body.Message)

	// Through the client: a wrong secret is ErrUnauthorized, with the
	// service's words.
	c := e.clientFor(sandbox.Organization{APIKey: e.org.APIKey, APISecret: other.APISecret})
	_, err := c.KYC.GetConfiguration(ctx(t), e.cust.ID)
	apiErr := refused(t, err, http.StatusUnauthorized, "Invalid Signature", fiatramp.ErrUnauthorized)
	assert.Equal(t, sandbox.CodeInvalidSignature, apiErr.Code)
}

func TestAuthBodyNotCanonical(t *testing.T) {
	e := newEnv(t)
	id := e.cust.ID.String()
	for name, body := range map[string]string{
		"spaces after separators": `{"customer_id": "` + id + `", "wallet_address": "TNc1"}`,
		"indented":                "{\n  \"customer_id\": \"" + id + "\",\n  \"wallet_address\": \"TNc2\"\n}",
		"trailing newline":        `{"customer_id":"` + id + `","wallet_address":"TNc3"}` + "\n",
		"unsorted keys":           `{"wallet_address":"TNc4","customer_id":"` + id + `"}`,
		"raw non-ASCII":           `{"customer_id":"` + id + `","wallet_address":"TNc5é"}`,
		"upper-case escape":       `{"customer_id":"` + id + `","wallet_address":"TNc6\u00E9"}`,
		"escaped ASCII":           `{"customer_id":"` + id + `","wallet_address":"TNc\u0037"}`,
		"escaped slash":           `{"customer_id":"` + id + `","wallet_address":"TNc8\/"}`,
		"duplicate key":           `{"customer_id":"` + id + `","customer_id":"` + id + `","wallet_address":"TNc9"}`,
		"byte order mark":         "\ufeff" + `{"customer_id":"` + id + `","wallet_address":"TNc10"}`,
		"exponent number":         `{"customer_id":"` + id + `","n":1E2,"wallet_address":"TNc11"}`,
	} {
		t.Run(name, func(t *testing.T) {
			// Correctly signed over its own raw bytes, yet refused.
			authRefused(t, authSend(t, e, authWallet(body)), sandbox.CodeInvalidSignature,
				"Request body is not in canonical form: keys sorted, no whitespace, non-ASCII escaped.")
			canonical, err := fiatramp.CanonicalizeJSON([]byte(body))
			require.NoError(t, err)
			require.NotEqual(t, body, string(canonical))
		})
	}

	// The canonical form of the same content passes, and the escaped
	// non-ASCII arrives as the character.
	r := authSend(t, e, authWallet(`{"customer_id":"`+id+`","wallet_address":"TNc5\u00e9"}`))
	authOK(t, r, http.StatusOK)
	var w struct {
		WalletAddress string `json:"wallet_address"`
	}
	require.NoError(t, json.Unmarshal(r.body.Data, &w))
	assert.Equal(t, "TNc5é", w.WalletAddress)

	// Signing the canonical form while sending another is a bad signature
	// only once the body is canonical; a non-canonical body is refused as
	// such whatever was signed.
	rq := authWallet(`{"customer_id":"` + id + `", "wallet_address":"TNc12"}`)
	rq.signed = []byte(`{"customer_id":"` + id + `","wallet_address":"TNc12"}`)
	authRefused(t, authSend(t, e, rq), sandbox.CodeInvalidSignature, "")
	rq = authWallet(`{"customer_id":"` + id + `","wallet_address":"TNc13"}`)
	rq.signed = []byte(`{"customer_id":"` + id + `","wallet_address":"TNc14"}`)
	authRefused(t, authSend(t, e, rq), sandbox.CodeInvalidSignature, "Invalid Signature")
}

func TestAuthInvalidJSONBody(t *testing.T) {
	e := newEnv(t)
	for _, body := range []string{`{"customer_id":`, `{customer_id:1}`, `{"a":1}{"b":2}`, `'x'`, "\xff"} {
		authRefused(t, authSend(t, e, authWallet(body)), sandbox.CodeInvalidSignature, "Request body is not valid JSON.")
	}

	// Canonical JSON that is not an object passes authentication and is
	// refused by the operation as the REST framework would.
	r := authSend(t, e, authWallet(`[]`))
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.Equal(t, sandbox.CodeFieldMissing, r.body.ErrCode)
	assert.Equal(t, "Invalid data. Expected a dictionary, but got list.", r.body.Message)
	assert.JSONEq(t, `{"non_field_errors":["Invalid data. Expected a dictionary, but got list."]}`, string(r.body.Errors))

	// NaN is canonical (Python prints it) but no JSON to decode.
	r = authSend(t, e, authWallet(`{"a":NaN}`))
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.Equal(t, "JSON parse error.", r.body.Message)
}

// A GET signs "{}", whatever its query and whatever body it carries.
func TestAuthGETSignsEmptyObject(t *testing.T) {
	e := newEnv(t)
	for name, signed := range map[string]string{"empty": "", "null": "null", "object": `{"a":1}`, "spaced": "{ }"} {
		t.Run(name, func(t *testing.T) {
			rq := authGet(e)
			rq.signed = []byte(signed)
			authRefused(t, authSend(t, e, rq), sandbox.CodeInvalidSignature, "Invalid Signature")
		})
	}
	rq := authGet(e)
	rq.path += "?page=2&x=y" // not signed
	authOK(t, authSend(t, e, rq), http.StatusOK)

	rq = authGet(e)
	rq.body = []byte(`{"ignored": true}`) // a GET's body is not signed
	authOK(t, authSend(t, e, rq), http.StatusOK)

	// A POST without a body signs "{}" too, and reaches the operation.
	r := authSend(t, e, authReq{method: http.MethodPost, path: "/cms/api/v1/wallet/add"})
	assert.Equal(t, http.StatusBadRequest, r.status, string(r.raw))
	assert.Equal(t, sandbox.CodeFieldMissing, r.body.ErrCode)
	assert.Contains(t, string(r.body.Errors), `"customer_id":["This field is required."]`)
	r = authSend(t, e, authReq{method: http.MethodPost, path: "/cms/api/v1/wallet/add", signed: []byte("")})
	authRefused(t, r, sandbox.CodeInvalidSignature, "Invalid Signature")
}

// Every authentication failure is ErrUnauthorized through the client, and
// is not retried.
func TestAuthErrorsThroughClient(t *testing.T) {
	e := newEnv(t)
	cases := map[string]*fiatramp.Client{
		"unknown key":  e.clientFor(sandbox.Organization{APIKey: "nobody", APISecret: "x"}),
		"wrong secret": e.clientFor(sandbox.Organization{APIKey: e.org.APIKey, APISecret: "x"}),
		"clock ahead":  e.clientFor(e.org, fiatramp.WithClock(func() time.Time { return epoch.Add(10 * time.Minute) })),
		"clock behind": e.clientFor(e.org, fiatramp.WithClock(func() time.Time { return epoch.Add(-10 * time.Minute) })),
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			before := e.sb.Stats().Requests
			_, err := c.KYC.GetConfiguration(ctx(t), e.cust.ID)
			require.Error(t, err)
			assert.True(t, errors.Is(err, fiatramp.ErrUnauthorized), "%v", err)
			var apiErr *fiatramp.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, http.StatusUnauthorized, apiErr.StatusCode)
			assert.True(t, strings.HasPrefix(apiErr.Code, "AUTH_"), apiErr.Code)
			assert.Equal(t, before+1, e.sb.Stats().Requests, "one request, no retry")

			// A POST is refused the same way, and has no effect: the same
			// wallet, added properly, is new ("Wallet added successfully",
			// not "Wallet already added").
			addr := "TUnauth-" + strings.ReplaceAll(name, " ", "-")
			_, err = c.Customers.AddWallet(ctx(t), authWalletReq(e.cust.ID, addr))
			assert.True(t, errors.Is(err, fiatramp.ErrUnauthorized), "%v", err)
			r := authSend(t, e, authWallet(`{"customer_id":"`+e.cust.ID.String()+`","wallet_address":"`+addr+`"}`))
			authOK(t, r, http.StatusOK)
			assert.Equal(t, "Wallet added successfully", r.body.Message)
		})
	}
}

func authWalletReq(customer uuid.UUID, address string) types.AddWalletRequest {
	return types.AddWalletRequest{CustomerID: customer, WalletAddress: address}
}

func TestAuthUnknownPathAndMethod(t *testing.T) {
	e := newEnv(t)
	// Routing comes before authentication: no headers needed for a 404.
	for _, path := range []string{"/", "/pos/api/v1/payouts", "/pos/api/v2/payout/initiate", "/cms/api/v1/bank/a/b/c", "/PIS/api/v1/payin/quotation"} {
		resp, err := http.Get(e.srv.URL + path)
		require.NoError(t, err)
		raw, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, path)
		assert.JSONEq(t, `{"status":false,"message":"Not found.","data":null}`, string(raw), path)
	}
	for method, path := range map[string]string{
		http.MethodGet:    "/pos/api/v1/prefunded/payout/initiate", // (GET /pos/api/v1/payout/initiate is a fetch of payout "initiate")
		http.MethodPut:    "/cms/api/v1/wallet/add",
		http.MethodDelete: "/pos/api/v1/payout/" + uuid.NewString(),
		http.MethodPost:   "/cms/api/v1/kyc/configuration/" + uuid.NewString(),
		http.MethodPatch:  "/pis/api/v1/payin/quotation",
	} {
		req, err := http.NewRequest(method, e.srv.URL+path, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		raw, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, method+" "+path)
		assert.JSONEq(t, `{"status":false,"message":"Method \"`+method+`\" not allowed.","data":null}`, string(raw))
	}

	// Through the client, signed.
	err := e.client.Do(ctx(t), http.MethodGet, "/pos/api/v1/nothing-here", nil, nil)
	refused(t, err, http.StatusNotFound, "Not found.")
	err = e.client.Do(ctx(t), http.MethodDelete, "/cms/api/v1/wallet/add", nil, nil)
	refused(t, err, http.StatusMethodNotAllowed, `Method "DELETE" not allowed.`)
}

// The Date header is the sandbox clock's, on every answer.
func TestAuthDateHeaderFollowsSandboxClock(t *testing.T) {
	e := newEnv(t)
	date := func(rq authReq) time.Time {
		r := authSend(t, e, rq)
		d, err := http.ParseTime(r.header.Get("Date"))
		require.NoError(t, err, r.header.Get("Date"))
		return d
	}
	assert.Equal(t, epoch, date(authGet(e)))
	e.sb.Advance(90 * time.Minute)
	assert.Equal(t, epoch.Add(90*time.Minute), date(authGet(e)))

	bad := authGet(e)
	bad.sig = "x"
	assert.Equal(t, epoch.Add(90*time.Minute), date(bad), "on a 401 too")

	e.sb.SetTime(time.Date(2031, 2, 3, 4, 5, 6, 700, time.UTC))
	var resp fiatramp.Response
	err := e.client.Do(ctx(t), http.MethodGet, "/nowhere", nil, nil, fiatramp.CaptureResponse(&resp))
	require.Error(t, err)
	assert.Equal(t, "Mon, 03 Feb 2031 04:05:06 GMT", resp.Header.Get("Date"), "on a 404 too")
}

// A sandbox mounted under a path prefix authenticates as usual: the path
// is not signed, so only the base URL changes.
func TestAuthUnderPathPrefix(t *testing.T) {
	e := newEnv(t)
	mux := http.NewServeMux()
	mux.Handle("/gateway/fiatramp/", http.StripPrefix("/gateway/fiatramp", e.sb))
	ts := httptest.NewServer(mux)
	defer ts.Close()
	base := ts.URL + "/gateway/fiatramp"

	c, err := fiatramp.New(e.org.APIKey, e.org.APISecret, fiatramp.WithBaseURL(base), fiatramp.WithClock(e.sb.Now))
	require.NoError(t, err)
	cfg, err := c.KYC.GetConfiguration(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.NotEmpty(t, cfg.SupportedDocumentTypes)
	w, err := c.Customers.AddWallet(ctx(t), authWalletReq(e.cust.ID, "TPrefixed"))
	require.NoError(t, err)
	assert.Equal(t, "TPrefixed", w.WalletAddress)

	authOK(t, authSend(t, e, authGet(e), base), http.StatusOK)
	bad := authGet(e)
	bad.secret = "wrong"
	authRefused(t, authSend(t, e, bad, base), sandbox.CodeInvalidSignature, "Invalid Signature")

	wrong, err := fiatramp.New(e.org.APIKey, "wrong", fiatramp.WithBaseURL(base), fiatramp.WithClock(e.sb.Now))
	require.NoError(t, err)
	_, err = wrong.KYC.GetConfiguration(ctx(t), e.cust.ID)
	assert.True(t, errors.Is(err, fiatramp.ErrUnauthorized), "%v", err)

	// Outside the prefix it is the mux's 404, not the sandbox's.
	resp, err := http.Get(ts.URL + "/cms/api/v1/kyc/configuration/" + e.cust.ID.String())
	require.NoError(t, err)
	raw, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.NotContains(t, string(raw), `"status"`)
}

func TestContentTypeMustBeJSON(t *testing.T) {
	e := newEnv(t)
	body := `{"customer_id":"` + e.cust.ID.String() + `","wallet_address":"TMedia1"}`
	for _, tc := range []struct{ contentType, message string }{
		{"text/plain", `Unsupported media type "text/plain" in request.`},
		{"application/x-www-form-urlencoded", `Unsupported media type "application/x-www-form-urlencoded" in request.`},
		{"-", `Unsupported media type "" in request.`},
	} {
		rq := authWallet(body)
		rq.contentType = tc.contentType
		r := authSend(t, e, rq)
		assert.Equal(t, http.StatusUnsupportedMediaType, r.status, string(r.raw))
		assert.Equal(t, tc.message, r.body.Message)
		assert.Empty(t, r.body.ErrCode)
	}
	// Authentication comes first, as in the REST framework: a bad
	// signature is a 401 whatever the media type.
	rq := authWallet(body)
	rq.contentType, rq.sig = "text/plain", "bm9wZQ=="
	authRefused(t, authSend(t, e, rq), sandbox.CodeInvalidSignature, "Invalid Signature")

	rq = authWallet(body)
	rq.contentType = "application/json; charset=utf-8"
	authOK(t, authSend(t, e, rq), http.StatusOK)
}

// TestAuthSignatureIsItsOwn: no non-test file of the sandbox calls the
// client's fiatramp.Sign: the sandbox's signature (auth.go, crypto/hmac)
// is a second opinion, so that a bug in the client's signer cannot hide
// behind a sandbox that runs the same code. auth.go computes it with
// hmac.New and compares it with hmac.Equal.
func TestAuthSignatureIsItsOwn(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		require.NoError(t, err)
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "fiatramp" {
					assert.NotEqual(t, "Sign", sel.Sel.Name, "%s uses fiatramp.Sign", name)
				}
			}
			return true
		})
	}
	assert.Greater(t, checked, 10)

	// auth.go compares the signature it computed with hmac.Equal, in
	// constant time, and computes it with hmac.New.
	f, err := parser.ParseFile(token.NewFileSet(), "auth.go", nil, 0)
	require.NoError(t, err)
	calls := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok {
					calls[x.Name+"."+sel.Sel.Name] = true
				}
			}
		}
		return true
	})
	assert.True(t, calls["hmac.Equal"], "auth.go compares signatures with hmac.Equal")
	assert.True(t, calls["hmac.New"], "auth.go computes signatures with hmac.New")
}
