package fiatramp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// reconEnv is a sandbox with the demo organization served on loopback, and
// a client of it that makes one attempt per create (so that one fault
// leaves the outcome unknown) and retries reads without waiting.
type reconEnv struct {
	sb     *sandbox.Sandbox
	demo   sandbox.Demo
	client *fiatramp.Client
}

func newReconEnv(t *testing.T, opts ...fiatramp.Option) *reconEnv {
	t.Helper()
	sb := sandbox.New()
	sb.SetTime(time.Date(2026, 11, 27, 23, 58, 0, 0, time.UTC)) // the attempts straddle midnight
	demo, err := sb.SeedDemo()
	require.NoError(t, err)
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	c, err := srv.Client(demo.Organization, append([]fiatramp.Option{
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond})}, opts...)...)
	require.NoError(t, err)
	return &reconEnv{sb: sb, demo: demo, client: c}
}

// create makes a payout create on the demo's quotation q with reference
// ref, in one attempt.
func (e *reconEnv) create(q sandbox.Quotation, ref string, opts ...fiatramp.RequestOption) (*types.Payout, error) {
	opts = append([]fiatramp.RequestOption{fiatramp.WithCallRetry(fiatramp.RetryPolicy{MaxAttempts: 1})}, opts...)
	return e.client.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID: q.ID, CustomerID: q.CustomerID, ClientReferenceID: ref,
	}, opts...)
}

// unknown makes a create that meets fault kind and returns its
// *OutcomeUnknownError.
func (e *reconEnv) unknown(t *testing.T, kind sandbox.FaultKind, q sandbox.Quotation, ref string) *fiatramp.OutcomeUnknownError {
	t.Helper()
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: kind, Method: http.MethodPost, Path: "/pos/api/v1/payout/initiate", Count: 1}))
	_, err := e.create(q, ref)
	var unknown *fiatramp.OutcomeUnknownError
	require.ErrorAs(t, err, &unknown)
	return unknown
}

func TestNotCreatedError(t *testing.T) {
	last := errors.New("EOF")
	err := &fiatramp.NotCreatedError{ClientReferenceID: "r\n1", QuotationID: uuid.Nil, Reason: "the quotation EXPIRED unused", Attempts: 2, Err: last}
	assert.ErrorIs(t, err, fiatramp.ErrNotCreated)
	assert.NotErrorIs(t, err, last, "never unwraps to the last attempt's error")
	assert.Equal(t, `fiatramp: not created: client_reference_id "r 1": the quotation EXPIRED unused; safe to create again with the same reference (last attempt: EOF)`, err.Error())
}

// WithReconcile settles an unknown outcome before the create returns.
func ExampleWithReconcile() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization,
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: 10 * time.Millisecond}))
	_ = sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: "/pos/api/v1/payout/initiate", Count: 1})

	p, err := client.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID: demo.Quotations[0].ID, CustomerID: demo.Customer.ID, ClientReferenceID: "order-1004",
	}, fiatramp.WithReconcile())
	switch {
	case err == nil:
		fmt.Println("paid once:", *p.ClientReferenceID, p.Status)
	case errors.Is(err, fiatramp.ErrNotCreated):
		fmt.Println("not created: create again with the same reference")
	case errors.Is(err, fiatramp.ErrOutcomeUnknown):
		fmt.Println("still unknown: reconcile later")
	default:
		fmt.Println("refused:", err)
	}
	// Output:
	// paid once: order-1004 PROCESSING
}

// payinQuote creates a payin quotation of the demo customer, paid by UPI.
func (e *reconEnv) payinQuote(t *testing.T) *types.PayinQuotation {
	t.Helper()
	q, err := e.client.Payins.CreateQuotation(context.Background(), types.CreatePayinQuotationRequest{
		Asset: "USDT", Fiat: "INR", SendingAmount: decimal.RequireFromString("2600.50"),
		CustomerID: e.demo.Customer.ID, BankID: e.demo.VPA.ID, PaymentMethod: types.PaymentMethodUPI,
	})
	require.NoError(t, err)
	return q
}

