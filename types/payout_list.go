package types

import (
	"time"

	"github.com/google/uuid"
)

// PayoutPage is one page of the payout history, the data of GET
// /pos/api/v1/payout/history: fetched payouts (amounts as decimal
// strings) with the links to the neighbouring pages.
type PayoutPage = Page[Payout]

// PayoutListFilter narrows the payout history; its zero value asks for
// every payout of the organization. Each set field becomes a query
// parameter of GET /pos/api/v1/payout/history.
type PayoutListFilter struct {
	// Status keeps the payouts in this status (payout_status); "" for
	// every status. Any value is sent as given.
	Status PayoutStatus
	// CustomerID keeps one customer's payouts (customer_id); uuid.Nil for
	// every customer.
	CustomerID uuid.UUID
	// StartDate and EndDate keep the payouts created from StartDate's
	// calendar day through EndDate's (start_date, end_date, sent as
	// YYYY-MM-DD: the date each time shows in its own location, so give
	// them in the zone the dates are meant in, UTC for the service's
	// days). Both or neither: a range with one end, or whose end comes
	// before its start, is refused before sending.
	StartDate time.Time
	EndDate   time.Time
}

// DateLayout is how the service writes a calendar date: YYYY-MM-DD.
const DateLayout = "2006-01-02"
