package types

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// CreatePayoutQuotationRequest is the body of a payout quotation create,
// POST /pos/api/v1/payout/quotation: it locks a rate for paying
// SendingAmount of Asset out as Fiat to the customer's bank account.
type CreatePayoutQuotationRequest struct {
	// Asset is the crypto asset code; the client sends it in lower case.
	Asset string `json:"asset" fiatramp:"lower"`
	// Fiat is the fiat currency code; the client sends it in lower case.
	Fiat string `json:"fiat" fiatramp:"lower"`
	// SendingAmount is the crypto amount to pay out, in units of Asset,
	// greater than zero. The client sends it as a string holding the exact
	// decimal with the digits it was given ("12.50" stays "12.50").
	SendingAmount decimal.Decimal `json:"sending_amount"`
	// CustomerID is the receiving customer, who must be KYC-verified.
	CustomerID uuid.UUID `json:"customer_id"`
	// BankID is the customer's verified bank account the fiat is paid to
	// (a bank account, not a UPI id: payouts are not paid by UPI).
	BankID uuid.UUID `json:"bank_id"`
	// Network is the chain the crypto is deposited on (the on-chain
	// model, e.g. "TRON"); omitted when empty, as the exchange model
	// sends none. Sent as given.
	Network string `json:"network,omitempty"`
	// RiskParameters describes the customer for the service's risk
	// checks; always sent.
	RiskParameters RiskParameters `json:"risk_parameters"`
}

// PayoutQuotation is a payout quotation: a locked rate, the amounts and
// fees, and an expiry time, as answered by create payout quotation
// (POST /pos/api/v1/payout/quotation) and by fetch payout quotation
// (GET /pos/api/v1/payout/quotation/{quotation_id}), which adds OrderID
// and Status.
//
// Amounts decode from JSON numbers or decimal strings; receiveing_amount is
// accepted as in Payout. Timestamps follow the rules on Payout.
type PayoutQuotation struct {
	// ID is the quotation's id, the one GetQuotation and a payout create
	// take.
	ID uuid.UUID `json:"id"`
	// OrderID is the id of the order behind the quotation (fetch only;
	// uuid.Nil when absent).
	OrderID uuid.UUID `json:"order_id"`
	// CustomerID is the receiving customer.
	CustomerID uuid.UUID `json:"customer_id"`
	// BankID is the bank account the fiat is paid to.
	BankID uuid.UUID `json:"bank_id"`
	// Status is the quotation's state (fetch only): UNLINKED until a
	// payout is created on it, then LINKED, or EXPIRED once it expired
	// unused. Any other value (PROCESSING appears in the service's
	// examples) is kept as text; "" when absent.
	Status QuotationStatus `json:"status"`
	// Asset is the asset code (upper case in responses).
	Asset string `json:"asset"`
	// Fiat is the fiat code (upper case in responses).
	Fiat string `json:"fiat"`
	// Network is the chain of the deposit (on-chain model only; "" when
	// absent).
	Network string `json:"network"`
	// WalletAddress is the deposit address the crypto is sent to (on-chain
	// model only; "" when absent).
	WalletAddress string `json:"wallet_address"`
	// SendingAmount is the crypto amount, in units of Asset.
	SendingAmount decimal.Decimal `json:"sending_amount"`
	// Rate is the locked exchange rate, fiat per unit of Asset.
	Rate decimal.Decimal `json:"rate"`
	// ReceivingAmount is the fiat amount the customer receives.
	ReceivingAmount decimal.Decimal `json:"receiving_amount" fiatramp:"alias=receiveing_amount"`
	// Fees is the breakdown of the fees taken (quotation_fee in an older
	// guide; fees wins unless it is null).
	Fees Fees `json:"fees" fiatramp:"alias=quotation_fee"`
	// CreatedAt is when the quotation was created.
	CreatedAt time.Time `json:"created_at"`
	// ExpiryTime is the instant from which the quotation is expired.
	ExpiryTime time.Time `json:"expiry_time"`
	// Raw is a copy of the exact JSON object this quotation was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

// Expired reports whether the quotation is expired at now: true when now
// is at or after ExpiryTime, or when Status says EXPIRED. A quotation
// without an expiry time (zero ExpiryTime) reports expired, since its
// validity is unknown.
func (q *PayoutQuotation) Expired(now time.Time) bool {
	return q.Status == QuotationExpired || !now.Before(q.ExpiryTime)
}

var payoutQuotationPlan = compilePlan[PayoutQuotation]()

// UnmarshalJSON decodes a payout quotation object (create or fetch) and
// keeps a copy of data in Raw. null leaves q unchanged; on error q is
// unchanged.
func (q *PayoutQuotation) UnmarshalJSON(data []byte) error {
	return decode(q, data)
}

func (*PayoutQuotation) plan() *plan { return payoutQuotationPlan }

// LinkTransferRequest is the body of PATCH
// /pos/api/v1/payout/update-transfer-id: it records on the payout of an
// exchange order the id of the exchange's transfer that funds it.
type LinkTransferRequest struct {
	// ExchangeOrderID is the exchange order id the payout was created
	// with (required).
	ExchangeOrderID string `json:"exchange_order_id"`
	// ExchangeTransferID is the exchange's transfer id (required). The
	// service declares it a UUID but its examples send digit strings, so
	// it is sent as given.
	ExchangeTransferID string `json:"exchange_transfer_id"`
}

// TransferLink is the answer of a transfer id link: the exchange order id
// and the transfer id now recorded for it.
type TransferLink struct {
	// ExchangeOrderID is the exchange order id of the payout.
	ExchangeOrderID string `json:"exchange_order_id"`
	// ExchangeTransferID is the transfer id recorded.
	ExchangeTransferID string `json:"exchange_transfer_id"`
	// Raw is a copy of the exact JSON object this link was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var transferLinkPlan = compilePlan[TransferLink]()

// UnmarshalJSON decodes a transfer link and keeps a copy of data in Raw.
// null leaves l unchanged; on error l is unchanged.
func (l *TransferLink) UnmarshalJSON(data []byte) error { return decode(l, data) }

func (*TransferLink) plan() *plan { return transferLinkPlan }
