package types

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// CreatePrefundedPayoutRequest is the body of a prefunded payout create,
// POST /pos/api/v1/prefunded/payout/initiate.
type CreatePrefundedPayoutRequest struct {
	// QuotationID is the prefunded quotation to pay out (required).
	QuotationID uuid.UUID `json:"quotation_id"`
	// Customer holds the ids of the paying sender and of the receiver, the
	// quotation's customer (both required).
	Customer PrefundedCustomer `json:"customer"`
	// ClientReferenceID is the caller's reference, unique if sent; when
	// empty the client generates one.
	ClientReferenceID string `json:"client_reference_id,omitempty"`
}

// PrefundedCustomer is the customer object of a prefunded payout request:
// who pays and who receives.
type PrefundedCustomer struct {
	// Sender is customer.sender, the paying customer.
	Sender CustomerRef `json:"sender"`
	// Receiver is customer.receiver, the quotation's customer.
	Receiver CustomerRef `json:"receiver"`
}

// CustomerRef is {"id": uuid}, one side of PrefundedCustomer.
type CustomerRef struct {
	// ID is the customer's id (required).
	ID uuid.UUID `json:"id"`
}

// PrefundedPayout is the payout returned by create prefunded payout,
// POST /pos/api/v1/prefunded/payout/initiate. Amounts are decimal strings on the
// wire; JSON numbers are accepted too. Timestamps follow the rules on Payout.
type PrefundedPayout struct {
	// ID is the payout's id.
	ID uuid.UUID `json:"id"`
	// QuotationID is the prefunded quotation paid out.
	QuotationID uuid.UUID `json:"quotation_id"`
	// BankID is the destination bank account, the quotation's.
	BankID uuid.UUID `json:"bank_id"`
	// Asset is the crypto asset code.
	Asset string `json:"asset"`
	// Network is the blockchain network of the asset.
	Network string `json:"network"`
	// Fiat is the fiat currency code.
	Fiat string `json:"fiat"`
	// Rate is the exchange rate, fees included.
	Rate decimal.Decimal `json:"rate"`
	// SendingAmount is the crypto amount reserved from the prefunded
	// balance, in units of Asset.
	SendingAmount decimal.Decimal `json:"sending_amount"`
	// ReceivingAmount is the fiat amount the beneficiary receives, in units
	// of Fiat (receiveing_amount is accepted as in Payout).
	ReceivingAmount decimal.Decimal `json:"receiving_amount" fiatramp:"alias=receiveing_amount"`
	// ClientReferenceID is the caller's reference; nil when null or absent.
	ClientReferenceID *string `json:"client_reference_id"`
	// Fees is the breakdown of the fees taken.
	Fees PrefundedFees `json:"fees"`
	// Status is the payout status, PROCESSING after a create.
	Status PayoutStatus `json:"status"`
	// WalletAddress is the deposit address taken from the quotation.
	WalletAddress string `json:"wallet_address"`
	// TransactionHash is the hash of the on-chain funding transaction;
	// nil when null or absent.
	TransactionHash *string `json:"transaction_hash"`
	// UTR is the bank's transaction reference, set once the bank has paid;
	// nil before.
	UTR *string `json:"utr"`
	// FailureReason says why the payout failed; set when Status is FAILED,
	// else nil.
	FailureReason *string `json:"failure_reason"`
	// UpdatedAt is when the payout last changed.
	UpdatedAt time.Time `json:"updated_at"`
	// CreatedAt is when the payout was created.
	CreatedAt time.Time `json:"created_at"`
	// Customer holds the ids of the paying sender and of the receiver.
	Customer PrefundedPayoutParties `json:"customer"`
	// Raw is a copy of the exact JSON object this payout was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var prefundedPayoutPlan = compilePlan[PrefundedPayout]()

// UnmarshalJSON decodes a prefunded payout object and keeps a copy of data in Raw. null leaves p unchanged; on error p is
// unchanged.
func (p *PrefundedPayout) UnmarshalJSON(data []byte) error {
	return decode(p, data)
}

func (*PrefundedPayout) plan() *plan { return prefundedPayoutPlan }

// PrefundedPayoutParties is the customer object of a prefunded payout: the
// paying sender and the receiving customer.
type PrefundedPayoutParties struct {
	// Sender is the paying customer, stored for reference.
	Sender PartyRef `json:"sender"`
	// Receiver is the quotation's customer, who owns the bank account.
	Receiver PartyRef `json:"receiver"`
}

var prefundedPayoutPartiesPlan = compilePlan[PrefundedPayoutParties]()

// UnmarshalJSON decodes {"sender": {"id"}, "receiver": {"id"}} with exact
// member names, the last of a repeated one deciding alone (a later null
// gives a zero PartyRef). null leaves p unchanged; on error p is unchanged.
func (p *PrefundedPayoutParties) UnmarshalJSON(data []byte) error {
	return decode(p, data)
}

func (*PrefundedPayoutParties) plan() *plan { return prefundedPayoutPartiesPlan }

// PartyRef is one side of PrefundedPayoutParties: its id is a uuid or
// null.
type PartyRef struct {
	// ID is the customer id; nil when null, "" or absent.
	ID *uuid.UUID `json:"id"`
}

var partyRefPlan = compilePlan[PartyRef]()

// UnmarshalJSON decodes {"id": uuid or null};
// null and "" give a nil ID. null leaves r unchanged.
func (r *PartyRef) UnmarshalJSON(data []byte) error { return decode(r, data) }

func (*PartyRef) plan() *plan { return partyRefPlan }
