package webhook_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/webhook"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	testKey    = "org_key_4f1c"
	testSecret = "s3cr3t-webhook-secret-value"
)

var testNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

const typicalBody = `{"type":"PAYOUT","id":"0b5e7f6a-3c2d-4e1f-9a8b-7c6d5e4f3a2b","event":"SUCCESS",` +
	`"timestamp":"2026-11-23T11:59:58.123456Z","metadata":{"utr":"UTR202611230001","failure_reason":null}}`

// signed returns headers carrying the signature computed independently of
// package webhook: fiatramp.Sign over fiatramp.CanonicalizeJSON.
func signed(t testing.TB, key, secret string, ts int64, body string) http.Header {
	t.Helper()
	c, err := fiatramp.CanonicalizeJSON([]byte(body))
	require.NoError(t, err)
	h := http.Header{}
	h.Set("X-TIMESTAMP", strconv.FormatInt(ts, 10))
	h.Set("X-SIGNATURE", fiatramp.Sign(key, secret, ts, c))
	return h
}

type oracleCase struct {
	name, key, secret, body string
	check                   func(t *testing.T, ev *webhook.Event)
}

var oracleCases = []oracleCase{
	{name: "typical", key: testKey, secret: testSecret, body: typicalBody, check: func(t *testing.T, ev *webhook.Event) {
		assert.Equal(t, webhook.TypePayout, ev.Type)
		assert.Equal(t, "0b5e7f6a-3c2d-4e1f-9a8b-7c6d5e4f3a2b", ev.ID)
		assert.Equal(t, webhook.EventSuccess, ev.Event)
		assert.Equal(t, time.Date(2026, 11, 23, 11, 59, 58, 123456000, time.UTC), ev.Timestamp)
		require.NotNil(t, ev.Metadata.UTR)
		assert.Equal(t, "UTR202611230001", *ev.Metadata.UTR)
		assert.Nil(t, ev.Metadata.FailureReason)
		assert.JSONEq(t, `{"utr":"UTR202611230001","failure_reason":null}`, string(ev.Metadata.Raw))
	}},
	{name: "client reference", key: testKey, secret: testSecret,
		body: `{"type":"PAYOUT","id":"p-9","event":"FAILED","timestamp":null,"metadata":{"client_reference_id":"order-1001","failure_reason":"Beneficiary bank down"}}`,
		check: func(t *testing.T, ev *webhook.Event) {
			require.NotNil(t, ev.Metadata.ClientReferenceID)
			assert.Equal(t, "order-1001", *ev.Metadata.ClientReferenceID)
			assert.Equal(t, "Beneficiary bank down", *ev.Metadata.FailureReason)
		}},
	{name: "null client reference", key: testKey, secret: testSecret,
		body: `{"type":"PAYIN","id":"q-9","event":"SUCCESS","metadata":{"client_reference_id":null,"utr":"UTR1"}}`,
		check: func(t *testing.T, ev *webhook.Event) {
			assert.Nil(t, ev.Metadata.ClientReferenceID)
			assert.Equal(t, `{"client_reference_id":null,"utr":"UTR1"}`, string(ev.Metadata.Raw))
		}},
	{name: "pretty-printed, unsorted keys", key: testKey, secret: testSecret,
		body: "{\n  \"metadata\" : {\"rfi_link\": \"https://x.example/rfi?a=1&b=2\"},\n\t\"event\": \"IN_REVIEW\",\r\n \"id\":\"p-2\", \"type\":\"PAYOUT\", \"timestamp\": 1795435198}\n",
		check: func(t *testing.T, ev *webhook.Event) {
			assert.Equal(t, webhook.EventInReview, ev.Event)
			assert.Equal(t, "https://x.example/rfi?a=1&b=2", *ev.Metadata.RFILink)
			assert.Equal(t, time.Unix(1795435198, 0).UTC(), ev.Timestamp)
		}},
	{name: "non-ASCII, escapes, emoji", key: testKey, secret: testSecret,
		body: `{"type":"CUSTOMER","id":"c-\u00e9\/1","event":"FAILED","timestamp":null,"metadata":{"failure_reason":"Nom ne correspond pas: José 😀 \"quoted\" \\ tab\t"}}`,
		check: func(t *testing.T, ev *webhook.Event) {
			assert.Equal(t, "c-é/1", ev.ID)
			assert.Equal(t, "Nom ne correspond pas: José 😀 \"quoted\" \\ tab\t", *ev.Metadata.FailureReason)
			assert.True(t, ev.Timestamp.IsZero())
		}},
	{name: "duplicate keys: the last wins, also through escapes", key: testKey, secret: testSecret,
		body: `{"type":"PAYOUT","id":"first","event":"FAILED","\u0065vent":"REFUNDED","id":"second","metadata":{"refund_reason":"a","refund_reason":"b"}}`,
		check: func(t *testing.T, ev *webhook.Event) {
			assert.Equal(t, "second", ev.ID)
			assert.Equal(t, webhook.EventRefunded, ev.Event)
			assert.Equal(t, "b", *ev.Metadata.RefundReason)
			assert.Equal(t, `{"refund_reason":"b"}`, string(ev.Metadata.Raw))
		}},
	{name: "numbers Python rewrites", key: testKey, secret: testSecret,
		body: `{"type":"PAYIN","id":"q1","event":"SUCCESS","metadata":{"amount":1.10,"rate":1E2,"big":123456789012345678901234567890,"neg":-0,"nested":{"z":[1,2.50,{"b":1,"a":2}]}}}`,
		check: func(t *testing.T, ev *webhook.Event) {
			assert.Equal(t, webhook.TypePayin, ev.Type)
			assert.Equal(t, `{"amount":1.1,"big":123456789012345678901234567890,"neg":0,"nested":{"z":[1,2.5,{"a":2,"b":1}]},"rate":100.0}`, string(ev.Metadata.Raw))
		}},
	{name: "byte order mark", key: testKey, secret: testSecret,
		body:  "\ufeff" + `{"type":"BANK","id":"b1","event":"VERIFIED"}`,
		check: func(t *testing.T, ev *webhook.Event) { assert.Equal(t, webhook.TypeBank, ev.Type) }},
	{name: "unknown type and event kept as text", key: testKey, secret: testSecret,
		body: `{"type":"WALLET","id":"w1","event":"FROZEN","metadata":{}}`,
		check: func(t *testing.T, ev *webhook.Event) {
			assert.Equal(t, webhook.Type("WALLET"), ev.Type)
			assert.Equal(t, webhook.EventName("FROZEN"), ev.Event)
			assert.False(t, ev.IsKnown())
			assert.Equal(t, `{}`, string(ev.Metadata.Raw))
		}},
	{name: "non-ASCII and long secret, odd key", key: "kéy|with|bars", secret: strings.Repeat("sécret", 20),
		body:  `{"type":"EDD","id":"e1","event":"VERIFIED"}`,
		check: func(t *testing.T, ev *webhook.Event) { assert.Equal(t, webhook.TypeEDD, ev.Type) }},
}

