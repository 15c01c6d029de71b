package types

import (
	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// The request types below hold the fields of a request body; their json
// tags name the wire fields. The client writes each body itself, in the
// canonical form it signs: members sorted by key, ids as uuid strings,
// optional strings omitted when empty, CreatePayinQuotationRequest's asset
// and fiat lower-cased and its amount an exact decimal string. They do no
// validation; the client validates before sending.

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

// CreatePayinQuotationRequest is the body of create payin quotation
// (interface.md section 4.11).
type CreatePayinQuotationRequest struct {
	// Asset is the asset code; the client sends it in lower case.
	Asset string `json:"asset"`
	// Fiat is the fiat currency code; the client sends it in lower case.
	Fiat string `json:"fiat"`
	// SendingAmount is sending_amount; the client sends it as a string
	// holding the exact decimal with the digits it was given (2600.50
	// stays "2600.50"), whatever decimal's package-level switches say.
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

// AddWalletRequest is the body of add wallet (interface.md section 4.6).
type AddWalletRequest struct {
	// CustomerID is customer_id.
	CustomerID uuid.UUID `json:"customer_id"`
	// WalletAddress is wallet_address.
	WalletAddress string `json:"wallet_address"`
}
