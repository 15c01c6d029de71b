package sandbox

// The payin history: GET /pis/api/v1/payin/history, filtered and paged.

import (
	"github.com/fiatramp/fiatramp-go/types"
)

// pihMsgFetched is the message of a page of the history.
const pihMsgFetched = "Payin history fetched successfully"

// listPayinHistory is GET /pis/api/v1/payin/history with the query
// parameters payin_status (exact), customer_id, start_date and end_date
// (YYYY-MM-DD, the payins initiated from the first day through the last,
// UTC days of the sandbox clock; both or neither) and page. It answers
// the organization's payins, in the order they were initiated, in the
// fetch shape, Settings.PageSize to a page, with absolute next and
// previous links that carry the filter (see pageBase). A range with one
// end, or ending before it starts, is a 400 under errors.date_range; a
// malformed date or customer id a 400 under its own name; a page beyond
// the last "Invalid page." (404).
func (s *Sandbox) listPayinHistory(rq *request) reply {
	query := rq.r.URL.Query()
	hq, refused, ok := readHistoryQuery(query)
	if !ok {
		return refused
	}
	status := types.PayinStatus(query.Get("payin_status"))
	match := historyOf(rq.org.payins.order, rq.org.customers.byID, hq, payinCreated,
		func(c *customer) []*payin { return c.payins })
	if status != "" {
		match = filtered(match, func(p *payin) bool { return p.status == status })
	}
	return listReply(s, rq.r, query, hq.page, match, payinFetchedOf, pihMsgFetched)
}