// pythonSignatures computes the service's signature of each case in one
// python3 process running testdata/sign.py.
func pythonSignatures(t *testing.T, cases []oracleCase, ts int64) []string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: signatures cannot be checked against the service's Python formula")
	}
	var in bytes.Buffer
	enc := base64.StdEncoding.EncodeToString
	for _, c := range cases {
		in.WriteString(enc([]byte(c.key)) + " " + enc([]byte(c.secret)) + " " + strconv.FormatInt(ts, 10) + " " + enc([]byte(c.body)) + "\n")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "testdata/sign.py")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "python3: %s", stderr.String())
	var sigs []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		sigs = append(sigs, sc.Text())
	}
	require.Len(t, sigs, len(cases))
	return sigs
}

func TestVerifyAcceptsPythonSignatures(t *testing.T) {
	ts := testNow.Unix() - 2
	sigs := pythonSignatures(t, oracleCases, ts)
	for i, c := range oracleCases {
		t.Run(c.name, func(t *testing.T) {
			require.NotEqual(t, "ERR", sigs[i], "Python refused the body")
			h := http.Header{}
			h.Set("X-Timestamp", strconv.FormatInt(ts, 10))
			h.Set("X-Signature", sigs[i])
			ev, err := webhook.Verify(c.key, c.secret, h, []byte(c.body), testNow)
			require.NoError(t, err)
			c.check(t, ev)

			// The test signer produces the very same signature.
			sh, err := webhook.Sign(c.key, c.secret, []byte(c.body), time.Unix(ts, 0))
			require.NoError(t, err)
			assert.Equal(t, sigs[i], sh.Get("X-SIGNATURE"))
			assert.Equal(t, strconv.FormatInt(ts, 10), sh.Get("X-TIMESTAMP"))
			assert.Equal(t, "application/json", sh.Get("Content-Type"))

			// One byte of the signature changed is refused.
			bad := []byte(sigs[i])
			bad[3] ^= 1
			h.Set("X-Signature", string(bad))
			_, err = webhook.Verify(c.key, c.secret, h, []byte(c.body), testNow)
			assert.ErrorIs(t, err, webhook.ErrInvalidSignature)
		})
	}
}

