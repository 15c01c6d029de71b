package types

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// CreatePayoutRequest is the body of a standard payout create,
// POST /pos/api/v1/payout/initiate.
type CreatePayoutRequest struct {
	// QuotationID is the valid, unexpired quotation to pay out (required);
	// a quotation can back one payout only.
	QuotationID uuid.UUID `json:"quotation_id"`
	// CustomerID is customer_id (required; must match the quotation's
	// customer).
	CustomerID uuid.UUID `json:"customer_id"`
	// ExchangeOrderID is the order id on the exchange; omitted when empty.
	// The service refuses one held by a PROCESSING or SUCCESS payout.
	ExchangeOrderID string `json:"exchange_order_id,omitempty"`
	// ClientReferenceID is the caller's reference, unique per organization;
	// when empty the client generates one (see
	// fiatramp.WithClientReferenceGenerator).
	ClientReferenceID string `json:"client_reference_id,omitempty"`
	// TransactionHash is the on-chain hash of the crypto deposit (the
	// on-chain model, which sends it in place of an exchange order id);
	// omitted when empty.
	TransactionHash string `json:"transaction_hash,omitempty"`
}

// Payout is a standard payout, as returned both by create payout
// (POST /pos/api/v1/payout/initiate) and by fetch payout
// (GET /pos/api/v1/payout/{payout_id}). A created payout is PROCESSING.
//
// The two variants differ on the wire: create returns rate, sending_amount
// and receiving_amount as JSON numbers, fetch returns them as decimal strings
// and spells the fiat amount `receiveing_amount`. Both decode here; when a
// body carries both spellings, receiving_amount (if not null or "") wins.
// Fields only the fetch variant carries (ExchangeTransferID, FailureReason,
// UTR, UpdatedAt) are zero after a create.
//
// Timestamps accept RFC 3339 with or without fractional seconds and with `Z`
// or a numeric offset; a timestamp without any zone is taken as UTC (the
// service's examples always carry one, and UTC is the only safe reading).
// null, "" and an absent field leave the zero time.
type Payout struct {
	// ID is the payout's id, the one Get and Wait take.
	ID uuid.UUID `json:"id"`
	// QuotationID is the quotation the payout was created against; it
	// fixed the rate and the destination bank account.
	QuotationID uuid.UUID `json:"quotation_id"`
	// CustomerID is the quotation's customer, who receives the fiat.
	CustomerID uuid.UUID `json:"customer_id"`
	// ClientReferenceID is the caller's reference, unique per organization;
	// nil when null or absent.
	ClientReferenceID *string `json:"client_reference_id"`
	// BankID is the destination bank account, the quotation's.
	BankID uuid.UUID `json:"bank_id"`
	// Asset is the crypto asset code.
	Asset string `json:"asset"`
	// Fiat is the fiat currency code.
	Fiat string `json:"fiat"`
	// Rate is the exchange rate the quotation locked.
	Rate decimal.Decimal `json:"rate"`
	// SendingAmount is the crypto amount, in units of Asset.
	SendingAmount decimal.Decimal `json:"sending_amount"`
	// ReceivingAmount is the fiat amount, in units of Fiat (sent as
	// receiveing_amount in the fetch response).
	ReceivingAmount decimal.Decimal `json:"receiving_amount" fiatramp:"alias=receiveing_amount"`
	// Fees is the breakdown of the fees taken.
	Fees Fees `json:"fees"`
	// ExchangeOrderID is the order id on the exchange; "" when the
	// response carries none.
	ExchangeOrderID string `json:"exchange_order_id"`
	// ExchangeTransferID is the transfer id on the exchange (fetch only;
	// may be empty).
	ExchangeTransferID string `json:"exchange_transfer_id"`
	// Status is the payout status: PROCESSING after a create, then
	// SUCCESS, FAILED, REFUNDED or IN_REVIEW.
	Status PayoutStatus `json:"status"`
	// FailureReason says why the payout failed; set when Status is FAILED
	// (fetch only), else nil.
	FailureReason *string `json:"failure_reason"`
	// UTR is the bank's transaction reference, set once the bank has paid
	// (fetch only), else nil.
	UTR *string `json:"utr"`
	// CreatedAt is when the payout was created.
	CreatedAt time.Time `json:"created_at"`
	// UpdatedAt is when the payout last changed (fetch only; zero when
	// absent).
	UpdatedAt time.Time `json:"updated_at"`
	// Raw is a copy of the exact JSON object this payout was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var payoutPlan = compilePlan[Payout]()

// UnmarshalJSON decodes a standard payout object (create or fetch variant)
// and keeps a copy of data in Raw. null leaves p unchanged;
// on error p is unchanged.
func (p *Payout) UnmarshalJSON(data []byte) error { return decode(p, data) }

func (*Payout) plan() *plan { return payoutPlan }
