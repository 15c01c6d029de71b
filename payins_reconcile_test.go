package fiatramp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
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

func TestPayinsReconcile(t *testing.T) {
	t.Run("created", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.payinQuote(t)
		u := e.initiateUnknown(t, sandbox.FaultDropAfter, q, "pin-1", "412345678901")
		r, err := e.client.Payins.ReconcileOutcome(context.Background(), u)
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
		assert.Equal(t, "412345678901", r.Payin.UTR)
		assert.Equal(t, "pin-1", *r.Payin.ClientReferenceID)
		assert.Equal(t, 2, r.Requests, "the quotation and the newest page")
	})
	t.Run("likely created: the newest page first", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.payinQuote(t)
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Method: http.MethodPost, Path: "/pis/api/v1/payin/initiate", Count: 1}))
		_, err := e.client.Payins.Initiate(context.Background(), types.InitiatePayinRequest{
			QuotationID: q.ID, CustomerID: q.CustomerID, UTR: "412345678907", ClientReferenceID: "pin-7",
		})
		var u *fiatramp.OutcomeUnknownError
		require.ErrorAs(t, err, &u)
		require.True(t, u.ProbablyCreated)
		r, err := e.client.Payins.ReconcileOutcome(context.Background(), err)
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
		assert.Equal(t, 1, r.Requests)
	})
	t.Run("found by the UTR alone", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.payinQuote(t)
		e.initiateUnknown(t, sandbox.FaultDropAfter, q, "pin-2", "412345678902")
		r, err := e.client.Payins.Reconcile(context.Background(), fiatramp.PayinAttempt{UTR: "412345678902", QuotationID: q.ID})
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
	})
	t.Run("unknown while the quotation is valid, not created once it expired", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.payinQuote(t)
		u := e.initiateUnknown(t, sandbox.FaultDropBefore, q, "pin-3", "412345678903")
		r, err := e.client.Payins.ReconcileOutcome(context.Background(), u)
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileUnknown, r.Verdict, r.Reason)
		assert.Contains(t, r.Reason, "still valid")
		assert.Equal(t, 2, r.Requests)

		e.sb.Advance(time.Hour)
		r, err = e.client.Payins.ReconcileOutcome(context.Background(), u)
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileNotCreated, r.Verdict, r.Reason)
		assert.Contains(t, r.Reason, "EXPIRED unused", "the fetched quotation says EXPIRED")
		assert.Equal(t, 1, r.Requests)
	})
	t.Run("the UTR held under another reference", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.payinQuote(t)
		u := e.initiateUnknown(t, sandbox.FaultDropBefore, q, "pin-4", "412345678904")
		other, err := e.initiate(q, "pin-other", "412345678904")
		require.NoError(t, err)
		r, err := e.client.Payins.ReconcileOutcome(context.Background(), u)
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileNotCreated, r.Verdict, r.Reason)
		assert.Contains(t, r.Reason, other.ID.String())
	})
	t.Run("bad input", func(t *testing.T) {
		e := newReconEnv(t)
		_, err := e.client.Payins.Reconcile(context.Background(), fiatramp.PayinAttempt{CustomerID: uuid.New()})
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		_, err = e.client.Payins.Reconcile(context.Background(), fiatramp.PayinAttempt{UTR: "412345678901"})
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		_, err = e.client.Payins.ReconcileOutcome(context.Background(), nil)
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		pu := e.unknown(t, sandbox.FaultDropAfter, e.demo.Quotations[0], "ref-payout")
		_, err = e.client.Payins.ReconcileOutcome(context.Background(), pu)
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest, "a payout create's outcome")
	})
}

// offsetPayins is a payin service whose history pages by limit/offset and
// ignores any page parameter (page=last included): it answers the first
// page, newest first, with a next link and no previous one. Its payin
// quotation reads status PROCESSING (what the service's own examples
// print), created an hour ago and long expired.
type offsetPayins struct {
	quotation, customer uuid.UUID
	quotedAt            time.Time
	refs                []string // newest first; the target is last (older than a page)
	base                string
}

func (s *offsetPayins) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/pis/api/v1/payin/quotation/" + s.quotation.String():
		_, _ = io.WriteString(w, ok(fmt.Sprintf(`{"id":%q,"customer_id":%q,"status":"PROCESSING","created_at":%q,"expiry_time":%q}`,
			s.quotation, s.customer, s.quotedAt.Format(time.RFC3339), s.quotedAt.Add(5*time.Minute).Format(time.RFC3339))))
		return
	case "/pis/api/v1/payin/history":
	default:
		w.WriteHeader(http.StatusNotFound)
		return
	}
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	const limit = 10
	var results []string
	for i := offset; i < min(offset+limit, len(s.refs)); i++ {
		q := uuid.New()
		if i == len(s.refs)-1 {
			q = s.quotation
		}
		at := s.quotedAt.Add(time.Duration(len(s.refs)-i) * time.Second)
		results = append(results, fmt.Sprintf(`{"id":%q,"quotation_id":%q,"customer_id":%q,"client_reference_id":%q,"utr":"41234567%04d","status":"PROCESSING","created_at":%q}`,
			uuid.New(), q, s.customer, s.refs[i], i, at.Format(time.RFC3339Nano)))
	}
	next := "null"
	if offset+limit < len(s.refs) {
		next = jsonQuote(s.base + "/pis/api/v1/payin/history?limit=10&offset=" + strconv.Itoa(offset+limit))
	}
	_, _ = io.WriteString(w, ok(fmt.Sprintf(`{"count":%d,"next":%s,"previous":null,"results":[%s]}`,
		len(s.refs), next, strings.Join(results, ","))))
}

// A history that ignores page=last answers its first page; the search
// takes the missing previous link for the history's end and calls the
// read complete. The payin holding the reference is on the second page:
// the verdict must not be "not created".
func TestPayinsReconcileHistoryIgnoringPageIsNotProofOfAbsence(t *testing.T) {
	s := &offsetPayins{quotation: uuid.New(), customer: uuid.New(), quotedAt: time.Now().Add(-time.Hour).UTC().Truncate(time.Second)}
	for i := range 12 {
		s.refs = append(s.refs, "other-"+strconv.Itoa(i))
	}
	s.refs = append(s.refs, "pin-target")
	srv := httptest.NewServer(s)
	defer srv.Close()
	s.base = srv.URL
	c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(srv.URL),
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}))
	require.NoError(t, err)
	r, err := c.Payins.Reconcile(context.Background(), fiatramp.PayinAttempt{ClientReferenceID: "pin-target", QuotationID: s.quotation})
	require.NoError(t, err)
	require.NotEqual(t, fiatramp.ReconcileNotCreated, r.Verdict,
		"the payin holding the reference is on the history's second page, never read: %s", r.Reason)
}