func TestVerifyTolerance(t *testing.T) {
	body := typicalBody
	at := func(off time.Duration, opts ...webhook.Option) error {
		ts := testNow.Add(off).Unix()
		_, err := webhook.Verify(testKey, testSecret, signed(t, testKey, testSecret, ts, body), []byte(body), testNow, opts...)
		return err
	}
	require.NoError(t, at(-300*time.Second))
	require.NoError(t, at(300*time.Second))
	require.NoError(t, at(0))

	err := at(-301 * time.Second)
	require.ErrorIs(t, err, webhook.ErrStaleTimestamp)
	assert.Contains(t, err.Error(), "5m1s old")
	err = at(301 * time.Second)
	require.ErrorIs(t, err, webhook.ErrStaleTimestamp)
	assert.Contains(t, err.Error(), "in the future")
	assert.NotErrorIs(t, err, webhook.ErrInvalidSignature)

	// A year-old delivery, and one from 1970: no overflow, still stale.
	require.ErrorIs(t, at(-365*24*time.Hour), webhook.ErrStaleTimestamp)
	_, err = webhook.Verify(testKey, testSecret, signed(t, testKey, testSecret, 0, body), []byte(body), testNow)
	require.ErrorIs(t, err, webhook.ErrStaleTimestamp)
	_, err = webhook.Verify(testKey, testSecret, signed(t, testKey, testSecret, 999999999999999999, body), []byte(body), testNow)
	require.ErrorIs(t, err, webhook.ErrStaleTimestamp)

	// A changed tolerance, both ways.
	require.NoError(t, at(-10*time.Second, webhook.WithTolerance(10*time.Second)))
	require.ErrorIs(t, at(-11*time.Second, webhook.WithTolerance(10*time.Second)), webhook.ErrStaleTimestamp)
	require.ErrorIs(t, at(11*time.Second, webhook.WithTolerance(10*time.Second)), webhook.ErrStaleTimestamp)
	require.NoError(t, at(-time.Hour, webhook.WithTolerance(2*time.Hour)))
	// Zero or negative cannot switch the check off: the default stays.
	require.ErrorIs(t, at(-301*time.Second, webhook.WithTolerance(0)), webhook.ErrStaleTimestamp)
	require.ErrorIs(t, at(-301*time.Second, webhook.WithTolerance(-time.Hour)), webhook.ErrStaleTimestamp)
	require.NoError(t, at(-299*time.Second, webhook.WithTolerance(0)))
}

// refusal is a delivery Verify must refuse, with the sentinel and a word
// of the message that says what failed.
type refusal struct {
	name    string
	headers http.Header
	body    string
	opts    []webhook.Option
	want    error
	says    string
}