// initiate makes a payin initiate of q in one attempt.
func (e *reconEnv) initiate(q *types.PayinQuotation, ref, utr string, opts ...fiatramp.RequestOption) (*types.Payin, error) {
	opts = append([]fiatramp.RequestOption{fiatramp.WithCallRetry(fiatramp.RetryPolicy{MaxAttempts: 1})}, opts...)
	return e.client.Payins.Initiate(context.Background(), types.InitiatePayinRequest{
		QuotationID: q.ID, CustomerID: q.CustomerID, UTR: utr, ClientReferenceID: ref,
	}, opts...)
}

// initiateUnknown makes an initiate that meets fault kind and returns its
// *OutcomeUnknownError.
func (e *reconEnv) initiateUnknown(t *testing.T, kind sandbox.FaultKind, q *types.PayinQuotation, ref, utr string) *fiatramp.OutcomeUnknownError {
	t.Helper()
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: kind, Method: http.MethodPost, Path: "/pis/api/v1/payin/initiate", Count: 1}))
	_, err := e.initiate(q, ref, utr)
	var unknown *fiatramp.OutcomeUnknownError
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, utr, unknown.UTR)
	assert.Equal(t, q.CustomerID, unknown.CustomerID)
	return unknown
}

func TestInitiateWithReconcile(t *testing.T) {
	e := newReconEnv(t)
	q := e.payinQuote(t)
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Method: http.MethodPost, Path: "/pis/api/v1/payin/initiate", Count: 1}))
	p, err := e.initiate(q, "pin-auto", "412345678905", fiatramp.WithReconcile())
	require.NoError(t, err)
	assert.Equal(t, "412345678905", p.UTR)

	q2 := e.payinQuote(t)
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropBefore, Method: http.MethodPost, Path: "/pis/api/v1/payin/initiate", Count: 1}))
	_, err = e.initiate(q2, "pin-auto-2", "412345678906", fiatramp.WithReconcile())
	var u *fiatramp.OutcomeUnknownError
	require.ErrorAs(t, err, &u)
	assert.Contains(t, u.Unsettled, "still valid")
}

