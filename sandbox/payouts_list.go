package sandbox

// The payout history: GET /pos/api/v1/payout/history, filtered and paged.

import (
	"github.com/fiatramp/fiatramp-go/types"
)

// phMsgFetched is the message of a page of the history.
const phMsgFetched = "Payout history fetched successfully"

// payoutHistory is GET /pos/api/v1/payout/history with the query
// parameters payout_status (exact), customer_id, start_date and end_date
// (YYYY-MM-DD, the payouts created from the first day through the last,
// UTC days of the sandbox clock; both or neither) and page. It answers
// the organization's payouts of every kind, in creation order, in the
// fetch shape, Settings.PageSize to a page, with absolute next and
// previous links that carry the filter (see pageBase). A range with one
// end, or ending before it starts, is a 400 under errors.date_range; a
// malformed date or customer id a 400 under its own name; a page beyond
// the last "Invalid page." (404).
func (s *Sandbox) payoutHistory(rq *request) reply {
	query := rq.r.URL.Query()
	hq, refused, ok := readHistoryQuery(query)
	if !ok {
		return refused
	}
	status := types.PayoutStatus(query.Get("payout_status"))
	match := historyOf(rq.org.payouts.order, rq.org.customers.byID, hq, payoutCreatedAt,
		func(c *customer) []*payout { return c.payouts })
	if status != "" {
		match = filtered(match, func(p *payout) bool { return p.Status == status })
	}
	return listReply(s, rq.r, query, hq.page, match, payoutFetchedOf, phMsgFetched)
}