func refusals(t testing.TB) []refusal {
	ts := testNow.Unix()
	good := func() http.Header { return signed(t, testKey, testSecret, ts, typicalBody) }
	with := func(mod func(h http.Header)) http.Header { h := good(); mod(h); return h }
	signedBody := func(body string) refusal {
		return refusal{headers: signed(t, testKey, testSecret, ts, body), body: body, want: webhook.ErrMalformed}
	}
	var rs []refusal
	add := func(r refusal, name, says string) {
		r.name, r.says = name, says
		if r.body == "" && r.headers == nil {
			r.body = typicalBody
		}
		rs = append(rs, r)
	}
	// Headers.
	add(refusal{headers: with(func(h http.Header) { h.Del("X-Timestamp") }), body: typicalBody, want: webhook.ErrMalformed}, "no timestamp", "no X-TIMESTAMP")
	add(refusal{headers: with(func(h http.Header) { h.Set("X-Timestamp", "") }), body: typicalBody, want: webhook.ErrMalformed}, "empty timestamp", "no X-TIMESTAMP")
	add(refusal{headers: with(func(h http.Header) { h.Add("X-Timestamp", strconv.FormatInt(ts, 10)) }), body: typicalBody, want: webhook.ErrMalformed}, "two timestamps", "2 X-TIMESTAMP")
	for _, v := range []string{"abc", "+" + strconv.FormatInt(ts, 10), "0" + strconv.FormatInt(ts, 10), strconv.FormatInt(ts, 10) + ".0", " " + strconv.FormatInt(ts, 10), "-" + strconv.FormatInt(ts, 10), "1234567890123456789", strconv.FormatInt(ts*1000, 10)} {
		want, says := webhook.ErrMalformed, "not decimal Unix seconds"
		if v == strconv.FormatInt(ts*1000, 10) {
			want, says = webhook.ErrStaleTimestamp, "in the future" // milliseconds are far in the future
		}
		add(refusal{headers: with(func(h http.Header) { h.Set("X-Timestamp", v) }), body: typicalBody, want: want}, "timestamp "+strconv.Quote(v), says)
	}
	add(refusal{headers: with(func(h http.Header) { h.Set("X-Timestamp", strconv.FormatInt(ts-301, 10)) }), body: typicalBody, want: webhook.ErrStaleTimestamp}, "stale", "old")
	add(refusal{headers: with(func(h http.Header) { h.Set("X-Timestamp", strconv.FormatInt(ts+301, 10)) }), body: typicalBody, want: webhook.ErrStaleTimestamp}, "future", "in the future")
	add(refusal{headers: with(func(h http.Header) { h.Del("X-Signature") }), body: typicalBody, want: webhook.ErrInvalidSignature}, "no signature", "no X-SIGNATURE")
	add(refusal{headers: with(func(h http.Header) { h.Set("X-Signature", "") }), body: typicalBody, want: webhook.ErrInvalidSignature}, "empty signature", "no X-SIGNATURE")
	add(refusal{headers: with(func(h http.Header) { h.Add("X-Signature", h.Get("X-Signature")) }), body: typicalBody, want: webhook.ErrInvalidSignature}, "two signatures", "2 X-SIGNATURE")
	// Signatures that are not the service's.
	add(refusal{headers: signed(t, testKey, "other-secret", ts, typicalBody), body: typicalBody, want: webhook.ErrInvalidSignature}, "other secret", "does not match")
	add(refusal{headers: signed(t, "other_key", testSecret, ts, typicalBody), body: typicalBody, want: webhook.ErrInvalidSignature}, "other key", "does not match")
	add(refusal{headers: with(func(h http.Header) { h.Set("X-Timestamp", strconv.FormatInt(ts-1, 10)) }), body: typicalBody, want: webhook.ErrInvalidSignature}, "timestamp changed after signing", "does not match")
	add(refusal{headers: good(), body: strings.Replace(typicalBody, "SUCCESS", "FAILED", 1), want: webhook.ErrInvalidSignature}, "body changed after signing", "does not match")
	add(refusal{headers: with(func(h http.Header) {
		s := h.Get("X-Signature")
		h.Set("X-Signature", strings.TrimRight(s, "="))
	}), body: typicalBody, want: webhook.ErrInvalidSignature}, "signature without padding", "does not match")
	add(refusal{headers: with(func(h http.Header) {
		raw, _ := base64.StdEncoding.DecodeString(h.Get("X-Signature"))
		h.Set("X-Signature", base64.RawURLEncoding.EncodeToString(raw)+"x")
	}), body: typicalBody, want: webhook.ErrInvalidSignature}, "signature in another encoding", "does not match")
	add(refusal{headers: with(func(h http.Header) {
		raw, _ := base64.StdEncoding.DecodeString(h.Get("X-Signature"))
		h.Set("X-Signature", strings.ToUpper(strings.TrimRight(base64.StdEncoding.EncodeToString(raw), "=")))
	}), body: typicalBody, want: webhook.ErrInvalidSignature}, "signature upper-cased", "does not match")
	// Bodies that are not JSON (checked before the signature: no valid
	// signature of them exists).
	for _, b := range []string{"", "   ", "{", `{"type":"PAYOUT",}`, `{"type":"PAYOUT"} {}`, "{\"a\":\"\xff\"}", `{'type':'PAYOUT'}`} {
		add(refusal{headers: good(), body: b, want: webhook.ErrMalformed}, "not JSON "+strconv.Quote(b), "not JSON")
	}
	add(refusal{headers: good(), body: typicalBody, opts: []webhook.Option{webhook.WithMaxBodyBytes(100)}, want: webhook.ErrMalformed}, "larger than the cap", "larger than the cap of 100 bytes")
	// Signed bodies that are not events.
	for _, c := range []struct{ body, says string }{
		{`[]`, "not a JSON object"},
		{`null`, "not a JSON object"},
		{`"PAYOUT"`, "not a JSON object"},
		{`{"id":"p1","event":"SUCCESS"}`, `no "type"`},
		{`{"type":null,"id":"p1","event":"SUCCESS"}`, `no "type"`},
		{`{"type":"","id":"p1","event":"SUCCESS"}`, `"type" is empty`},
		{`{"type":7,"id":"p1","event":"SUCCESS"}`, `"type" is not a string`},
		{`{"type":"PAYOUT","event":"SUCCESS"}`, `no "id"`},
		{`{"type":"PAYOUT","id":12345,"event":"SUCCESS"}`, `"id" is not a string`},
		{`{"type":"PAYOUT","id":["p1"],"event":"SUCCESS"}`, `"id" is not a string`},
		{`{"type":"PAYOUT","id":"p1"}`, `no "event"`},
		{`{"type":"PAYOUT","id":"p1","event":{}}`, `"event" is not a string`},
		{`{"Type":"PAYOUT","ID":"p1","Event":"SUCCESS"}`, `no "type"`},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","TYPE":"X"}`, ``},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","timestamp":"yesterday"}`, `"timestamp"`},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","timestamp":true}`, `"timestamp"`},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","timestamp":1e300}`, `"timestamp"`},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","timestamp":{}}`, `"timestamp"`},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","metadata":"utr"}`, `"metadata" is not an object`},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","metadata":[]}`, `"metadata" is not an object`},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","metadata":{"utr":12345}}`, `"metadata.utr" is not a string`},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","metadata":{"failure_reason":{}}}`, `"metadata.failure_reason" is not a string`},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","metadata":{"utr":NaN}}`, `"metadata.utr" is not a string`},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","metadata":{"client_reference_id":1001}}`, `"metadata.client_reference_id" is not a string`},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","timestamp":-Infinity}`, `"timestamp" -Infinity`},
		{`{"type":"PAYOUT","id":"p1","event":"SUCCESS","timestamp":NaN}`, `"timestamp" NaN`},
	} {
		if c.says == "" {
			continue // a valid event: see TestVerifyExactKeys
		}
		add(signedBody(c.body), "event "+c.body, c.says)
	}
	return rs
}