// WithReconcile settles every kind of create: each returns what its own
// call returns, and an Observer sees it end as what it is.
func TestCreateWithReconcile(t *testing.T) {
	fault := func(e *reconEnv, kind sandbox.FaultKind) {
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: kind, Method: http.MethodPost, Count: 1}))
	}
	one := fiatramp.WithCallRetry(fiatramp.RetryPolicy{MaxAttempts: 1})
	t.Run("standard: created", func(t *testing.T) {
		rec := &recorder{}
		e := newReconEnv(t, fiatramp.WithObserver(rec))
		q := e.demo.Quotations[0]
		fault(e, sandbox.FaultDropAfter)
		p, err := e.create(q, "ref-auto", fiatramp.WithReconcile())
		require.NoError(t, err)
		assert.Equal(t, "ref-auto", *p.ClientReferenceID)
		assert.Equal(t, e.sb.Payouts(e.demo.Organization.ID)[0].ID, p.ID)

		// The reads are calls of their own, inside the create's; the
		// create ends as a success settled by reconciliation.
		require.Len(t, rec.results, 3)
		assert.Equal(t, "Payouts.GetQuotation", rec.results[0].Operation)
		assert.Equal(t, "Payouts.List", rec.results[1].Operation)
		create := rec.results[2]
		assert.Equal(t, "Payouts.Create", create.Operation)
		assert.Equal(t, fiatramp.OutcomeSuccess, create.Outcome)
		assert.True(t, create.Reconciled)
		assert.Empty(t, create.ErrorClass)
		require.Equal(t, []string{"start", "attempt 1", "end 1", "start", "attempt 1", "end 1", "done", "start", "attempt 1", "end 1", "done", "done"}, rec.events)
		assert.Equal(t, "Payouts.Create/", rec.ctxSeen[3], "the reads start inside the create's call")
	})
	t.Run("standard: not created", func(t *testing.T) {
		rec := &recorder{}
		e := newReconEnv(t, fiatramp.WithObserver(rec))
		q := e.demo.Quotations[0]
		fault(e, sandbox.FaultDropBefore)
		_, err := e.create(q, "ref-auto", fiatramp.WithReconcile())
		require.ErrorIs(t, err, fiatramp.ErrNotCreated)
		assert.NotErrorIs(t, err, fiatramp.ErrOutcomeUnknown)
		var nc *fiatramp.NotCreatedError
		require.ErrorAs(t, err, &nc)
		assert.Equal(t, "ref-auto", nc.ClientReferenceID)
		assert.Equal(t, q.ID, nc.QuotationID)
		assert.Contains(t, err.Error(), "same reference")
		assert.Empty(t, e.sb.Payouts(e.demo.Organization.ID))
		create := rec.results[len(rec.results)-1]
		assert.Equal(t, fiatramp.OutcomeFailure, create.Outcome)
		assert.True(t, create.Reconciled)
		assert.Equal(t, fiatramp.ErrorClassConnection, create.ErrorClass, "the last attempt's")
	})
	t.Run("standard: unsettled", func(t *testing.T) {
		rec := &recorder{}
		e := newReconEnv(t, fiatramp.WithObserver(rec))
		q := e.demo.Quotations[0]
		fault(e, sandbox.FaultDropBefore)
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultUnavailable, Method: http.MethodGet}))
		_, err := e.create(q, "ref-auto", fiatramp.WithReconcile())
		var u *fiatramp.OutcomeUnknownError
		require.ErrorAs(t, err, &u)
		assert.Contains(t, u.Unsettled, "quotation")
		assert.Contains(t, err.Error(), "reconciliation left it unknown")
		create := rec.results[len(rec.results)-1]
		assert.Equal(t, fiatramp.OutcomeUnknown, create.Outcome)
		assert.False(t, create.Reconciled)
	})
	t.Run("not asked", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.demo.Quotations[0]
		fault(e, sandbox.FaultDropAfter)
		start := e.sb.Stats().Requests
		_, err := e.create(q, "ref-plain")
		require.ErrorIs(t, err, fiatramp.ErrOutcomeUnknown)
		assert.Equal(t, 1, e.sb.Stats().Requests-start, "no read without WithReconcile")
	})
	t.Run("prefunded: a *types.PrefundedPayout", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.demo.Quotations[1]
		fault(e, sandbox.FaultDropAfter)
		p, err := e.client.Payouts.CreatePrefunded(context.Background(), types.CreatePrefundedPayoutRequest{
			QuotationID: q.ID, ClientReferenceID: "pre-auto",
			Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: e.demo.Customer.ID}, Receiver: types.CustomerRef{ID: q.CustomerID}},
		}, one, fiatramp.WithReconcile())
		require.NoError(t, err)
		stored := e.sb.Payouts(e.demo.Organization.ID)
		require.Len(t, stored, 1)
		assert.Equal(t, stored[0].ID, p.ID)
		assert.Equal(t, "pre-auto", *p.ClientReferenceID)
		assert.Equal(t, q.ID, p.QuotationID)
		assert.Equal(t, types.PayoutProcessing, p.Status)
		require.NotNil(t, p.Customer.Receiver.ID)
		assert.Equal(t, q.CustomerID, *p.Customer.Receiver.ID)
		require.NotNil(t, p.Customer.Sender.ID)
		assert.Equal(t, e.demo.Customer.ID, *p.Customer.Sender.ID)
		assert.NotEmpty(t, p.Raw)
	})
	t.Run("prefunded: not created", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.demo.Quotations[1]
		fault(e, sandbox.FaultDropBefore)
		_, err := e.client.Payouts.CreatePrefunded(context.Background(), types.CreatePrefundedPayoutRequest{
			QuotationID: q.ID, ClientReferenceID: "pre-auto",
			Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: e.demo.Customer.ID}, Receiver: types.CustomerRef{ID: q.CustomerID}},
		}, one, fiatramp.WithReconcile())
		require.ErrorIs(t, err, fiatramp.ErrNotCreated)
	})
	t.Run("remittance: a *types.RemittancePayout", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.demo.Quotations[2]
		fault(e, sandbox.FaultDropAfter)
		p, err := e.client.Payouts.CreateRemittance(context.Background(), types.CreateRemittancePayoutRequest{
			QuotationID: q.ID, CustomerID: q.CustomerID, RemitterID: e.demo.Remitter.ID, ClientReferenceID: "rem-auto",
		}, one, fiatramp.WithReconcile())
		require.NoError(t, err)
		stored := e.sb.Payouts(e.demo.Organization.ID)
		require.Len(t, stored, 1)
		assert.Equal(t, stored[0].ID, p.ID)
		assert.Equal(t, "rem-auto", *p.ClientReferenceID)
		assert.Equal(t, q.CustomerID, p.CustomerID)
		assert.Equal(t, e.demo.Remitter.ID, p.RemitterID)
	})
}

