package sandbox

// The payout history: GET /pos/api/v1/payout/history, filtered and paged.

import (
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// Messages of the payout history's refusals: the sandbox's own wording,
// under the members the service names (errors.date_range for a range
// with one end).
const (
	phMsgDateRange  = "Both start_date and end_date are required to filter by date."
	phMsgDateOrder  = "end_date must not be before start_date."
	phMsgDateFormat = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."
	phMsgFetched    = "Payout history fetched successfully"
)

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
	errs := map[string][]string{}
	var customerID uuid.UUID
	if v := query.Get("customer_id"); v != "" {
		id, ok := idFromPath(v)
		if !ok {
			errs["customer_id"] = []string{msgUUID}
		}
		customerID = id
	}
	start, startOK := historyDate(query, "start_date", errs)
	end, endOK := historyDate(query, "end_date", errs)
	switch {
	case startOK != endOK:
		errs["date_range"] = []string{phMsgDateRange}
	case startOK && end.Before(start):
		errs["date_range"] = []string{phMsgDateOrder}
	}
	if len(errs) > 0 {
		return fieldRefusal(errs)
	}
	page, ok := pageParam(query)
	if !ok {
		return invalidPage()
	}
	status := types.PayoutStatus(query.Get("payout_status"))
	var match []*payout
	for _, p := range s.payouts {
		switch {
		case p.OrganizationID != rq.org.ID:
		case status != "" && p.Status != status:
		case customerID != uuid.Nil && p.CustomerID != customerID:
		case startOK && historyDay(p.CreatedAt).Before(start):
		case startOK && historyDay(p.CreatedAt).After(end):
		default:
			match = append(match, p)
		}
	}
	slices.SortFunc(match, func(a, b *payout) int { return a.seq - b.seq })
	data, ok := pageOf(s, rq.r, query, page, match, payoutFetchedOf)
	if !ok {
		return invalidPage()
	}
	return success(http.StatusOK, phMsgFetched, data)
}

// historyDate reads the date query parameter name (YYYY-MM-DD), filing a
// format error in errs; ok is false when it is absent or malformed.
func historyDate(query url.Values, name string, errs map[string][]string) (time.Time, bool) {
	v := query.Get(name)
	if v == "" {
		return time.Time{}, false
	}
	d, err := time.Parse(types.DateLayout, v)
	if err != nil {
		errs[name] = []string{phMsgDateFormat}
		return time.Time{}, false
	}
	return d, true
}

// historyDay is the UTC day t falls on, as a date at midnight UTC.
func historyDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
