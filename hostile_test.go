package fiatramp_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// hostileCall is one operation run against a broken service: it reports
// whether a result came back, and the error.
type hostileCall struct {
	name string
	run  func(ctx context.Context, c *fiatramp.Client) (gotResult bool, err error)
}

var hostileCalls = []hostileCall{
	{"Payouts.Get", func(ctx context.Context, c *fiatramp.Client) (bool, error) {
		p, err := c.Payouts.Get(ctx, payoutID)
		return p != nil, err
	}},
	{"Customers.ListBankAccounts", func(ctx context.Context, c *fiatramp.Client) (bool, error) {
		p, err := c.Customers.ListBankAccounts(ctx, customerID)
		return p != nil, err
	}},
	{"Payouts.Create", func(ctx context.Context, c *fiatramp.Client) (bool, error) {
		p, err := c.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID, ClientReferenceID: "hostile-1"})
		return p != nil, err
	}},
	{"KYC.GetConfiguration", func(ctx context.Context, c *fiatramp.Client) (bool, error) {
		k, err := c.KYC.GetConfiguration(ctx, customerID)
		return k != nil, err
	}},
}

// checkErrorText fails when an error text could break a log line or a
// terminal: control characters or invalid UTF-8.
func checkErrorText(t *testing.T, msg string) {
	t.Helper()
	assert.True(t, utf8.ValidString(msg), "Error() is valid UTF-8: %q", msg)
	for _, r := range msg {
		if unicode.IsControl(r) {
			t.Errorf("control character %q in Error() %q", r, msg)
			return
		}
	}
}

// hostileServer answers every request with status, contentType and body.
func hostileServer(t *testing.T, status int, contentType string, body []byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func hostileClient(t *testing.T, base string, opts ...fiatramp.Option) *fiatramp.Client {
	t.Helper()
	c, err := fiatramp.New(testKey, testSecret, append([]fiatramp.Option{
		fiatramp.WithBaseURL(base),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}),
	}, opts...)...)
	require.NoError(t, err)
	return c
}

// responseError returns the *APIError of a call that got a response, and
// the error to test sentinels on: err itself, or for a payout create whose
// outcome is unknown (an *OutcomeUnknownError, which deliberately does not
// unwrap) the last attempt's error it keeps in Err.
func responseError(err error) (*fiatramp.APIError, error) {
	var ou *fiatramp.OutcomeUnknownError
	if errors.As(err, &ou) {
		err = ou.Err
	}
	var apiErr *fiatramp.APIError
	if errors.As(err, &apiErr) {
		return apiErr, err
	}
	return nil, err
}

const htmlProxyPage = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"