// cannedHistory is a service whose payout history a test shapes: its
// order, whether it serves page=last, the address its links name, a page
// that fails once. It answers GET of one LINKED quotation and of the
// history, ten payouts to a page, and records every request.
type cannedHistory struct {
	t          *testing.T
	payouts    []cannedPayout // in creation order
	newest     bool           // the history lists the newest first
	noLast     bool           // page=last is refused as an invalid page
	linkBase   string         // the address the links name ("" the server's own)
	failOnce   map[string]int // page parameter -> status, answered once
	quotedAt   time.Time      // the quotation's creation
	mu         sync.Mutex
	requests   []string // RequestURI of each request
	serverBase string
}

type cannedPayout struct {
	ref       string
	quotation uuid.UUID
	at        time.Time
}

const cannedPageSize = 10

func (h *cannedHistory) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests = append(h.requests, r.RequestURI)
	h.mu.Unlock()
	switch {
	case r.URL.Path == "/gw/pos/api/v1/payout/quotation/"+quotationID.String():
		_, _ = io.WriteString(w, ok(fmt.Sprintf(`{"id":%q,"customer_id":%q,"status":"LINKED","created_at":%q,"expiry_time":%q}`,
			quotationID, customerID, h.quotedAt.Format(time.RFC3339), h.quotedAt.Add(5*time.Minute).Format(time.RFC3339))))
		return
	case r.URL.Path != "/gw/pos/api/v1/payout/history":
		w.WriteHeader(http.StatusNotFound)
		return
	}
	q := r.URL.Query()
	param := q.Get("page")
	h.mu.Lock()
	status, fails := h.failOnce[param]
	delete(h.failOnce, param)
	h.mu.Unlock()
	if fails {
		w.Header().Set("Location", "/elsewhere")
		w.WriteHeader(status)
		return
	}
	items := slices.Clone(h.payouts)
	if h.newest {
		slices.Reverse(items)
	}
	pages := max(1, (len(items)+cannedPageSize-1)/cannedPageSize)
	n := 1
	switch {
	case param == "last" && !h.noLast:
		n = pages
	case param != "":
		var err error
		if n, err = strconv.Atoi(param); err != nil || n < 1 || n > pages {
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, fail("Invalid page.", "NOT_FOUND", "null"))
			return
		}
	}
	link := func(page int) string {
		base := h.linkBase
		if base == "" {
			base = h.serverBase
		}
		q.Set("page", strconv.Itoa(page))
		return jsonQuote(base + "/gw/pos/api/v1/payout/history?" + q.Encode())
	}
	next, prev := "null", "null"
	if n < pages {
		next = link(n + 1)
	}
	if n > 1 {
		prev = link(n - 1)
	}
	var results []string
	for _, p := range items[(n-1)*cannedPageSize : min(n*cannedPageSize, len(items))] {
		results = append(results, fmt.Sprintf(`{"id":%q,"quotation_id":%q,"customer_id":%q,"client_reference_id":%q,"status":"PROCESSING","created_at":%q}`,
			uuid.New(), p.quotation, customerID, p.ref, p.at.Format(time.RFC3339Nano)))
	}
	_, _ = io.WriteString(w, ok(fmt.Sprintf(`{"count":%d,"next":%s,"previous":%s,"results":[%s]}`,
		len(items), next, prev, strings.Join(results, ","))))
}

// serve starts h on loopback and returns a client of it.
func (h *cannedHistory) serve() *fiatramp.Client {
	srv := httptest.NewServer(h)
	h.t.Cleanup(srv.Close)
	h.serverBase = srv.URL
	c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(srv.URL+"/gw"),
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}))
	require.NoError(h.t, err)
	return c
}

