package types

import (
	"encoding/json"

	"github.com/shopspring/decimal"
)

// WidgetFlowType is the direction of a hosted widget session. It is an
// open enum: a value the service sends that is not a constant here keeps
// its text.
type WidgetFlowType string

// Widget flow types.
const (
	// WidgetFlowBuy: the customer pays fiat and receives the asset in
	// their wallet.
	WidgetFlowBuy WidgetFlowType = "buy"
	// WidgetFlowSell: the customer sells the asset for fiat. The service
	// has this form but does not show its fields.
	WidgetFlowSell WidgetFlowType = "sell"
)

// WidgetRequest is the body of the hosted widget's initialization,
// POST /widget/initialize. Every member is required.
type WidgetRequest struct {
	// AssetCode is the crypto asset, e.g. "USDT".
	AssetCode string `json:"asset_code"`
	// FiatAmount is the fiat amount, sent as a decimal string exactly as
	// given (2600.50 stays "2600.50"); it must be above zero.
	FiatAmount decimal.Decimal `json:"fiat_amount"`
	// FiatCurrency is the fiat currency, e.g. "INR".
	FiatCurrency string `json:"fiat_currency"`
	// FlowType is WidgetFlowBuy (or WidgetFlowSell); the client sends it
	// in lower case, as the service documents it.
	FlowType WidgetFlowType `json:"flow_type" fiatramp:"lower"`
	// NetworkCode is the blockchain network of the wallet, e.g. "tron";
	// the client sends it in lower case, as the service documents it.
	NetworkCode string `json:"network_code" fiatramp:"lower"`
	// PaymentMethod is how the customer pays, e.g. UPI or IMPS.
	PaymentMethod PaymentMethod `json:"payment_method"`
	// WalletAddress receives the asset. A wrong address loses it.
	WalletAddress string `json:"wallet_address"`
}

// Widget is the data of the hosted widget's initialization: {widget_link}.
type Widget struct {
	// WidgetLink is the hosted widget page, carrying a token valid 30
	// minutes.
	WidgetLink string `json:"widget_link"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var widgetPlan = compilePlan[Widget]()

// UnmarshalJSON decodes the data of the hosted widget's initialization and
// keeps a copy of data in Raw. null leaves w unchanged; on error w is
// unchanged.
func (w *Widget) UnmarshalJSON(data []byte) error { return decode(w, data) }

func (*Widget) plan() *plan { return widgetPlan }