func TestVerifyRefusals(t *testing.T) {
	want := fiatramp.Sign(testKey, testSecret, testNow.Unix(), mustCanon(t, typicalBody))
	for _, r := range refusals(t) {
		t.Run(r.name, func(t *testing.T) {
			ev, err := webhook.Verify(testKey, testSecret, r.headers, []byte(r.body), testNow, r.opts...)
			require.Error(t, err)
			assert.Nil(t, ev)
			assert.ErrorIs(t, err, r.want)
			for _, other := range []error{webhook.ErrMalformed, webhook.ErrInvalidSignature, webhook.ErrStaleTimestamp} {
				if other != r.want {
					assert.NotErrorIs(t, err, other)
				}
			}
			assert.Contains(t, err.Error(), r.says)
			assert.NotContains(t, err.Error(), testSecret)
			assert.NotContains(t, err.Error(), want, "the expected signature leaked")
			assert.NotContains(t, err.Error(), want[:12], "part of the expected signature leaked")
		})
	}
}

func mustCanon(t testing.TB, body string) []byte {
	c, err := fiatramp.CanonicalizeJSON([]byte(body))
	require.NoError(t, err)
	return c
}

func TestVerifyExactKeys(t *testing.T) {
	// Keys that differ in case are other keys: ignored, not merged.
	body := `{"TYPE":"BANK","type":"PAYOUT","Id":"x","id":"p1","event":"SUCCESS","Event":"FAILED","metadata":{"UTR":"upper","utr":"lower","Failure_Reason":"x"}}`
	ev, err := webhook.Verify(testKey, testSecret, signed(t, testKey, testSecret, testNow.Unix(), body), []byte(body), testNow)
	require.NoError(t, err)
	assert.Equal(t, webhook.TypePayout, ev.Type)
	assert.Equal(t, "p1", ev.ID)
	assert.Equal(t, webhook.EventSuccess, ev.Event)
	assert.Equal(t, "lower", *ev.Metadata.UTR)
	assert.Nil(t, ev.Metadata.FailureReason)
}