// TestHostileResponses sends broken answers through the whole client (real
// HTTP over loopback): every call returns an *APIError, never panics, never
// a nil error without a result; a broken 2xx matches ErrMalformedResponse.
func TestHostileResponses(t *testing.T) {
	pid := `"` + payoutID.String() + `"`
	for name, tc := range map[string]struct {
		status int
		ctype  string
		body   string
		also   error // a further sentinel every call must match
	}{
		"HTML proxy page 502":   {502, "text/html", htmlProxyPage, fiatramp.ErrUnavailable},
		"HTML proxy page 200":   {200, "text/html", htmlProxyPage, nil},
		"plain text 200":        {200, "text/plain", "OK", nil},
		"truncated JSON 200":    {200, "application/json", `{"status":true,"message":"Success","data":{"id":` + pid[:10], nil},
		"truncated JSON 500":    {500, "application/json", `{"success":false,"message":"Internal Server Er`, fiatramp.ErrInternal},
		"data is an array":      {200, "application/json", ok(`[{"id":` + pid + `}]`), nil},
		"data is a string":      {200, "application/json", ok(`"ok"`), nil},
		"data is a number":      {200, "application/json", ok(`42`), nil},
		"data is null":          {200, "application/json", ok(`null`), nil},
		"data missing":          {200, "application/json", `{"status":true,"message":"Success"}`, nil},
		"amount is an object":   {200, "application/json", ok(`{"id":` + pid + `,"sending_amount":{"value":"10"},"count":{"value":1},"results":[],"supported_document_types":{"a":1}}`), nil},
		"id is a number":        {200, "application/json", ok(`{"id":12345,"count":"1","results":[{"id":12345}],"supported_document_types":[1,2]}`), nil},
		"status is string true": {200, "application/json", `{"status":"true","message":"Success","data":{"id":` + pid + `,"count":0,"results":[]}}`, nil},
		"status is 1":           {200, "application/json", `{"status":1,"data":{"id":` + pid + `}}`, nil},
		"empty body 200":        {200, "application/json", "", nil},
		"empty body 500":        {500, "", "", fiatramp.ErrInternal},
		"empty body 204":        {204, "", "", nil},
		"JSON null 200":         {200, "application/json", "null", nil},
		"JSON array 200":        {200, "application/json", "[]", nil},
		"JSON string 200":       {200, "application/json", `"status"`, nil},
		"huge number":           {200, "application/json", ok(`{"id":` + pid + `,"sending_amount":1e999999999,"count":1e999999999,"results":[],"supported_document_types":1e999999999}`), nil},
		"many digits":           {200, "application/json", ok(`{"id":` + pid + `,"rate":"1` + strings.Repeat("0", 20000) + `e-99999","count":1` + strings.Repeat("0", 400) + `,"supported_document_types":1` + strings.Repeat("0", 400) + `}`), nil},
		"deep nesting":          {200, "application/json", ok(strings.Repeat(`[`, 20000) + strings.Repeat(`]`, 20000)), nil},
		"invalid UTF-8 200":     {200, "application/json", "\xff\xfe\xfd{\"status\":true}", nil},
		"invalid UTF-8 400":     {400, "text/plain", "bad \xff\xfe request\x00\x1b[31m", nil},
		"control characters in a 400 envelope": {400, "application/json",
			`{"status":false,"message":"line1\nline2\r\u001b[2Jgone\u0000\u007f` + "\x7f\u009b" + `","err_code":"X\u0001Y","errors":{"f\u0007":["m\u2028x"]},"data":null}`, nil},
		"invalid UTF-8 in a 400 envelope": {400, "application/json",
			"{\"status\":false,\"message\":\"bad \xff\xfe\",\"err_code\":\"E\xc3\",\"errors\":\"\xed\xa0\x80\",\"data\":null}", nil},
		"status false in 200": {200, "application/json", fail("Quotation has expired", "X", `{}`), fiatramp.ErrQuotationExpired},
		"NUL bytes":           {200, "application/json", "\x00\x00\x00\x00", nil},
		"BOM then JSON":       {200, "application/json", "\xef\xbb\xbf" + ok(`{"id":`+pid+`}`), nil},
		"two JSON values":     {200, "application/json", ok(`{"id":`+pid+`}`) + ok(`{"id":`+pid+`}`), nil},
	} {
		t.Run(name, func(t *testing.T) {
			base := hostileServer(t, tc.status, tc.ctype, []byte(tc.body))
			c := hostileClient(t, base)
			for _, call := range hostileCalls {
				var (
					got bool
					err error
				)
				require.NotPanics(t, func() { got, err = call.run(context.Background(), c) }, call.name)
				require.Error(t, err, "%s: a broken answer is never a success", call.name)
				assert.False(t, got, "%s: never a result with an error", call.name)
				apiErr, inner := responseError(err)
				require.NotNil(t, apiErr, "%s: *APIError in %T %v", call.name, err, err)
				assert.Equal(t, tc.status, apiErr.StatusCode, call.name)
				if tc.status >= 200 && tc.status <= 299 && tc.also == nil {
					assert.ErrorIs(t, inner, fiatramp.ErrMalformedResponse, call.name)
				}
				if tc.status >= 400 && tc.body == "" {
					assert.NotErrorIs(t, inner, fiatramp.ErrMalformedResponse, "%s: an error status with no body is not malformed", call.name)
				}
				if tc.also != nil {
					assert.ErrorIs(t, inner, tc.also, call.name)
				}
				checkErrorText(t, err.Error())
				assert.LessOrEqual(t, len(err.Error()), 2048, "%s: Error() stays short", call.name)
			}
		})
	}
}

