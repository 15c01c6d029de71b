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

// offsetPayouts is a payout service whose history pages by limit/offset,
// newest first, and ignores any page parameter (page=last included): it
// answers the first page, with a next link and no previous one. Its
// quotation is LINKED to the payout holding the reference, which is on the
// second page.
type offsetPayouts struct {
	quotation, customer uuid.UUID
	quotedAt            time.Time
	refs                []string // newest first; the target is last
	base                string
}

func (s *offsetPayouts) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/pos/api/v1/payout/quotation/" + s.quotation.String():
		_, _ = io.WriteString(w, ok(fmt.Sprintf(`{"id":%q,"customer_id":%q,"status":"LINKED","created_at":%q,"expiry_time":%q}`,
			s.quotation, s.customer, s.quotedAt.Format(time.RFC3339), s.quotedAt.Add(5*time.Minute).Format(time.RFC3339))))
		return
	case "/pos/api/v1/payout/history":
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
		results = append(results, fmt.Sprintf(`{"id":%q,"quotation_id":%q,"customer_id":%q,"client_reference_id":%q,"status":"PROCESSING","created_at":%q}`,
			uuid.New(), q, s.customer, s.refs[i], at.Format(time.RFC3339Nano)))
	}
	next := "null"
	if offset+limit < len(s.refs) {
		next = jsonQuote(s.base + "/pos/api/v1/payout/history?limit=10&offset=" + strconv.Itoa(offset+limit))
	}
	_, _ = io.WriteString(w, ok(fmt.Sprintf(`{"count":%d,"next":%s,"previous":null,"results":[%s]}`,
		len(s.refs), next, strings.Join(results, ","))))
}

// A history that ignores page=last answers its first page, and the search
// stops there (no previous link) as if it had read everything: the payout
// on the second page is never found, and a LINKED quotation's payout stays
// unknown for ever (a pipeline that waits for the verdict never records
// the payout it made).
func TestPayoutsReconcileHistoryIgnoringPageReadsOn(t *testing.T) {
	s := &offsetPayouts{quotation: uuid.New(), customer: uuid.New(), quotedAt: time.Now().Add(-time.Hour).UTC().Truncate(time.Second)}
	for i := range 12 {
		s.refs = append(s.refs, "other-"+strconv.Itoa(i))
	}
	s.refs = append(s.refs, "po-target")
	srv := httptest.NewServer(s)
	defer srv.Close()
	s.base = srv.URL
	c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(srv.URL),
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}))
	require.NoError(t, err)
	r, err := c.Payouts.Reconcile(context.Background(), fiatramp.PayoutAttempt{ClientReferenceID: "po-target", QuotationID: s.quotation})
	require.NoError(t, err)
	require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
}
