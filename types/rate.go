package types

import (
	"encoding/json"

	"github.com/shopspring/decimal"
)

// RateRequest asks for the exchange rate of an asset in a fiat currency:
// the query of GET /pos/api/v1/payout/fetch-rate and GET
// /pis/api/v1/payin/fetch-rate. The query is not signed (a GET signs
// "{}").
type RateRequest struct {
	// Asset is the asset code (USDT); sent in upper case. Required.
	Asset string
	// Fiat is the fiat currency code (INR); sent in upper case. Required.
	Fiat string
	// Network is the asset's network, asked for by the on-chain model
	// (an Australian deployment, say); sent as given, and only when set.
	Network string
}

// Rate is the exchange rate of an asset in a fiat currency, fiat per unit
// of asset: the data of a fetch rate. It indicates; the rate a payout or
// payin is made at is the one its quotation locks.
type Rate struct {
	// Asset is the asset code, as the service spells it.
	Asset string `json:"asset"`
	// Fiat is the fiat currency code, as the service spells it.
	Fiat string `json:"fiat"`
	// Rate is fiat per unit of asset, exactly as sent (a JSON number or a
	// decimal string). The client refuses an answer whose rate is absent,
	// null, zero or negative.
	Rate decimal.Decimal `json:"rate"`
	// Network is the asset's network, when the service names one.
	Network string `json:"network"`
	// Raw is a copy of the exact JSON object this rate was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var ratePlan = compilePlan[Rate]()

// UnmarshalJSON decodes a rate object and keeps a copy of data in Raw.
// null leaves r unchanged; on error r is unchanged.
func (r *Rate) UnmarshalJSON(data []byte) error { return decode(r, data) }

func (*Rate) plan() *plan { return ratePlan }