// history makes n payouts of other quotations from start on, a second
// apart, with the target (quotationID, "ref-target") at index at (none
// when at < 0).
func cannedPayouts(start time.Time, n, at int) []cannedPayout {
	out := make([]cannedPayout, n)
	for i := range out {
		out[i] = cannedPayout{ref: fmt.Sprintf("other-%d", i), quotation: uuid.New(), at: start.Add(time.Duration(i) * time.Second)}
		if i == at {
			out[i].ref, out[i].quotation = "ref-target", quotationID
		}
	}
	return out
}

func (h *cannedHistory) reconcile() *fiatramp.PayoutReconciliation {
	h.t.Helper()
	r, err := h.serve().Payouts.Reconcile(context.Background(), fiatramp.PayoutAttempt{ClientReferenceID: "ref-target", QuotationID: quotationID})
	require.NoError(h.t, err)
	return r
}

// The history search reads the newest page first whatever the history's
// order, survives a page that fails and links that name a gateway's
// address, and stops before the quotation's creation only while the pages
// are in creation order.
func TestReconcileHistorySearch(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	t.Run("oldest first: the last page", func(t *testing.T) {
		h := &cannedHistory{t: t, quotedAt: t0, payouts: cannedPayouts(t0, 35, 33)}
		r := h.reconcile()
		require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
		assert.Equal(t, 2, r.Requests)
		assert.Contains(t, h.requests[1], "page=last")
		assert.Contains(t, h.requests[1], "page_size=100", "the most a page holds")
	})
	t.Run("newest first: the first page, after the last shows the order", func(t *testing.T) {
		h := &cannedHistory{t: t, quotedAt: t0, newest: true, payouts: cannedPayouts(t0, 35, 33)}
		r := h.reconcile()
		require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
		assert.Equal(t, 3, r.Requests, "the quotation, page=last (the oldest), the first page")
	})
	t.Run("no page=last: from the first page on", func(t *testing.T) {
		h := &cannedHistory{t: t, quotedAt: t0, noLast: true, payouts: cannedPayouts(t0, 35, 33)}
		r := h.reconcile()
		require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
		assert.Equal(t, 1+1+4, r.Requests, "the quotation, page=last refused, pages 1 to 4")
	})
	t.Run("a gateway's links and a page that fails once", func(t *testing.T) {
		foreign := new(hitCounter)
		foreignSrv := httptest.NewServer(foreign)
		defer foreignSrv.Close()
		h := &cannedHistory{t: t, quotedAt: t0, payouts: cannedPayouts(t0, 35, 22), linkBase: foreignSrv.URL,
			failOnce: map[string]int{"3": http.StatusFound}}
		r := h.reconcile()
		require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
		assert.Zero(t, foreign.hits.Load(), "the address the links name is never asked")
		assert.Equal(t, []string{"page=last", "page=3", "page=3"}, pageParams(h.requests[1:]))
	})
	t.Run("LINKED, not shown: back to the quotation's creation only", func(t *testing.T) {
		old := cannedPayouts(t0.Add(-time.Hour), 50, -1)
		h := &cannedHistory{t: t, quotedAt: t0, payouts: append(old, cannedPayouts(t0, 8, -1)...)}
		r := h.reconcile()
		require.Equal(t, fiatramp.ReconcileUnknown, r.Verdict, r.Reason)
		assert.Contains(t, r.Reason, "LINKED")
		assert.Equal(t, 3*(1+2), r.Requests, "three rounds of the quotation, the last page and the one that reaches before the quotation")
	})
	t.Run("pages out of order are read to the end", func(t *testing.T) {
		ps := cannedPayouts(t0.Add(-time.Hour), 30, -1)
		ps[5].at, ps[25].at = ps[25].at, ps[5].at
		ps[15].at = t0.Add(time.Minute)
		h := &cannedHistory{t: t, quotedAt: t0, payouts: ps}
		r := h.reconcile()
		require.Equal(t, fiatramp.ReconcileUnknown, r.Verdict, r.Reason)
		assert.Equal(t, 3*(1+3), r.Requests, "every page, each round")
	})
}

// pageParams is the page parameter of each request URI.
func pageParams(uris []string) []string {
	out := make([]string, len(uris))
	for i, uri := range uris {
		u, _ := url.Parse(uri)
		out[i] = "page=" + u.Query().Get("page")
	}
	return out
}
