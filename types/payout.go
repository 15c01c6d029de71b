package types

import (
	"encoding/json"
	"reflect"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

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
	ReceivingAmount decimal.Decimal `json:"receiving_amount"`
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
	Raw json.RawMessage `json:"-"`
}

var payoutType = reflect.TypeFor[Payout]()

// UnmarshalJSON decodes a standard payout object (create or fetch variant)
// and keeps a copy of data in Raw. null leaves p unchanged;
// on error p is unchanged.
func (p *Payout) UnmarshalJSON(data []byte) error {
	var out Payout
	var recv receivingAmount
	m := objectMembers("Payout", payoutType, data)
	for m.next() {
		switch string(m.key) {
		case "id":
			m.uuid(&out.ID)
		case "quotation_id":
			m.uuid(&out.QuotationID)
		case "customer_id":
			m.uuid(&out.CustomerID)
		case "client_reference_id":
			m.nullableString(&out.ClientReferenceID)
		case "bank_id":
			m.uuid(&out.BankID)
		case "asset":
			memberString(&m, &out.Asset)
		case "fiat":
			memberString(&m, &out.Fiat)
		case "rate":
			m.decimal(&out.Rate)
		case "sending_amount":
			m.decimal(&out.SendingAmount)
		case "receiving_amount", "receiveing_amount":
			recv.decode(&m)
		case "fees":
			memberValue(&m, &out.Fees)
		case "exchange_order_id":
			memberString(&m, &out.ExchangeOrderID)
		case "exchange_transfer_id":
			memberString(&m, &out.ExchangeTransferID)
		case "status":
			memberString(&m, &out.Status)
		case "failure_reason":
			m.nullableString(&out.FailureReason)
		case "utr":
			m.nullableString(&out.UTR)
		case "created_at":
			m.time(&out.CreatedAt)
		case "updated_at":
			m.time(&out.UpdatedAt)
		default:
			m.skip()
		}
	}
	out.ReceivingAmount = recv.value()
	return finishObject(&m, p, &out, &out.Raw)
}

// receivingAmount collects the fiat amount of a payout or quotation, which
// may come as receiving_amount or as receiveing_amount (the spelling of the
// fetch responses, see Payout): receiving_amount wins unless it is null or
// "". Each spelling is its own key, and when it repeats its last occurrence
// alone counts, as for every key; the rule then applies to those last
// values, whatever the order of the two keys. So {"receiving_amount":"5",
// "receiveing_amount":"7","receiving_amount":null} gives 7, and a
// receiving_amount of 0 is an amount, not a fallback.
type receivingAmount struct {
	amount   decimal.Decimal // receiving_amount
	set      bool            // receiving_amount was not null or ""
	misspelt decimal.Decimal // receiveing_amount
}

// decode reads the current member, receiving_amount or receiveing_amount.
func (r *receivingAmount) decode(m *members) {
	if m.keyIs("receiving_amount") {
		r.set = m.decimal(&r.amount)
	} else {
		m.decimal(&r.misspelt)
	}
}

// value returns the amount the rule picks.
func (r *receivingAmount) value() decimal.Decimal {
	if r.set {
		return r.amount
	}
	return r.misspelt
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
	ReceivingAmount decimal.Decimal `json:"receiving_amount"`
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
	Raw json.RawMessage `json:"-"`
}

// PrefundedPayoutParties is the customer object of a prefunded payout: the
// paying sender and the receiving customer.
type PrefundedPayoutParties struct {
	// Sender is the paying customer, stored for reference.
	Sender PartyRef `json:"sender"`
	// Receiver is the quotation's customer, who owns the bank account.
	Receiver PartyRef `json:"receiver"`
}

// PartyRef is one side of PrefundedPayoutParties: its id is a uuid or
// null.
type PartyRef struct {
	// ID is the customer id; nil when null, "" or absent.
	ID *uuid.UUID `json:"id"`
}

var (
	partyRefType               = reflect.TypeFor[PartyRef]()
	prefundedPayoutPartiesType = reflect.TypeFor[PrefundedPayoutParties]()
	prefundedPayoutType        = reflect.TypeFor[PrefundedPayout]()
)

// UnmarshalJSON decodes {"sender": {"id"}, "receiver": {"id"}} with exact
// member names, the last of a repeated one deciding alone (a later null
// gives a zero PartyRef). null leaves p unchanged; on error p is unchanged.
func (p *PrefundedPayoutParties) UnmarshalJSON(data []byte) error {
	var out PrefundedPayoutParties
	m := objectMembers("PrefundedPayoutParties", prefundedPayoutPartiesType, data)
	for m.next() {
		switch string(m.key) {
		case "sender":
			memberValue(&m, &out.Sender)
		case "receiver":
			memberValue(&m, &out.Receiver)
		default:
			m.skip()
		}
	}
	return finishObject(&m, p, &out, nil)
}