// TestHostileResponsesDecodeErrorText: a 2xx whose data holds a control
// character or invalid UTF-8 where a typed field expects something else.
// The decoder's message quotes the raw value; Error() must not carry it
// raw (fixed in 91ebe5c, found by FuzzDecodeResponse too).
func TestHostileResponsesDecodeErrorText(t *testing.T) {
	for name, data := range map[string]string{
		// Raw bytes, not \u escapes: JSON allows DEL, C1 controls and
		// (for encoding/json) invalid UTF-8 inside a string as they are.
		"DEL in id":              "{\"id\":\"\x7f\"}",
		"C1 CSI in id":           "{\"id\":\"\u009b2J\"}",
		"invalid UTF-8 in id":    "{\"id\":\"\xff\"}",
		"DEL in an amount":       "{\"id\":\"" + payoutID.String() + "\",\"sending_amount\":\"1\x7f\"}",
		"cut inside a character": "{\"id\":\"" + strings.Repeat("a", 62) + "\u00e9\"}",
	} {
		t.Run(name, func(t *testing.T) {
			c := hostileClient(t, hostileServer(t, 200, "application/json", []byte(ok(data))))
			_, err := c.Payouts.Get(context.Background(), payoutID)
			require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
			checkErrorText(t, err.Error())
		})
	}
}

// TestStatusZeroResponse: a server answering "HTTP/1.1 000" gets a
// response with StatusCode 0 from net/http, which the library takes for
// "no response": the error is no *APIError and reads "%!w(<nil>)".
func TestStatusZeroResponse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				if _, err := http.ReadRequest(bufio.NewReader(conn)); err != nil {
					return
				}
				body := ok(`{"id":"` + payoutID.String() + `"}`)
				_, _ = fmt.Fprintf(conn, "HTTP/1.1 000 Weird\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
			}()
		}
	}()
	c := hostileClient(t, "http://"+ln.Addr().String())
	p, err := c.Payouts.Get(context.Background(), payoutID)
	assert.Nil(t, p)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "%!")
	var apiErr *fiatramp.APIError
	require.True(t, errors.As(err, &apiErr), "a response arrived: *APIError, not %T %v", err, err)
	assert.Equal(t, 0, apiErr.StatusCode)
	assert.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
}

// ---- response body cap ----

// endlessBody is a response body that does not end before the client has
// read far more than any cap under test; it counts what was read and
// whether it was closed. (It does end at readTooFar, so that a client that
// ignores its cap fails the test instead of eating the machine's memory.)
type endlessBody struct {
	prefix string
	read   atomic.Int64
	closed atomic.Bool
}

const readTooFar = 4 * fiatramp.DefaultMaxResponseBytes

var errReadTooFar = errors.New("test: the client read far past its cap")

func (b *endlessBody) Read(p []byte) (int, error) {
	off := b.read.Load()
	if off >= readTooFar {
		return 0, errReadTooFar
	}
	for i := range p {
		if j := off + int64(i); j < int64(len(b.prefix)) {
			p[i] = b.prefix[j]
		} else {
			p[i] = 'a'
		}
	}
	b.read.Add(int64(len(p)))
	return len(p), nil
}

