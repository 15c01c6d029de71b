package fiatramp_test

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// This file holds the table of failure classes that README.md shows under
// "Retries, and payouts that never pay twice". TestVerdictTable makes every
// class happen to every kind of call and checks what the call does; it then
// renders the table from the same rows and requires README.md to hold it
// verbatim, so the README cannot say one thing while the code does another.

// callKind is a kind of call, by what repeating it could do.
type callKind int

const (
	readCall    callKind = iota // Payouts.Get: a repeat does no harm
	refCreate                   // Payouts.Create with a client_reference_id
	noRefCreate                 // Payouts.Create without one
	doPost                      // Client.Do with POST
	numCallKinds
)

func (k callKind) String() string {
	return [...]string{"read", "create with a reference", "create without a reference", "Do POST"}[k]
}

// verdictCase is one way a class of failure shows up.
type verdictCase struct {
	name    string
	actions []action          // what the service does on every request
	opts    []fiatramp.Option // extra client options
	setup   func(*verdictEnv) // instead of actions: builds the service
	is      error             // a sentinel the read's error matches
	status  int               // the read's APIError status (0: none)
	call    func(*verdictEnv) // runs before the call (e.g. to cancel)
	ctx     func() (context.Context, context.CancelFunc)
	// typedOnly: the case concerns a result type of package types; Do
	// with a type of the caller's own does not see it (and succeeds).
	typedOnly bool
}

// verdictRow is one row of the README table and the behaviour it promises.
type verdictRow struct {
	failure string
	// retried says whether each kind of call makes a second attempt;
	// doPost follows noRefCreate.
	retried [3]bool
	once    bool // repeated exactly once whatever the policy (clock skew)
	// unknown: a create or Do POST ends in *OutcomeUnknownError.
	unknown bool
	sees    string // what a read returns
	cases   []verdictCase
}

// verdictEnv is the service and client of one case.
type verdictEnv struct {
	t       *testing.T
	baseURL string
	tr      *attemptCounter
	srv     *fakeService
	cancel  context.CancelFunc
}

func redirectTo(status int) action {
	return func(_ *fakeService, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Location", "https://elsewhere.test/done")
		w.WriteHeader(status)
	}
}