func TestVerifyKeepsWhatItDoesNotType(t *testing.T) {
	// Python's json.dumps writes NaN and Infinity; in a member this package
	// does not type they cannot stop an authentic event.
	body := `{"type":"PAYIN","id":"q1","event":"FAILED","extra":[NaN],"metadata":{"rate":Infinity,"failure_reason":"x","deep":{"a":[{"b":"}"}]}}}`
	ev, err := webhook.Verify(testKey, testSecret, signed(t, testKey, testSecret, testNow.Unix(), body), []byte(body), testNow)
	require.NoError(t, err)
	assert.Equal(t, "x", *ev.Metadata.FailureReason)
	assert.Equal(t, `{"deep":{"a":[{"b":"}"}]},"failure_reason":"x","rate":Infinity}`, string(ev.Metadata.Raw))
}

// TestVerifyNesting: an authentic event is read however deeply a member it
// does not type nests, up to the canonicalizer's 10,000 levels (the event
// object counting as one); one more is not JSON to the signature check.
func TestVerifyNesting(t *testing.T) {
	body := func(levels int) string {
		n := levels - 2 // the event and its metadata
		return `{"type":"PAYOUT","id":"p1","event":"SUCCESS","metadata":{"utr":"U1","deep":` +
			strings.Repeat("[", n) + strings.Repeat("]", n) + `}}`
	}
	deep := body(10000)
	ev, err := webhook.Verify(testKey, testSecret, signed(t, testKey, testSecret, testNow.Unix(), deep), []byte(deep), testNow)
	require.NoError(t, err)
	assert.Equal(t, "U1", *ev.Metadata.UTR)

	deeper := body(10001)
	_, err = webhook.Verify(testKey, testSecret, signed(t, testKey, testSecret, testNow.Unix(), "{}"), []byte(deeper), testNow)
	require.ErrorIs(t, err, webhook.ErrMalformed)
	assert.Contains(t, err.Error(), "10000 levels")
}