func (b *endlessBody) Close() error {
	b.closed.Store(true)
	return nil
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestMaxResponseBytes(t *testing.T) {
	body := ok(`{"id":"` + payoutID.String() + `","status":"PROCESSING"}`)
	n := int64(len(body))
	ctx := context.Background()

	t.Run("exactly the limit is decoded", func(t *testing.T) {
		c := hostileClient(t, hostileServer(t, 200, "application/json", []byte(body)), fiatramp.WithMaxResponseBytes(n))
		p, err := c.Payouts.Get(ctx, payoutID)
		require.NoError(t, err)
		assert.Equal(t, payoutID, p.ID)
	})
	t.Run("one byte over is refused", func(t *testing.T) {
		c := hostileClient(t, hostileServer(t, 200, "application/json", []byte(body)), fiatramp.WithMaxResponseBytes(n-1))
		p, err := c.Payouts.Get(ctx, payoutID)
		assert.Nil(t, p)
		require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
		var apiErr *fiatramp.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, 200, apiErr.StatusCode)
		assert.Contains(t, err.Error(), "exceeds "+strconv.FormatInt(n-1, 10)+" bytes", "names the limit")
	})
	t.Run("an error status over the limit is refused too", func(t *testing.T) {
		big := fail("Quotation has expired", "X", `"`+strings.Repeat("x", 100)+`"`)
		c := hostileClient(t, hostileServer(t, 400, "application/json", []byte(big)), fiatramp.WithMaxResponseBytes(int64(len(big)-1)))
		_, err := c.Payouts.Get(ctx, payoutID)
		require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
		assert.Contains(t, err.Error(), "exceeds")
	})
	t.Run("zero and negative limits are refused", func(t *testing.T) {
		for _, bad := range []int64{0, -1, math.MinInt64} {
			c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase), fiatramp.WithMaxResponseBytes(bad))
			assert.Nil(t, c)
			assert.ErrorContains(t, err, "WithMaxResponseBytes", "%d", bad)
		}
	})
	t.Run("reads exactly limit+1 bytes of an endless body", func(t *testing.T) {
		for _, limit := range []int64{1, 1000, fiatramp.DefaultMaxResponseBytes} {
			stream := &endlessBody{prefix: `{"status":true,"message":"Success","data":{"id":"`}
			opts := []fiatramp.Option{fiatramp.WithHTTPClient(&http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: 200, Header: http.Header{}, Body: stream, ContentLength: -1, Request: r}, nil
			})})}
			if limit != fiatramp.DefaultMaxResponseBytes {
				opts = append(opts, fiatramp.WithMaxResponseBytes(limit))
			}
			c := hostileClient(t, testBase, opts...)
			_, err := c.Payouts.Get(ctx, payoutID)
			require.ErrorIs(t, err, fiatramp.ErrMalformedResponse, "limit %d", limit)
			assert.Contains(t, err.Error(), "exceeds "+strconv.FormatInt(limit, 10)+" bytes")
			assert.Equal(t, limit+1, stream.read.Load(), "limit %d: read limit+1 bytes, no more", limit)
			assert.True(t, stream.closed.Load(), "the body is closed")
		}
	})
	t.Run("an endless body over the network ends with the default cap", func(t *testing.T) {
		chunk := bytes.Repeat([]byte("a"), 32<<10)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"status":true,"data":{"id":"`)
			// Streams until the client hangs up; at readTooFar it breaks
			// the connection instead, so that a client without a cap gets
			// a transport error (and the test fails) rather than filling
			// memory.
			for wrote := 0; r.Context().Err() == nil; wrote += len(chunk) {
				if wrote >= readTooFar {
					panic(http.ErrAbortHandler)
				}
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}))
		defer srv.Close()
		c := hostileClient(t, srv.URL)
		// The deadline only keeps a regression from hanging the suite; the
		// call must end on the cap, long before it.
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		p, err := c.Payouts.Get(ctx, payoutID)
		assert.Nil(t, p)
		require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
		assert.NotErrorIs(t, err, context.DeadlineExceeded)
		assert.Contains(t, err.Error(), "exceeds "+strconv.Itoa(fiatramp.DefaultMaxResponseBytes)+" bytes")
		var apiErr *fiatramp.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.LessOrEqual(t, len(apiErr.RawBody), 64<<10, "the kept body is capped")
	})
	t.Run("the largest limit does not overflow", func(t *testing.T) {
		c := hostileClient(t, hostileServer(t, 200, "application/json", []byte(body)), fiatramp.WithMaxResponseBytes(math.MaxInt64))
		p, err := c.Payouts.Get(ctx, payoutID)
		require.NoError(t, err)
		assert.Equal(t, payoutID, p.ID)
	})
}

