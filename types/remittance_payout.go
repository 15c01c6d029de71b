package types

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// CreateRemittancePayoutRequest is the body of a remittance payout create,
// POST to fiatramp.DefaultRemittancePayoutPath unless the client was given
// another path.
type CreateRemittancePayoutRequest struct {
	// QuotationID is the remittance payout quotation to pay out (required).
	QuotationID uuid.UUID `json:"quotation_id"`
	// CustomerID is the customer who receives the fiat (required).
	CustomerID uuid.UUID `json:"customer_id"`
	// RemitterID is the remitter on whose behalf the payout is made
	// (required); stored on the payout and echoed back, not passed on to
	// any partner.
	RemitterID uuid.UUID `json:"remitter_id"`
	// ClientReferenceID is the caller's reference; when empty the client
	// generates one.
	ClientReferenceID string `json:"client_reference_id,omitempty"`
	// TransactionHash is the on-chain hash of the crypto deposit, required
	// outside the prefunding flow (where the payout debits the prefunded
	// balance instead); omitted when empty.
	TransactionHash string `json:"transaction_hash,omitempty"`
}

// RemittancePayout is the data of a create remittance payout response. The
// service does not document its fields, so every field here is optional
// and decoded leniently from the names the other payouts use; Raw is the
// authoritative record of what the service sent. The service stores
// remitter_id on the payout and echoes it in the response. Amounts follow
// the rules of Payout (numbers or decimal strings, either spelling of
// receiving_amount) and Fees those of a standard payout's fees.
type RemittancePayout struct {
	// ID is the payout's id.
	ID uuid.UUID `json:"id"`
	// QuotationID is the remittance quotation paid out.
	QuotationID uuid.UUID `json:"quotation_id"`
	// CustomerID is the customer who receives the fiat.
	CustomerID uuid.UUID `json:"customer_id"`
	// RemitterID is the remitter sent in the request, echoed back.
	RemitterID uuid.UUID `json:"remitter_id"`
	// ClientReferenceID is the caller's reference; nil when null or absent.
	ClientReferenceID *string `json:"client_reference_id"`
	// TransactionHash is the hash of the on-chain deposit that funds the
	// payout; nil when null or absent (as on the prefunding flow).
	TransactionHash *string `json:"transaction_hash"`
	// Status is the payout status.
	Status PayoutStatus `json:"status"`
	// Asset is the crypto asset code.
	Asset string `json:"asset"`
	// Fiat is the fiat currency code.
	Fiat string `json:"fiat"`
	// Rate is the exchange rate.
	Rate decimal.Decimal `json:"rate"`
	// SendingAmount is the crypto amount, in units of Asset.
	SendingAmount decimal.Decimal `json:"sending_amount"`
	// ReceivingAmount is the fiat amount, in units of Fiat.
	ReceivingAmount decimal.Decimal `json:"receiving_amount" fiatramp:"alias=receiveing_amount"`
	// Fees is the breakdown of the fees taken.
	Fees Fees `json:"fees"`
	// UTR is the bank's transaction reference, set once the bank has paid;
	// nil when null or absent.
	UTR *string `json:"utr"`
	// FailureReason says why the payout failed; nil when null or absent.
	FailureReason *string `json:"failure_reason"`
	// CreatedAt is when the payout was created.
	CreatedAt time.Time `json:"created_at"`
	// UpdatedAt is when the payout last changed.
	UpdatedAt time.Time `json:"updated_at"`
	// Raw is a copy of the exact JSON object this payout was decoded from:
	// the authoritative record, since the fields are not documented.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var remittancePayoutPlan = compilePlan[RemittancePayout]()

// UnmarshalJSON decodes the remittance payout data, every field optional, and keeps a copy of data in Raw. null leaves p
// unchanged; on error p is unchanged.
func (p *RemittancePayout) UnmarshalJSON(data []byte) error {
	return decode(p, data)
}

func (*RemittancePayout) plan() *plan { return remittancePayoutPlan }
