package fiatramp

import (
	"context"
	"iter"
	"net/url"
	"strings"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// payoutList is the payout history under filter f, read by List
// (one page), All (every item) and ListPage (the page of a
// link).
func (s *PayoutsService) payoutList(f types.PayoutListFilter) (listing[types.Payout], error) {
	query, err := historyQuery(f)
	if err != nil {
		return listing[types.Payout]{}, err
	}
	op := opPayoutsList.op()
	if query != "" {
		op.path += "?" + query
	}
	return listing[types.Payout]{client: s.client, first: op}, nil
}

// historyQuery writes the query of a history filter, its parameters in
// name order, or refuses a filter the service would refuse: a date range
// with one end, or one that ends before it starts.
func historyQuery(f types.PayoutListFilter) (string, error) {
	start, end := !f.StartDate.IsZero(), !f.EndDate.IsZero()
	switch {
	case start && !end:
		return "", invalid("end_date", "a start_date needs an end_date: give both dates or neither")
	case end && !start:
		return "", invalid("start_date", "an end_date needs a start_date: give both dates or neither")
	}
	q := url.Values{}
	if start {
		s, e := f.StartDate.Format(types.DateLayout), f.EndDate.Format(types.DateLayout)
		if e < s {
			return "", invalid("end_date", "ends ("+e+") before start_date ("+s+")")
		}
		q.Set("start_date", s)
		q.Set("end_date", e)
	}
	if f.CustomerID != uuid.Nil {
		q.Set("customer_id", f.CustomerID.String())
	}
	if strings.TrimSpace(string(f.Status)) != "" {
		q.Set("payout_status", string(f.Status))
	}
	return q.Encode(), nil
}

// List fetches the first page of the organization's payouts:
// GET /pos/api/v1/payout/history, no body, with the filter's query
// parameters (payout_status, customer_id, start_date and end_date as
// YYYY-MM-DD; only those set). Each item is a fetched payout (amounts as
// decimal strings). All walks every page; ListPage resumes
// from a stored next link. The service has no filter by
// client_reference_id: match it on the items.
//
// A date range with one end, or ending before it starts, is refused
// before sending (ErrInvalidRequest, naming the field); the service
// answers such a range with a 400 under errors.date_range, which matches
// ErrInvalidDateRange.
func (s *PayoutsService) List(ctx context.Context, filter types.PayoutListFilter, opts ...RequestOption) (*types.PayoutPage, error) {
	l, err := s.payoutList(filter)
	if err != nil {
		return nil, err
	}
	return l.page(ctx, opts)
}

// All yields every payout of the history under filter, page after
// page, starting from GET /pos/api/v1/payout/history with the filter's
// query (see List). It holds one page at a time. It stops at the
// first error, which it yields, at a page whose results are empty, or
// when next is null. A next link that leaves the base address or repeats
// an earlier one, or a page beyond the cap of WithMaxPages
// (DefaultMaxPages), is not followed: it yields an error matching
// ErrPagination. A filter List refuses is yielded as its error,
// before any request.
func (s *PayoutsService) All(ctx context.Context, filter types.PayoutListFilter, opts ...RequestOption) iter.Seq2[types.Payout, error] {
	l, err := s.payoutList(filter)
	if err != nil {
		return failedList[types.Payout](err)
	}
	return l.all(ctx, opts)
}

// ListPage fetches the page of the payout history that next, the
// Next link of an earlier page, points to: GET /pos/api/v1/payout/history
// with the link's query, which carries the filter and the page. The link
// is checked as All checks every link it follows: it must stay under
// the base address and lead to the history's path; otherwise it is not
// sent and the error matches ErrPagination.
func (s *PayoutsService) ListPage(ctx context.Context, next string, opts ...RequestOption) (*types.PayoutPage, error) {
	l, _ := s.payoutList(types.PayoutListFilter{})
	return l.pageAt(ctx, next, opts)
}
