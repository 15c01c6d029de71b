package types

import (
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"
)

// Limits are a customer's limits for payouts or payins: the data of GET
// /ren/api/v1/payout/limits/{customer_id} and GET
// /ren/api/v1/payin/limits/{customer_id}. An older edition of the payin
// limits (GET /pis/api/v1/payin/limit/{customer_id}) spells the two
// amounts maximum_daily_limit and available_daily_limit, as decimal
// strings; they decode into the same fields. Amounts are fiat, exactly as
// sent (a JSON number or a decimal string).
type Limits struct {
	// DailyLimit is daily_limit (older: maximum_daily_limit), the most
	// the customer may move in a day; nil when the answer leaves it out.
	DailyLimit *decimal.Decimal `json:"daily_limit" fiatramp:"alias=maximum_daily_limit"`
	// AvailableLimit is available_limit (older: available_daily_limit),
	// what is left of it now. The client refuses an answer without it: an
	// unknown limit is not zero.
	AvailableLimit *decimal.Decimal `json:"available_limit" fiatramp:"alias=available_daily_limit"`
	// PaymentMethodLimits are the limits per payment method.
	PaymentMethodLimits PaymentMethodLimits `json:"payment_method_limits"`
	// FullLimitResetTimestamp is when the whole daily limit is available
	// again; zero when absent.
	FullLimitResetTimestamp time.Time `json:"full_limit_reset_timestamp"`
	// IsEDDRequired is true when the customer must complete enhanced due
	// diligence (SaveEDD) before moving more.
	IsEDDRequired bool `json:"is_edd_required"`
	// IsLimitIncreaseAvailable is true when the limit can be raised (by an
	// EDD).
	IsLimitIncreaseAvailable bool `json:"is_limit_increase_available"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

// PaymentMethodLimits are a customer's limits per payment method, keyed
// by the method as sent ("UPI", "IMPS"). Every amount must be a decimal;
// a map is nil when its member is absent or null.
type PaymentMethodLimits struct {
	// PerTransactionLimit is the most one transaction may carry.
	PerTransactionLimit map[string]decimal.Decimal `json:"per_transaction_limit"`
	// TotalAvailableLimit is what is left today by each method.
	TotalAvailableLimit map[string]decimal.Decimal `json:"total_available_limit"`
}

var limitsPlan = compilePlan[Limits]()

// UnmarshalJSON decodes limits of either edition and keeps a copy of data
// in Raw. null leaves l unchanged; on error l is unchanged.
func (l *Limits) UnmarshalJSON(data []byte) error { return decode(l, data) }

func (*Limits) plan() *plan { return limitsPlan }
