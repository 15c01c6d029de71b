package fiatramp_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// The fake service is mounted under a base path, so a call that builds an
// absolute path from the host root, or hits another route, finds no
// responder and fails.
const (
	testKey    = "key_live_7Hq2"
	testSecret = "sk_9f8e7d6c5b4a-NEVER-PRINT"
	testHost   = "https://api.fiatramp.test"
	testBase   = testHost + "/gateway"
)

var (
	testNow        = time.Unix(1767225600, 0)
	customerID     = uuid.MustParse("0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01")
	bankID         = uuid.MustParse("1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12")
	quotationID    = uuid.MustParse("2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23")
	payoutID       = uuid.MustParse("3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34")
	senderID       = uuid.MustParse("4fa03f5c-7d8e-4a99-9eb2-6b5d0c2e3f45")
	remitterID     = uuid.MustParse("50b1406d-8e9f-4baa-8fc3-7c6e1d3f4056")
	walletID       = uuid.MustParse("61c2517e-9fa0-4cbb-90d4-8d7f2e405167")
	payinQuotation = uuid.MustParse("72d36280-a0b1-4dcc-a1e5-9e80f3516278")
)

type harness struct {
	t      *testing.T
	mock   *httpmock.MockTransport
	client *fiatramp.Client
}

func newHarness(t *testing.T, opts ...fiatramp.Option) *harness {
	t.Helper()
	mt := httpmock.NewMockTransport()
	base := []fiatramp.Option{
		fiatramp.WithBaseURL(testBase),
		fiatramp.WithHTTPClient(&http.Client{Transport: mt}),
		fiatramp.WithClock(func() time.Time { return testNow }),
		// One request per call, so that a responder sees each call once;
		// retry_test.go covers retries.
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}),
	}
	c, err := fiatramp.New(testKey, testSecret, append(base, opts...)...)
	require.NoError(t, err)
	return &harness{t: t, mock: mt, client: c}
}

// sign is the test's own HMAC, independent of fiatramp.Sign.
func sign(ts int64, body string) string {
	m := hmac.New(sha256.New, []byte(testSecret))
	m.Write([]byte(testKey + "|" + strconv.FormatInt(ts, 10) + "|" + body))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// expect answers one route with status and respBody, and checks that the
// request arriving there carries exactly wantBody ("" for none), signed over
// wantBody (or "{}" when there is none) with the test clock's timestamp.
// It returns the number of calls that arrived.
func (h *harness) expect(method, path, wantBody string, status int, respBody string) *atomic.Int32 {
	h.t.Helper()
	var calls atomic.Int32
	t := h.t
	h.mock.RegisterResponder(method, testBase+path, func(req *http.Request) (*http.Response, error) {
		calls.Add(1)
		assertSigned(t, req, testNow.Unix(), wantBody)
		return httpmock.NewStringResponse(status, respBody), nil
	})
	return &calls
}

func assertSigned(t *testing.T, req *http.Request, ts int64, wantBody string) {
	t.Helper()
	var got []byte
	if req.Body != nil {
		var err error
		got, err = io.ReadAll(req.Body)
		assert.NoError(t, err)
	}
	assert.Equal(t, wantBody, string(got), "body bytes")
	signed := wantBody
	if signed == "" {
		signed = "{}"
		assert.Empty(t, req.Header.Get("Content-Type"), "Content-Type without a body")
	} else {
		assert.Equal(t, "application/json", req.Header.Get("Content-Type"))
	}
	assert.Equal(t, testKey, req.Header.Get("X-API-KEY"))
	assert.Equal(t, strconv.FormatInt(ts, 10), req.Header.Get("X-TIMESTAMP"))
	assert.Equal(t, sign(ts, signed), req.Header.Get("X-SIGNATURE"), "signature over %s", signed)
	assert.Equal(t, "application/json", req.Header.Get("Accept"))
	assert.Contains(t, req.Header.Get("User-Agent"), "fiatramp-go/"+fiatramp.Version)
}

// ok wraps data in the success envelope of interface.md §2.1.
func ok(data string) string {
	return `{"status":true,"message":"Success","data":` + data + `}`
}

// fail builds the error envelope of interface.md §7.
func fail(message, code, errs string) string {
	return `{"status":false,"message":"` + message + `","err_code":"` + code + `","errors":` + errs + `,"data":null}`
}

// jsonQuote returns s as a JSON string.
func jsonQuote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}
