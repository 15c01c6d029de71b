package types

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// InitiatePayinRequest is the body of a payin initiate,
// POST /pis/api/v1/payin/initiate: the customer has paid the quoted amount
// from their own account, and UTR names that bank transfer.
type InitiatePayinRequest struct {
	// QuotationID is the unexpired payin quotation paid against
	// (required); a quotation backs one payin only.
	QuotationID uuid.UUID `json:"quotation_id"`
	// CustomerID is the quotation's customer (required).
	CustomerID uuid.UUID `json:"customer_id"`
	// UTR is the unique transaction reference of the customer's bank
	// transfer (required): 12 characters, and never linked to another
	// payin of the organization.
	UTR string `json:"utr"`
	// ClientReferenceID is the caller's reference, unique per
	// organization; when empty the client generates one (see
	// fiatramp.WithClientReferenceGenerator). Omitted when empty.
	ClientReferenceID string `json:"client_reference_id,omitempty"`
}

// Payin is a payin: the quotation's fields plus the payin's own id, its UTR
// and its status. Initiate (POST /pis/api/v1/payin/initiate) answers it
// PROCESSING, with amounts as JSON numbers and the quotation's deposit
// instructions; fetch (GET /pis/api/v1/payin/{payin_id}) and history
// answer it with decimal strings, the amount of the asset received spelled
// receiveing_amount, and the fields that move
// (ExchangeTransferID, FailureReason, RefundReason, UpdatedAt). Both
// decode here; when a body carries both spellings, receiving_amount (if
// not null or "") wins. Timestamps follow the rules on Payout.
type Payin struct {
	// ID is the payin's own id, the one Get takes (not the quotation's).
	ID uuid.UUID `json:"id"`
	// QuotationID is the quotation the payin was initiated against.
	QuotationID uuid.UUID `json:"quotation_id"`
	// CustomerID is the paying customer.
	CustomerID uuid.UUID `json:"customer_id"`
	// ClientReferenceID is the caller's reference; nil when null or
	// absent.
	ClientReferenceID *string `json:"client_reference_id"`
	// BankID is the account the customer paid from.
	BankID uuid.UUID `json:"bank_id"`
	// Asset is the asset code the customer receives.
	Asset string `json:"asset"`
	// Fiat is the fiat code the customer pays in.
	Fiat string `json:"fiat"`
	// PaymentMethod is IMPS or UPI; "" when the answer leaves it out.
	PaymentMethod PaymentMethod `json:"payment_method"`
	// SendingAmount is the fiat amount the customer paid, as quoted.
	SendingAmount decimal.Decimal `json:"sending_amount"`
	// Rate is the locked exchange rate.
	Rate decimal.Decimal `json:"rate"`
	// ReceivingAmount is the amount of Asset the customer receives (sent
	// as receiveing_amount by fetch and history).
	ReceivingAmount decimal.Decimal `json:"receiving_amount" fiatramp:"alias=receiveing_amount"`
	// Fees is the breakdown of the fees taken.
	Fees Fees `json:"fees"`
	// UTR is the bank transfer's reference the payin was initiated with.
	UTR string `json:"utr"`
	// ExchangeTransferID is the transfer id on the exchange, once linked
	// (Payins.LinkTransfer); "" before.
	ExchangeTransferID string `json:"exchange_transfer_id"`
	// Status is the payin status: PROCESSING after initiate, then SUCCESS,
	// FAILED, ON_HOLD, REFUND_INITIATED or REFUNDED. Any value is kept as
	// text.
	Status PayinStatus `json:"status"`
	// FailureReason says why the payin failed (e.g. INCORRECT_UTR); ""
	// unless FAILED.
	FailureReason PayinFailureReason `json:"failure_reason"`
	// RefundReason says why the payin is refunded (e.g. INCORRECT_AMOUNT);
	// "" unless REFUND_INITIATED or REFUNDED.
	RefundReason PayinRefundReason `json:"refund_reason"`
	// CreatedAt is when the payin was initiated.
	CreatedAt time.Time `json:"created_at"`
	// UpdatedAt is when the payin last changed (zero when absent).
	UpdatedAt time.Time `json:"updated_at"`
	// ExpiryTime is the quotation's expiry, when the answer carries it.
	ExpiryTime time.Time `json:"expiry_time"`
	// DepositInstructions tells where the customer pays, as the
	// quotation's: initiate answers it (zero when absent).
	DepositInstructions DepositInstructions `json:"deposit_instructions"`
	// DeepLink and IOSCheckoutLink are the quotation's UPI payment links
	// when the answer carries them, read as on PayinQuotation ("" when
	// none).
	DeepLink        string `json:"deep_link" fiatramp:"alias=deposit_instructions.deep_link"`
	IOSCheckoutLink string `json:"ios_checkout_link" fiatramp:"alias=deposit_instructions.ios_checkout_link"`
	// Raw is a copy of the exact JSON object this payin was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var payinPlan = compilePlan[Payin]()

// UnmarshalJSON decodes a payin (initiate, fetch or history item) and
// keeps a copy of data in Raw. null leaves p unchanged; on error p is
// unchanged.
func (p *Payin) UnmarshalJSON(data []byte) error { return decode(p, data) }

func (*Payin) plan() *plan { return payinPlan }

// PayinPage is one page of the payin history,
// GET /pis/api/v1/payin/history.
type PayinPage = Page[Payin]

// PayinListFilter filters the payin history. Every zero field is left
// out of the query.
type PayinListFilter struct {
	// Status keeps the payins in this status (payin_status).
	Status PayinStatus
	// CustomerID keeps one customer's payins (customer_id).
	CustomerID uuid.UUID
	// StartDate and EndDate keep the payins created from StartDate to
	// EndDate, both days included, sent as start_date and end_date
	// (YYYY-MM-DD, each the calendar date of the time in its own
	// location). Both or neither: one without the other is refused before
	// sending.
	StartDate time.Time
	EndDate   time.Time
}

// LinkPayinTransferRequest is the body of
// PATCH /pis/api/v1/payin/update-transfer-id: the exchange transfer that
// delivered a payin's asset.
type LinkPayinTransferRequest struct {
	// PayinID is the payin's own id (required).
	PayinID uuid.UUID `json:"payin_id"`
	// ExchangeTransferID is the transfer id on the exchange (required).
	ExchangeTransferID string `json:"exchange_transfer_id"`
}

// PayinTransferLink is the answer of a payin's transfer id link:
// {payin_id, exchange_transfer_id}.
type PayinTransferLink struct {
	// PayinID is the payin linked.
	PayinID uuid.UUID `json:"payin_id"`
	// ExchangeTransferID is the transfer id now stored on it.
	ExchangeTransferID string `json:"exchange_transfer_id"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var payinTransferLinkPlan = compilePlan[PayinTransferLink]()

// UnmarshalJSON decodes the link's answer and keeps a copy of data in Raw.
// null leaves l unchanged; on error l is unchanged.
func (l *PayinTransferLink) UnmarshalJSON(data []byte) error {
	return decode(l, data)
}

func (*PayinTransferLink) plan() *plan { return payinTransferLinkPlan }
