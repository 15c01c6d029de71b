package sandbox

// The payin history: GET /pis/api/v1/payin/history, filtered and paged.

import (
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// Messages of the payin history's refusals: the sandbox's own wording,
// under the members the service names (errors.date_range for a range
// with one end).
const (
	pihMsgDateRange  = "Both start_date and end_date are required to filter by date."
	pihMsgDateOrder  = "end_date must not be before start_date."
	pihMsgDateFormat = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."
	pihMsgFetched    = "Payin history fetched successfully"
)

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
	errs := map[string][]string{}
	var customerID uuid.UUID
	if v := query.Get("customer_id"); v != "" {
		id, ok := idFromPath(v)
		if !ok {
			errs["customer_id"] = []string{msgUUID}
		}
		customerID = id
	}
	start, startOK := payinHistoryDate(query, "start_date", errs)
	end, endOK := payinHistoryDate(query, "end_date", errs)
	switch {
	case query.Has("start_date") != query.Has("end_date"):
		errs["date_range"] = []string{pihMsgDateRange}
	case startOK && endOK && end.Before(start):
		errs["date_range"] = []string{pihMsgDateOrder}
	}
	if len(errs) > 0 {
		return fieldRefusal(errs)
	}
	page, ok := pageParam(query)
	if !ok {
		return invalidPage()
	}
	status := types.PayinStatus(query.Get("payin_status"))
	var match []*payin
	for _, p := range s.payins {
		day := payinDay(p.createdAt)
		switch {
		case p.organizationID != rq.org.ID:
		case status != "" && p.status != status:
		case customerID != uuid.Nil && p.quotation.customerID != customerID:
		case startOK && (day.Before(start) || day.After(end)):
		default:
			match = append(match, p)
		}
	}
	slices.SortFunc(match, func(a, b *payin) int { return a.seq - b.seq })
	data, ok := pageOf(s, rq.r, query, page, match, payinFetchedOf)
	if !ok {
		return invalidPage()
	}
	return success(http.StatusOK, pihMsgFetched, data)
}

// payinHistoryDate reads the date query parameter name (YYYY-MM-DD),
// filing a format error in errs; ok is false when it is absent or
// malformed.
func payinHistoryDate(query url.Values, name string, errs map[string][]string) (time.Time, bool) {
	if !query.Has(name) {
		return time.Time{}, false
	}
	d, err := time.Parse("2006-01-02", query.Get(name))
	if err != nil {
		errs[name] = []string{pihMsgDateFormat}
		return time.Time{}, false
	}
	return d, true
}

// payinDay is the UTC day t falls on, as a date at midnight UTC.
func payinDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