func TestVerifyTimestampForms(t *testing.T) {
	cases := []struct {
		ts   string
		want time.Time
	}{
		{`"2026-11-23T11:59:58Z"`, time.Date(2026, 11, 23, 11, 59, 58, 0, time.UTC)},
		{`"2026-11-23T17:29:58.5+05:30"`, time.Date(2026, 11, 23, 11, 59, 58, 5e8, time.UTC)},
		{`"2026-11-23T11:59:58.123456"`, time.Date(2026, 11, 23, 11, 59, 58, 123456000, time.UTC)},
		{`"2026-11-23 11:59:58"`, time.Date(2026, 11, 23, 11, 59, 58, 0, time.UTC)},
		{`"2026-11-23t11:59:58z"`, time.Date(2026, 11, 23, 11, 59, 58, 0, time.UTC)},
		{`1795435198`, time.Unix(1795435198, 0)},
		{`1795435198.25`, time.Unix(1795435198, 25e7)},
		{`"1795435198"`, time.Unix(1795435198, 0)},
		{`-1.5`, time.Unix(-1, -5e8)},
		{`1.7954351985e9`, time.Unix(1795435198, 5e8)}, // canonical JSON makes it 1795435198.5
		{`null`, time.Time{}},
	}
	for _, c := range cases {
		body := `{"type":"PAYOUT","id":"p1","event":"SUCCESS","timestamp":` + c.ts + `}`
		ev, err := webhook.Verify(testKey, testSecret, signed(t, testKey, testSecret, testNow.Unix(), body), []byte(body), testNow)
		require.NoError(t, err, c.ts)
		assert.True(t, c.want.Equal(ev.Timestamp), "%s: got %v", c.ts, ev.Timestamp)
	}
	body := `{"type":"PAYOUT","id":"p1","event":"SUCCESS"}`
	ev, err := webhook.Verify(testKey, testSecret, signed(t, testKey, testSecret, testNow.Unix(), body), []byte(body), testNow)
	require.NoError(t, err)
	assert.True(t, ev.Timestamp.IsZero())
	assert.Nil(t, ev.Metadata.Raw)
}

func TestVerifyHeaderNamesAnyCase(t *testing.T) {
	h := signed(t, testKey, testSecret, testNow.Unix(), typicalBody)
	// A server sees canonical header keys; a hand-made map may hold the
	// spelling of the service.
	raw := http.Header{"X-TIMESTAMP": nil, "X-SIGNATURE": nil}
	raw["X-Timestamp"] = h["X-Timestamp"]
	raw["X-Signature"] = h["X-Signature"]
	_, err := webhook.Verify(testKey, testSecret, raw, []byte(typicalBody), testNow)
	require.NoError(t, err)
}

func TestErrorsAreDistinct(t *testing.T) {
	all := []error{webhook.ErrInvalidSignature, webhook.ErrStaleTimestamp, webhook.ErrMalformed}
	for i, a := range all {
		for j, b := range all {
			assert.Equal(t, i == j, errors.Is(a, b))
		}
	}
}

