package payoutjobs

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// Kind is the payout operation an instruction is carried out with.
type Kind string

// Payout kinds.
const (
	// Standard pays with Payouts.Create (the exchange model with an
	// exchange order id, or the on-chain model with a transaction hash),
	// then links the exchange transfer id when the instruction has one.
	Standard Kind = "standard"
	// Prefunded pays with Payouts.CreatePrefunded, from the
	// organization's prefunded balance.
	Prefunded Kind = "prefunded"
)

// Instruction is a payout to make: who is paid, to which bank account,
// how much of which asset, and the caller's own reference, which becomes
// the payout's client_reference_id and names the job from then on.
//
// The pipeline makes the quotation itself (Payouts.CreateQuotation with
// Asset, Fiat, Amount, CustomerID, BankID, Network and RiskParameters),
// and a new one only while no create on the last one may have reached
// the service.
type Instruction struct {
	// Reference is the payout's client_reference_id and the job's name
	// (required, at most 255 characters, no surrounding spaces). Submitting
	// it again returns the existing job.
	Reference string `json:"reference"`
	// Kind is Standard (the default when empty) or Prefunded.
	Kind Kind `json:"kind"`
	// CustomerID is the receiving customer, KYC-verified (required).
	CustomerID uuid.UUID `json:"customer_id"`
	// BankID is the customer's verified bank account paid to (required).
	BankID uuid.UUID `json:"bank_id"`
	// Asset is the crypto asset code (required), Fiat the fiat currency
	// code (required); both are compared in lower case.
	Asset string `json:"asset"`
	Fiat  string `json:"fiat"`
	// Amount is the crypto amount to pay out, greater than zero
	// (required). A repeated reference compares it by value: 12.50 and
	// 12.5 are the same amount.
	Amount decimal.Decimal `json:"amount"`
	// Network is the chain of the on-chain model (e.g. "TRON"); empty in
	// the exchange model.
	Network string `json:"network,omitempty"`
	// RiskParameters describe the customer for the service's risk checks.
	RiskParameters types.RiskParameters `json:"risk_parameters"`
	// ExchangeOrderID is the exchange model's order id (Standard only).
	ExchangeOrderID string `json:"exchange_order_id,omitempty"`
	// ExchangeTransferID, with ExchangeOrderID, is linked to the payout
	// once it is created (Payouts.LinkTransfer; Standard only).
	ExchangeTransferID string `json:"exchange_transfer_id,omitempty"`
	// TransactionHash is the on-chain model's deposit hash (Standard
	// only).
	TransactionHash string `json:"transaction_hash,omitempty"`
	// SenderID is the paying customer of a Prefunded payout (required
	// for Prefunded, refused for Standard).
	SenderID uuid.UUID `json:"sender_id,omitzero"`
}

// maxReference is the longest reference accepted: the service does not
// say, and 255 is the common limit of such columns.
const maxReference = 255

// normalized returns the instruction as it is stored and compared: the
// default kind filled in, asset and fiat in lower case. A refusal is a
// *fiatramp.ValidationError naming the field (its JSON name).
func (in Instruction) normalized() (Instruction, error) {
	bad := func(field, reason string) (Instruction, error) {
		return Instruction{}, &fiatramp.ValidationError{Field: field, Reason: reason}
	}
	switch {
	case in.Reference == "":
		return bad("reference", "required: the payout's client_reference_id names the job")
	case strings.TrimSpace(in.Reference) != in.Reference:
		return bad("reference", "has surrounding spaces")
	case len(in.Reference) > maxReference:
		return bad("reference", fmt.Sprintf("longer than %d bytes", maxReference))
	case in.CustomerID == uuid.Nil:
		return bad("customer_id", "required: the customer paid")
	case in.BankID == uuid.Nil:
		return bad("bank_id", "required: the bank account paid to")
	case strings.TrimSpace(in.Asset) == "":
		return bad("asset", "required")
	case strings.TrimSpace(in.Fiat) == "":
		return bad("fiat", "required")
	case !in.Amount.IsPositive():
		return bad("amount", "must be greater than zero")
	}
	if in.Kind == "" {
		in.Kind = Standard
	}
	switch in.Kind {
	case Standard:
		if in.SenderID != uuid.Nil {
			return bad("sender_id", "only a prefunded payout has a sender")
		}
		if in.ExchangeTransferID != "" && in.ExchangeOrderID == "" {
			return bad("exchange_order_id", "required to link an exchange transfer id")
		}
	case Prefunded:
		if in.SenderID == uuid.Nil {
			return bad("sender_id", "required for a prefunded payout")
		}
		if in.ExchangeOrderID != "" || in.ExchangeTransferID != "" || in.TransactionHash != "" {
			return bad("kind", "a prefunded payout carries no exchange order, transfer id or transaction hash")
		}
	default:
		return bad("kind", fmt.Sprintf("%q is neither %q nor %q", in.Kind, Standard, Prefunded))
	}
	in.Asset = strings.ToLower(strings.TrimSpace(in.Asset))
	in.Fiat = strings.ToLower(strings.TrimSpace(in.Fiat))
	return in, nil
}

// contents is the stored form of a normalized instruction: JSON with the
// fields in a fixed order, so that equal instructions have equal bytes.
func (in Instruction) contents() (string, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return "", fmt.Errorf("payoutjobs: encoding the instruction: %w", err)
	}
	return string(b), nil
}

// differences names the JSON fields in which stored and in disagree.
func differences(stored, in string) []string {
	var a, b map[string]json.RawMessage
	if json.Unmarshal([]byte(stored), &a) != nil || json.Unmarshal([]byte(in), &b) != nil {
		return []string{"instruction"}
	}
	var out []string
	for _, k := range []string{"kind", "customer_id", "bank_id", "asset", "fiat", "amount", "network", "risk_parameters", "exchange_order_id", "exchange_transfer_id", "transaction_hash", "sender_id"} {
		if string(a[k]) != string(b[k]) {
			out = append(out, k)
		}
	}
	if len(out) == 0 && stored != in {
		out = append(out, "instruction")
	}
	return out
}

// quotationRequest is the quotation the instruction asks for.
func (in Instruction) quotationRequest() types.CreatePayoutQuotationRequest {
	return types.CreatePayoutQuotationRequest{
		Asset: in.Asset, Fiat: in.Fiat, SendingAmount: in.Amount,
		CustomerID: in.CustomerID, BankID: in.BankID, Network: in.Network,
		RiskParameters: in.RiskParameters,
	}
}
