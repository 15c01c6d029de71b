package fiatramp

import (
	"context"
	"iter"
	"net/url"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// payinDateLayout is how the payin history's start_date and end_date
// are written: YYYY-MM-DD.
const payinDateLayout = "2006-01-02"

// payinList is the payin history filtered by q, read by List
// (one page), All (every item) and ListPage (the page of a
// link). The filter is checked first: one date without the other, or an
// end before the start, is refused before sending.
func (s *PayinsService) payinList(q types.PayinListFilter) (listing[types.Payin], error) {
	op := opPayinsList.op()
	v := url.Values{}
	if q.Status != "" {
		v.Set("payin_status", string(q.Status))
	}
	if q.CustomerID != uuid.Nil {
		v.Set("customer_id", q.CustomerID.String())
	}
	switch start, end := q.StartDate.IsZero(), q.EndDate.IsZero(); {
	case start && !end:
		return listing[types.Payin]{}, invalid("start_date", "is required with end_date (both dates or neither)")
	case end && !start:
		return listing[types.Payin]{}, invalid("end_date", "is required with start_date (both dates or neither)")
	case !start:
		from, to := q.StartDate.Format(payinDateLayout), q.EndDate.Format(payinDateLayout)
		if to < from {
			return listing[types.Payin]{}, invalid("end_date", "is before start_date ("+to+" < "+from+")")
		}
		v.Set("start_date", from)
		v.Set("end_date", to)
	}
	if len(v) > 0 {
		op.path += "?" + v.Encode()
	}
	return listing[types.Payin]{client: s.client, first: op}, nil
}

// List fetches the first page of the organization's payins:
// GET /pis/api/v1/payin/history with the filters of q as its query
// (payin_status, customer_id, start_date and end_date, each only when
// set; the dates as YYYY-MM-DD). The page holds count, the next and
// previous links (nil at either end) and the payins in the fetch shape.
// All walks every page. A filter with one date and not the other, or
// an end date before the start date, is refused before sending
// (ErrInvalidRequest).
func (s *PayinsService) List(ctx context.Context, q types.PayinListFilter, opts ...RequestOption) (*types.PayinPage, error) {
	l, err := s.payinList(q)
	if err != nil {
		return nil, err
	}
	return l.page(ctx, opts)
}

// All yields every payin of the history filtered by q, following
// each page's next link, starting from GET /pis/api/v1/payin/history with
// q's query (see List). It stops at the first error, which it
// yields, at a page whose results are empty, or when next is null. A next
// link that leaves the base address or repeats an earlier one, or a page
// beyond the cap of WithMaxPages, is not followed: it yields an error
// matching ErrPagination. Memory is bounded by one page.
func (s *PayinsService) All(ctx context.Context, q types.PayinListFilter, opts ...RequestOption) iter.Seq2[types.Payin, error] {
	l, err := s.payinList(q)
	if err != nil {
		return failedList[types.Payin](err)
	}
	return l.all(ctx, opts)
}

// ListPage fetches the page of the payin history that next, the
// Next link of an earlier page, points to: GET /pis/api/v1/payin/history
// with the link's query, which carries the filters and the page. It resumes a listing where a stored link left it. The
// link must stay under the base address and lead to
// /pis/api/v1/payin/history; otherwise it is not sent and the error
// matches ErrPagination.
func (s *PayinsService) ListPage(ctx context.Context, next string, opts ...RequestOption) (*types.PayinPage, error) {
	l, err := s.payinList(types.PayinListFilter{})
	if err != nil {
		return nil, err
	}
	return l.pageAt(ctx, next, opts)
}
