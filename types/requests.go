package types

import (
	"encoding/json"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// The request types below carry json tags that name their wire fields, but
// their MarshalJSON methods are what writes the body: each emits exactly the
// body of its interface.md section, ids as uuid strings and optional strings
// omitted when empty. They do no validation; the root package validates
// before sending.

// CreatePayoutRequest is the body of create payout (interface.md section
// 4.2).
type CreatePayoutRequest struct {
	// QuotationID is quotation_id (required).
	QuotationID uuid.UUID `json:"quotation_id"`
	// CustomerID is customer_id (required; must match the quotation's
	// customer).
	CustomerID uuid.UUID `json:"customer_id"`
	// ExchangeOrderID is exchange_order_id; omitted when empty.
	ExchangeOrderID string `json:"exchange_order_id,omitempty"`
	// ClientReferenceID is client_reference_id; omitted when empty.
	ClientReferenceID string `json:"client_reference_id,omitempty"`
}

// MarshalJSON writes the body of interface.md section 4.2:
// {"quotation_id","customer_id","exchange_order_id"?,"client_reference_id"?}.
func (r CreatePayoutRequest) MarshalJSON() ([]byte, error) {
	type wire CreatePayoutRequest
	return json.Marshal(wire(r))
}

// CreatePrefundedPayoutRequest is the body of create prefunded payout
// (interface.md section 4.1).
type CreatePrefundedPayoutRequest struct {
	// QuotationID is quotation_id (required).
	QuotationID uuid.UUID `json:"quotation_id"`
	// Customer is customer, holding the sender and receiver ids (required).
	Customer PrefundedCustomer `json:"customer"`
	// ClientReferenceID is client_reference_id; omitted when empty.
	ClientReferenceID string `json:"client_reference_id,omitempty"`
}

// PrefundedCustomer is the customer object of a prefunded payout request
// (interface.md section 4.1).
type PrefundedCustomer struct {
	// Sender is customer.sender, the paying customer.
	Sender CustomerRef `json:"sender"`
	// Receiver is customer.receiver, the quotation's customer.
	Receiver CustomerRef `json:"receiver"`
}

// CustomerRef is {"id": uuid}, one side of PrefundedCustomer (interface.md
// section 4.1).
type CustomerRef struct {
	// ID is id.
	ID uuid.UUID `json:"id"`
}

// MarshalJSON writes the body of interface.md section 4.1:
// {"quotation_id","customer":{"sender":{"id"},"receiver":{"id"}},
// "client_reference_id"?}.
func (r CreatePrefundedPayoutRequest) MarshalJSON() ([]byte, error) {
	type wire CreatePrefundedPayoutRequest
	return json.Marshal(wire(r))
}

// CreateRemittancePayoutRequest is the body of create remittance payout
// (interface.md section 4.3).
type CreateRemittancePayoutRequest struct {
	// QuotationID is quotation_id (required).
	QuotationID uuid.UUID `json:"quotation_id"`
	// CustomerID is customer_id (required).
	CustomerID uuid.UUID `json:"customer_id"`
	// RemitterID is remitter_id (required).
	RemitterID uuid.UUID `json:"remitter_id"`
	// ClientReferenceID is client_reference_id; omitted when empty.
	ClientReferenceID string `json:"client_reference_id,omitempty"`
	// TransactionHash is transaction_hash, required outside the prefunding
	// flow; omitted when empty.
	TransactionHash string `json:"transaction_hash,omitempty"`
}

// MarshalJSON writes the body of interface.md section 4.3:
// {"quotation_id","customer_id","remitter_id","client_reference_id"?,
// "transaction_hash"?}.
func (r CreateRemittancePayoutRequest) MarshalJSON() ([]byte, error) {
	type wire CreateRemittancePayoutRequest
	return json.Marshal(wire(r))
}

// CreatePayinQuotationRequest is the body of create payin quotation
// (interface.md section 4.11).
type CreatePayinQuotationRequest struct {
	// Asset is the asset code; sent in lower case.
	Asset string `json:"asset"`
	// Fiat is the fiat currency code; sent in lower case.
	Fiat string `json:"fiat"`
	// SendingAmount is sending_amount; always sent as a decimal string.
	SendingAmount decimal.Decimal `json:"sending_amount"`
	// CustomerID is customer_id.
	CustomerID uuid.UUID `json:"customer_id"`
	// BankID is bank_id: a bank_account for IMPS, a vpa for UPI.
	BankID uuid.UUID `json:"bank_id"`
	// PaymentMethod is payment_method, sent as given.
	PaymentMethod PaymentMethod `json:"payment_method"`
	// RiskParameters is risk_parameters; always sent.
	RiskParameters RiskParameters `json:"risk_parameters"`
}

type payinQuotationRequestWire struct {
	Asset          string         `json:"asset"`
	Fiat           string         `json:"fiat"`
	SendingAmount  string         `json:"sending_amount"`
	CustomerID     uuid.UUID      `json:"customer_id"`
	BankID         uuid.UUID      `json:"bank_id"`
	PaymentMethod  PaymentMethod  `json:"payment_method"`
	RiskParameters RiskParameters `json:"risk_parameters"`
}

// MarshalJSON writes the body of interface.md section 4.11: asset and fiat
// lower-cased, sending_amount as a JSON string holding the exact decimal with
// the digits it was given (2600.50 stays "2600.50"), and the risk_parameters
// object always present. decimal's package-level switches
// (MarshalJSONWithoutQuotes, TrimTrailingZeros, UseScientificNotation) do not
// change it.
func (r CreatePayinQuotationRequest) MarshalJSON() ([]byte, error) {
	return json.Marshal(payinQuotationRequestWire{
		Asset:          strings.ToLower(r.Asset),
		Fiat:           strings.ToLower(r.Fiat),
		SendingAmount:  exactDecimal(r.SendingAmount),
		CustomerID:     r.CustomerID,
		BankID:         r.BankID,
		PaymentMethod:  r.PaymentMethod,
		RiskParameters: r.RiskParameters,
	})
}

// RiskParameters is the risk_parameters object of a payin quotation request
// (interface.md section 4.11).
type RiskParameters struct {
	// IPAddress is ip_address; omitted when empty.
	IPAddress string `json:"ip_address,omitempty"`
	// DeviceID is device_id; omitted when empty.
	DeviceID string `json:"device_id,omitempty"`
	// SuspiciousActivityReport is suspicious_activity_report; always sent.
	SuspiciousActivityReport bool `json:"suspicious_activity_report"`
	// LawEnforcementAgencyReport is law_enforcement_agency_report; always
	// sent.
	LawEnforcementAgencyReport bool `json:"law_enforcement_agency_report"`
}

// MarshalJSON writes the risk_parameters object of interface.md section 4.11:
// ip_address and device_id omitted when empty, both booleans always sent.
func (r RiskParameters) MarshalJSON() ([]byte, error) {
	type wire RiskParameters
	return json.Marshal(wire(r))
}

// AddWalletRequest is the body of add wallet (interface.md section 4.6).
type AddWalletRequest struct {
	// CustomerID is customer_id.
	CustomerID uuid.UUID `json:"customer_id"`
	// WalletAddress is wallet_address.
	WalletAddress string `json:"wallet_address"`
}

// MarshalJSON writes the body of interface.md section 4.6:
// {"customer_id","wallet_address"}.
func (r AddWalletRequest) MarshalJSON() ([]byte, error) {
	type wire AddWalletRequest
	return json.Marshal(wire(r))
}

// exactDecimal writes d in plain positional notation with exactly its own
// digits: no rounding (it rounds to its own number of places), no trimmed
// zeros, no exponent.
func exactDecimal(d decimal.Decimal) string {
	return d.StringFixed(max(0, -d.Exponent()))
}