// ---- fuzzing ----

// FuzzClientResponse serves an arbitrary status, Content-Type and body
// through an http.RoundTripper fake (no network) to Payouts.Get and
// Customers.ListBankAccounts, retries off. Whatever arrives: no panic; a
// result without error only for a 2xx; otherwise an *APIError whose
// Error() has no control characters.
func FuzzClientResponse(f *testing.F) {
	pid := `"` + payoutID.String() + `"`
	f.Add(200, "application/json", []byte(ok(`{"id":`+pid+`,"count":1,"next":null,"results":[]}`)))
	f.Add(502, "text/html", []byte(htmlProxyPage))
	f.Add(200, "text/html", []byte(htmlProxyPage))
	f.Add(200, "application/json", []byte(`{"status":true,"data":{"id":`))
	f.Add(200, "application/json", []byte(ok(`[1,2,3]`)))
	f.Add(200, "application/json", []byte(`null`))
	f.Add(500, "", []byte{})
	f.Add(302, "text/html", []byte("<a href=\"https://evil.example/\">Found</a>"))
	f.Add(401, "application/json", []byte(fail("Unauthorized", "AUTH_TIMESTAMP_EXPIRED", `{"timestamp":["Request timestamp is outside the allowed window"]}`)))
	f.Add(400, "application/json", []byte("{\"status\":false,\"message\":\"bad \xff\u0007\",\"data\":null}"))

	f.Fuzz(func(t *testing.T, status int, contentType string, body []byte) {
		// net/http delivers a three-digit status; 000 (StatusCode 0) has
		// its own test, TestStatusZeroResponse.
		if status < 100 || status > 999 {
			status = 100 + ((status%900)+900)%900
		}
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			h := http.Header{}
			h.Set("Content-Type", contentType)
			return &http.Response{
				StatusCode: status, Status: strconv.Itoa(status) + " Fuzz",
				Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				Header: h, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r,
			}, nil
		})
		c, err := fiatramp.New(testKey, testSecret,
			fiatramp.WithBaseURL(testBase),
			fiatramp.WithHTTPClient(&http.Client{Transport: rt}),
			fiatramp.WithClock(func() time.Time { return testNow }),
			fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		p, err := c.Payouts.Get(ctx, payoutID)
		checkFuzzOutcome(t, "Payouts.Get", status, p != nil, err)
		page, err := c.Customers.ListBankAccounts(ctx, customerID)
		checkFuzzOutcome(t, "Customers.ListBankAccounts", status, page != nil, err)
	})
}

func checkFuzzOutcome(t *testing.T, op string, status int, gotResult bool, err error) {
	t.Helper()
	if err == nil {
		if !gotResult {
			t.Fatalf("%s: HTTP %d: nil error and nil result", op, status)
		}
		if status < 200 || status > 299 {
			t.Fatalf("%s: HTTP %d: success from a non-2xx answer", op, status)
		}
		return
	}
	if gotResult {
		t.Fatalf("%s: HTTP %d: both a result and an error %v", op, status, err)
	}
	var apiErr *fiatramp.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("%s: HTTP %d: a response arrived but the error is %T %v, not an *APIError", op, status, err, err)
	}
	if apiErr.StatusCode != status {
		t.Fatalf("%s: HTTP %d: APIError.StatusCode %d", op, status, apiErr.StatusCode)
	}
	if status >= 300 && status <= 399 && !errors.Is(err, fiatramp.ErrRedirect) {
		t.Fatalf("%s: HTTP %d: %v does not match ErrRedirect", op, status, err)
	}
	msg := err.Error()
	for _, r := range msg {
		if unicode.IsControl(r) {
			t.Fatalf("%s: HTTP %d: control character %q in Error() %q", op, status, r, msg)
		}
	}
}
