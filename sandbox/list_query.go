package sandbox

// The query of the two history lists (payouts and payins): customer,
// date range and page, read by one set of rules.

import (
	"net/url"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// Messages of the history lists' refusals: the sandbox's own wording,
// under the members the service names (errors.date_range for a range
// with one end).
const (
	historyMsgDateRange  = "Both start_date and end_date are required to filter by date."
	historyMsgDateOrder  = "end_date must not be before start_date."
	historyMsgDateFormat = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."
)

// historyQuery is what a history request asks for besides its status.
type historyQuery struct {
	customerID uuid.UUID // uuid.Nil: every customer
	start, end time.Time // UTC days, both set when dated
	dated      bool
	page       int
}

// readHistoryQuery reads customer_id, start_date and end_date
// (YYYY-MM-DD, both or neither) and page. A parameter that is present
// counts, even empty: a malformed date or customer id is a 400 under its
// own name, a range with one end or ending before it starts a 400 under
// errors.date_range, a bad page "Invalid page." (404). ok is false with
// the refusal to answer.
func readHistoryQuery(query url.Values) (q historyQuery, refused reply, ok bool) {
	errs := map[string][]string{}
	if query.Has("customer_id") {
		id, valid := idFromPath(query.Get("customer_id"))
		if !valid {
			errs["customer_id"] = []string{msgUUID}
		}
		q.customerID = id
	}
	start, startOK := historyDate(query, "start_date", errs)
	end, endOK := historyDate(query, "end_date", errs)
	switch {
	case query.Has("start_date") != query.Has("end_date"):
		errs["date_range"] = []string{historyMsgDateRange}
	case startOK && endOK && end.Before(start):
		errs["date_range"] = []string{historyMsgDateOrder}
	}
	if len(errs) > 0 {
		return q, fieldRefusal(errs), false
	}
	page, valid := pageParam(query)
	if !valid {
		return q, invalidPage(), false
	}
	q.start, q.end, q.dated, q.page = start, end, startOK && endOK, page
	return q, reply{}, true
}

// historyOf is what a history query asks for of all, the organization's
// objects in order of creation time: the customer's own list (of of the
// customer in customers) when one is named, narrowed to the date range
// by binary search. It is a slice of the organization's own lists, found
// at a cost that does not grow with their length; a status filter is then
// applied to it alone.
func historyOf[T any](all []*T, customers map[uuid.UUID]*customer, q historyQuery,
	created func(*T) time.Time, of func(*customer) []*T) []*T {
	items := all
	if q.customerID != uuid.Nil {
		c := customers[q.customerID]
		if c == nil {
			return nil
		}
		items = of(c)
	}
	if q.dated {
		items = during(items, created, q.start, q.end)
	}
	return items
}

// filtered returns the items keep keeps, in a new slice.
func filtered[T any](items []*T, keep func(*T) bool) []*T {
	var out []*T
	for _, it := range items {
		if keep(it) {
			out = append(out, it)
		}
	}
	return out
}

// historyDate reads the date query parameter name (YYYY-MM-DD), filing a
// format error in errs; ok is false when it is absent or malformed.
func historyDate(query url.Values, name string, errs map[string][]string) (time.Time, bool) {
	if !query.Has(name) {
		return time.Time{}, false
	}
	d, err := time.Parse(types.DateLayout, query.Get(name))
	if err != nil {
		errs[name] = []string{historyMsgDateFormat}
		return time.Time{}, false
	}
	return d, true
}
