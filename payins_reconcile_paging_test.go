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
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

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