func verdictRows() []verdictRow {
	statuses := func(codes []int, body string, is error) []verdictCase {
		var cs []verdictCase
		for _, code := range codes {
			cs = append(cs, verdictCase{name: strconv.Itoa(code), actions: []action{answer(code, body)}, is: is, status: code})
		}
		return cs
	}
	var redirects []verdictCase
	for _, code := range []int{301, 302, 303, 307, 308} {
		redirects = append(redirects, verdictCase{name: strconv.Itoa(code), actions: []action{redirectTo(code)}, is: fiatramp.ErrRedirect, status: code})
	}
	refusals := []verdictCase{
		{name: "400", actions: []action{answer(400, bodyExpired)}, is: fiatramp.ErrQuotationExpired, status: 400},
		{name: "401", actions: []action{answer(401, fail("Unauthorized", "AUTH_INVALID_SIGNATURE", `{}`))}, is: fiatramp.ErrUnauthorized, status: 401},
		{name: "403", actions: []action{answer(403, fail("This endpoint is not available for your organization.", "FORBIDDEN", `{}`))}, is: fiatramp.ErrNotEntitled, status: 403},
		{name: "404", actions: []action{answer(404, bodyHTML)}, status: 404},
		{name: "409", actions: []action{answer(409, bodyDuplicate)}, is: fiatramp.ErrClientReferenceExists, status: 409},
		{name: "422", actions: []action{answer(422, fail("Invalid input", "REQ_FIELD_MISSING", `{"payout_id":["This field is required."]}`))}, is: fiatramp.ErrFieldMissing, status: 422},
	}
	truncated := `{"status":true,"message":"Success","data":{"id":"3e9f2e4b-6c7d`
	return []verdictRow{
		{
			failure: "connection refused, DNS failure",
			retried: [3]bool{true, true, true},
			sees:    "the network error, wrapped",
			cases: []verdictCase{{name: "refused", setup: func(e *verdictEnv) {
				e.srv = newService(e.t, answer(200, ok(gotPayout)))
				e.baseURL = e.srv.URL
				e.tr.refuse = 1 << 20
			}, is: syscall.ECONNREFUSED}},
		},
		{
			failure: "429",
			retried: [3]bool{true, true, true},
			sees:    "`*APIError` matching `ErrRateLimited`",
			cases:   statuses([]int{429}, bodyRateLimited, fiatramp.ErrRateLimited),
		},
		{
			failure: "connection broken after sending, attempt timed out",
			retried: [3]bool{true, true, false},
			unknown: true,
			sees:    "the network error, wrapped",
			cases: []verdictCase{
				{name: "dropped", actions: []action{drop}},
				{name: "timed out", actions: []action{hang}, opts: []fiatramp.Option{fiatramp.WithTimeout(50 * time.Millisecond)}, is: context.DeadlineExceeded},
			},
		},
		{
			failure: "408, 500, 502, 503, 504",
			retried: [3]bool{true, true, false},
			unknown: true,
			sees:    "`*APIError` (`ErrInternal`, `ErrUnavailable`)",
			cases:   statuses([]int{408, 500, 502, 503, 504}, bodyHTML, nil),
		},
		{
			failure: "a body broken off while read; a 2xx body that ends early (truncated JSON, empty)",
			retried: [3]bool{true, true, false},
			unknown: true,
			sees:    "the read error, or `*APIError` matching `ErrMalformedResponse`",
			cases: []verdictCase{
				{name: "201 broken off", actions: []action{cutOff}},
				{name: "truncated 201", actions: []action{answer(201, truncated)}, is: fiatramp.ErrMalformedResponse, status: 201},
				{name: "empty 200", actions: []action{answer(200, "")}, is: fiatramp.ErrMalformedResponse, status: 200},
				{name: "blank 200", actions: []action{answer(200, " \n")}, is: fiatramp.ErrMalformedResponse, status: 200},
			},
		},
		{
			failure: "a whole 2xx that is not an envelope, whose data does not decode or lacks a member the result cannot be used without (a payout's `id`, `status`), or over the size cap",
			retried: [3]bool{false, false, false},
			unknown: true,
			sees:    "`*APIError` matching `ErrMalformedResponse`",
			cases: []verdictCase{
				{name: "HTML 200", actions: []action{answer(200, bodyHTML)}, is: fiatramp.ErrMalformedResponse, status: 200},
				{name: "no status", actions: []action{answer(200, `{"message":"Success","data":{}}`)}, is: fiatramp.ErrMalformedResponse, status: 200},
				{name: "data that does not decode", actions: []action{answer(201, ok(`{"id":"not-a-uuid"}`))}, is: fiatramp.ErrMalformedResponse, status: 201},
				{name: "data without an id", actions: []action{answer(201, ok(`{"id":null,"status":"PROCESSING"}`))}, is: fiatramp.ErrMalformedResponse, status: 201, typedOnly: true},
				{name: "data without a status", actions: []action{answer(200, ok(`{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34"}`))}, is: fiatramp.ErrMalformedResponse, status: 200, typedOnly: true},
				{name: "over the cap", actions: []action{answer(201, ok(`{"pad":"`+strings.Repeat("x", 200)+`"}`))},
					opts: []fiatramp.Option{fiatramp.WithMaxResponseBytes(100)}, is: fiatramp.ErrMalformedResponse, status: 201},
			},
		},
		{
			failure: "a 2xx envelope with status false",
			retried: [3]bool{false, false, false},
			sees:    "`*APIError` with the refusal's sentinel",
			cases:   statuses([]int{200, 201}, bodyExpired, fiatramp.ErrQuotationExpired),
		},
		{
			failure: "3xx (never followed)",
			retried: [3]bool{false, false, false},
			unknown: true,
			sees:    "`*APIError` matching `ErrRedirect`",
			cases:   redirects,
		},
		{
			failure: "other 4xx",
			retried: [3]bool{false, false, false},
			sees:    "`*APIError` with its sentinel",
			cases:   refusals,
		},
		{
			failure: "other 5xx (501, 505, a proxy's 52x), a status of no class",
			retried: [3]bool{false, false, false},
			unknown: true,
			sees:    "`*APIError`",
			cases:   statuses([]int{501, 505, 520, 524, 599, 600, 999}, bodyHTML, nil),
		},
		{
			failure: "TLS certificate error",
			retried: [3]bool{false, false, false},
			sees:    "the TLS error, wrapped",
			cases: []verdictCase{{name: "untrusted certificate", setup: func(e *verdictEnv) {
				srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					_, _ = w.Write([]byte(ok(gotPayout)))
				}))
				srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
				srv.StartTLS()
				e.t.Cleanup(srv.Close)
				e.baseURL = srv.URL
				e.srv = nil
			}}},
		},
		{
			failure: "timestamp refused (`ErrClockSkew`) under `WithClockCorrection`",
			once:    true,
			sees:    "`*APIError` matching `ErrClockSkew` if refused again",
			cases: []verdictCase{{name: "401 expired timestamp",
				actions: []action{answer(401, fail("Timestamp expired", "AUTH_TIMESTAMP_EXPIRED", `{}`))},
				opts:    []fiatramp.Option{fiatramp.WithClockCorrection()}, is: fiatramp.ErrClockSkew, status: 401}},
		},
		{
			failure: "your context ends while a request is in flight, or while its answer is read or decoded",
			unknown: true,
			sees:    "the context's error, wrapped",
			cases: []verdictCase{{name: "cancelled", actions: []action{hang}, is: context.Canceled,
				call: func(e *verdictEnv) {
					go func() {
						<-e.srv.received
						e.cancel()
					}()
				}}},
		},
		{
			failure: "your context is done before the call",
			sees:    "the context's error, wrapped; nothing is sent",
			cases: []verdictCase{{name: "cancelled", actions: []action{answer(200, ok(gotPayout))}, is: context.Canceled,
				ctx: func() (context.Context, context.CancelFunc) {
					ctx, cancel := context.WithCancel(context.Background())
					cancel()
					return ctx, cancel
				}}},
		},
	}
}