// FuzzVerify feeds Verify any body and X-TIMESTAMP, signed when the body is
// JSON: it must never panic, must refuse with one of its three errors, and
// an accepted event must have its required fields.
func FuzzVerify(f *testing.F) {
	f.Add([]byte(typicalBody), "1795435200", true)
	f.Add([]byte(`{"type":"PAYOUT","id":"p","event":"X","metadata":{"utr":NaN}}`), "1795435200", true)
	f.Add([]byte(`[`), "17954352000", false)
	f.Add([]byte(`{"type":"\ud800","id":"\u0000","event":"E","timestamp":-1e999}`), "0", true)
	f.Fuzz(func(t *testing.T, body []byte, ts string, sign bool) {
		h := http.Header{}
		h.Set("X-Timestamp", ts)
		if sign {
			if n, err := strconv.ParseInt(ts, 10, 64); err == nil {
				if sh, err := webhook.Sign(testKey, testSecret, body, time.Unix(n, 0)); err == nil {
					h.Set("X-Signature", sh.Get("X-Signature"))
				}
			}
		}
		ev, err := webhook.Verify(testKey, testSecret, h, body, testNow)
		if err != nil {
			require.Nil(t, ev)
			require.True(t, errors.Is(err, webhook.ErrMalformed) || errors.Is(err, webhook.ErrInvalidSignature) ||
				errors.Is(err, webhook.ErrStaleTimestamp), "%v", err)
			require.NotContains(t, err.Error(), testSecret)
			return
		}
		require.NotEmpty(t, ev.Type)
		require.NotEmpty(t, ev.ID)
		require.NotEmpty(t, ev.Event)
		if ev.Metadata.Raw != nil {
			require.Equal(t, byte('{'), ev.Metadata.Raw[0])
		}
	})
}

// An empty secret (an unset environment variable) must not turn
// verification into a formality: with key and secret both empty anybody
// can compute the signature, so nothing is accepted, not even a delivery
// correctly signed with the empty secret.
func TestVerifyRefusesAnEmptySecret(t *testing.T) {
	for _, key := range []string{"", testKey} {
		h := signed(t, key, "", testNow.Unix(), typicalBody)
		ev, err := webhook.Verify(key, "", h, []byte(typicalBody), testNow)
		require.ErrorIs(t, err, webhook.ErrInvalidSignature, "key %q", key)
		assert.Nil(t, ev)
		assert.Contains(t, err.Error(), "API secret is empty")
	}
}

// A header map built by hand (from a serverless event, a test) may hold
// the names in any spelling, not only http.Header's canonical one: an
// authentic delivery must not be refused for it, and a value under a
// second spelling still counts as a second header.
func TestVerifyHeaderMapBuiltByHand(t *testing.T) {
	h := signed(t, testKey, testSecret, testNow.Unix(), typicalBody)
	ts, sig := h.Get("X-Timestamp"), h.Get("X-Signature")
	for _, names := range [][2]string{{"X-TIMESTAMP", "X-SIGNATURE"}, {"x-timestamp", "x-signature"}, {"X-Timestamp", "x-SIGNATURE"}} {
		raw := http.Header{names[0]: {ts}, names[1]: {sig}, "content-type": {"application/json"}}
		ev, err := webhook.Verify(testKey, testSecret, raw, []byte(typicalBody), testNow)
		require.NoError(t, err, "%v", names)
		assert.Equal(t, webhook.EventSuccess, ev.Event)
	}
	twice := http.Header{"X-Timestamp": {ts}, "X-Signature": {sig}, "x-signature": {sig}}
	_, err := webhook.Verify(testKey, testSecret, twice, []byte(typicalBody), testNow)
	require.ErrorIs(t, err, webhook.ErrInvalidSignature)
	assert.Contains(t, err.Error(), "2 X-SIGNATURE headers")
	twice = http.Header{"X-TIMESTAMP": {ts}, "x-timestamp": {ts}, "X-Signature": {sig}}
	_, err = webhook.Verify(testKey, testSecret, twice, []byte(typicalBody), testNow)
	require.ErrorIs(t, err, webhook.ErrMalformed)
	assert.Contains(t, err.Error(), "2 X-TIMESTAMP headers")
}

// BenchmarkVerify measures one verification of a typical event (about 200
// bytes): header checks, canonical JSON, HMAC, constant-time comparison and
// decoding.
func BenchmarkVerify(b *testing.B) {
	h := signed(b, testKey, testSecret, testNow.Unix(), typicalBody)
	body := []byte(typicalBody)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for range b.N {
		if _, err := webhook.Verify(testKey, testSecret, h, body, testNow); err != nil {
			b.Fatal(err)
		}
	}
}
