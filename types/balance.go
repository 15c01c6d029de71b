package types

import (
	"encoding/json"

	"github.com/shopspring/decimal"
)

// Balance is the organization's prefunded balance (GET
// /pos/api/v1/payout/balance).
type Balance struct {
	// AvailableBalance is available_balance: the amount available per
	// asset code, exactly as sent (a JSON number or a decimal string).
	// When an asset repeats, the last one wins. Nil when the member is
	// absent or null.
	AvailableBalance map[string]decimal.Decimal `json:"available_balance"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var balancePlan = compilePlan[Balance]()

// UnmarshalJSON decodes the balance data and keeps a copy of data in Raw.
// Every amount must be a decimal (number or decimal string); null and ""
// amounts are refused, since an unknown balance is not zero. null leaves b
// unchanged; on error b is unchanged.
func (b *Balance) UnmarshalJSON(data []byte) error { return decode(b, data) }

func (*Balance) plan() *plan { return balancePlan }