// renderVerdictTable is the README table of rows.
func renderVerdictTable(rows []verdictRow) string {
	var b strings.Builder
	b.WriteString("| Failure | Retried? | May the service have acted? | A read returns | A payout create, `Do` POST/PATCH return |\n")
	b.WriteString("|---|---|---|---|---|\n")
	for _, r := range rows {
		retried := "no"
		switch {
		case r.once:
			retried = "once, re-signed with the corrected clock"
		case r.retried == [3]bool{true, true, true}:
			retried = "yes"
		case r.retried == [3]bool{true, true, false}:
			retried = "yes, except a create without a reference and `Do` POST/PATCH"
		}
		acted, creates := "no", "the same"
		if r.unknown {
			acted, creates = "yes", "`*OutcomeUnknownError`"
		}
		b.WriteString("| " + r.failure + " | " + retried + " | " + acted + " | " + r.sees + " | " + creates + " |\n")
	}
	return b.String()
}

func TestVerdictTable(t *testing.T) {
	rows := verdictRows()
	for _, row := range rows {
		for _, vc := range row.cases {
			for kind := callKind(0); kind < numCallKinds; kind++ {
				if vc.typedOnly && kind == doPost {
					continue
				}
				t.Run(row.failure+"/"+vc.name+"/"+kind.String(), func(t *testing.T) {
					runVerdictCase(t, row, vc, kind)
				})
			}
		}
	}

	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	if table := renderVerdictTable(rows); !strings.Contains(string(readme), table) {
		t.Errorf("README.md's table of failures must be the one this test checks:\n%s", table)
	}
}

func runVerdictCase(t *testing.T, row verdictRow, vc verdictCase, kind callKind) {
	e := &verdictEnv{t: t, tr: newTransport(t)}
	if vc.setup != nil {
		vc.setup(e)
	} else {
		e.srv = newService(t, vc.actions...)
		e.baseURL = e.srv.URL
	}
	// Two attempts at most: a second request shows a retry. No waits.
	opts := append([]fiatramp.Option{fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 2})}, vc.opts...)
	if kind == noRefCreate {
		opts = append(opts, fiatramp.WithClientReferenceGenerator(nil))
	}
	c, _ := serviceClient(t, e.baseURL, e.tr, opts...)

	var (
		ctx    context.Context
		cancel context.CancelFunc
		err    error
	)
	if vc.ctx != nil {
		ctx, cancel = vc.ctx()
	} else {
		ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
	}
	defer cancel()
	e.cancel = cancel
	if vc.call != nil {
		vc.call(e)
	}

	switch kind {
	case readCall:
		p, err2 := c.Payouts.Get(ctx, payoutID)
		assert.Nil(t, p)
		err = err2
	case refCreate, noRefCreate:
		ref := ""
		if kind == refCreate {
			ref = "ref-verdict-1"
		}
		p, err2 := c.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID, ClientReferenceID: ref})
		assert.Nil(t, p)
		err = err2
	case doPost:
		var out struct {
			ID uuid.UUID `json:"id"`
		}
		err = c.Do(ctx, http.MethodPost, "/pos/api/v1/some/operation", map[string]string{"k": "v"}, &out)
	}
	require.Error(t, err)

	retried := row.retried[min(kind, noRefCreate)]
	wantAttempts := int32(1)
	switch {
	case vc.ctx != nil:
		wantAttempts = 0
	case retried || row.once:
		wantAttempts = 2
	}
	assert.Equal(t, wantAttempts, e.tr.attempts.Load(), "attempts")
	if e.srv != nil && e.tr.refuse == 0 && vc.ctx == nil {
		assert.Equal(t, wantAttempts, e.srv.hits.Load(), "requests the service received")
	}

	last := err
	if kind != readCall && row.unknown {
		last = requireOutcomeUnknown(t, err).Err
	} else {
		requirePlain(t, err)
	}
	if vc.is != nil {
		assert.ErrorIs(t, last, vc.is)
	}
	var apiErr *fiatramp.APIError
	if vc.status != 0 {
		require.ErrorAs(t, last, &apiErr)
		assert.Equal(t, vc.status, apiErr.StatusCode)
	} else {
		assert.False(t, errors.As(last, &apiErr), "no answer, no APIError: %v", last)
	}
}