// UnmarshalJSON decodes {"id": uuid or null};
// null and "" give a nil ID. null leaves r unchanged.
func (r *PartyRef) UnmarshalJSON(data []byte) error {
	var out PartyRef
	m := objectMembers("PartyRef", partyRefType, data)
	for m.next() {
		if m.keyIs("id") {
			m.uuidPtr(&out.ID)
		} else {
			m.skip()
		}
	}
	return finishObject(&m, r, &out, nil)
}

// UnmarshalJSON decodes a prefunded payout object and keeps a copy of data in Raw. null leaves p unchanged; on error p is
// unchanged.
func (p *PrefundedPayout) UnmarshalJSON(data []byte) error {
	var out PrefundedPayout
	var recv receivingAmount
	m := objectMembers("PrefundedPayout", prefundedPayoutType, data)
	for m.next() {
		switch string(m.key) {
		case "id":
			m.uuid(&out.ID)
		case "quotation_id":
			m.uuid(&out.QuotationID)
		case "bank_id":
			m.uuid(&out.BankID)
		case "asset":
			memberString(&m, &out.Asset)
		case "network":
			memberString(&m, &out.Network)
		case "fiat":
			memberString(&m, &out.Fiat)
		case "rate":
			m.decimal(&out.Rate)
		case "sending_amount":
			m.decimal(&out.SendingAmount)
		case "receiving_amount", "receiveing_amount":
			recv.decode(&m)
		case "client_reference_id":
			m.nullableString(&out.ClientReferenceID)
		case "fees":
			memberValue(&m, &out.Fees)
		case "status":
			memberString(&m, &out.Status)
		case "wallet_address":
			memberString(&m, &out.WalletAddress)
		case "transaction_hash":
			m.nullableString(&out.TransactionHash)
		case "utr":
			m.nullableString(&out.UTR)
		case "failure_reason":
			m.nullableString(&out.FailureReason)
		case "updated_at":
			m.time(&out.UpdatedAt)
		case "created_at":
			m.time(&out.CreatedAt)
		case "customer":
			memberValue(&m, &out.Customer)
		default:
			m.skip()
		}
	}
	out.ReceivingAmount = recv.value()
	return finishObject(&m, p, &out, &out.Raw)
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
	ReceivingAmount decimal.Decimal `json:"receiving_amount"`
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
	Raw json.RawMessage `json:"-"`
}

var remittancePayoutType = reflect.TypeFor[RemittancePayout]()

// UnmarshalJSON decodes the remittance payout data, every field optional, and keeps a copy of data in Raw. null leaves p
// unchanged; on error p is unchanged.
func (p *RemittancePayout) UnmarshalJSON(data []byte) error {
	var out RemittancePayout
	var recv receivingAmount
	m := objectMembers("RemittancePayout", remittancePayoutType, data)
	for m.next() {
		switch string(m.key) {
		case "id":
			m.uuid(&out.ID)
		case "quotation_id":
			m.uuid(&out.QuotationID)
		case "customer_id":
			m.uuid(&out.CustomerID)
		case "remitter_id":
			m.uuid(&out.RemitterID)
		case "client_reference_id":
			m.nullableString(&out.ClientReferenceID)
		case "transaction_hash":
			m.nullableString(&out.TransactionHash)
		case "status":
			memberString(&m, &out.Status)
		case "asset":
			memberString(&m, &out.Asset)
		case "fiat":
			memberString(&m, &out.Fiat)
		case "rate":
			m.decimal(&out.Rate)
		case "sending_amount":
			m.decimal(&out.SendingAmount)
		case "receiving_amount", "receiveing_amount":
			recv.decode(&m)
		case "fees":
			memberValue(&m, &out.Fees)
		case "utr":
			m.nullableString(&out.UTR)
		case "failure_reason":
			m.nullableString(&out.FailureReason)
		case "created_at":
			m.time(&out.CreatedAt)
		case "updated_at":
			m.time(&out.UpdatedAt)
		default:
			m.skip()
		}
	}
	out.ReceivingAmount = recv.value()
	return finishObject(&m, p, &out, &out.Raw)
}

// PayoutStatusSimulation is the answer of the sandbox payout status
// simulation, PATCH /pos/api/v1/payout/mock-payout-status:
// {payout_id, payout_status}.
type PayoutStatusSimulation struct {
	// PayoutID is the payout whose status was set.
	PayoutID uuid.UUID `json:"payout_id"`
	// PayoutStatus is the status the payout now has.
	PayoutStatus PayoutStatus `json:"payout_status"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-"`
}

var payoutStatusSimulationType = reflect.TypeFor[PayoutStatusSimulation]()

// UnmarshalJSON decodes the data of the payout status simulation and keeps a
// copy of data in Raw. null leaves s unchanged; on error s is unchanged.
func (s *PayoutStatusSimulation) UnmarshalJSON(data []byte) error {
	var out PayoutStatusSimulation
	m := objectMembers("PayoutStatusSimulation", payoutStatusSimulationType, data)
	for m.next() {
		switch string(m.key) {
		case "payout_id":
			m.uuid(&out.PayoutID)
		case "payout_status":
			memberString(&m, &out.PayoutStatus)
		default:
			m.skip()
		}
	}
	return finishObject(&m, s, &out, &out.Raw)
}
