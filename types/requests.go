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
}

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

// CreatePayinQuotationRequest is the body of a payin quotation create,
// POST /pis/api/v1/payin/quotation.
type CreatePayinQuotationRequest struct {
	// Asset is the asset code; the client sends it in lower case.
	Asset string `json:"asset"`
	// Fiat is the fiat currency code; the client sends it in lower case.
	Fiat string `json:"fiat"`
	// SendingAmount is the fiat amount the customer pays in, greater than
	// zero (the service wants more than INR 2500 and at most INR 500,000 by
	// IMPS or INR 100,000 by UPI). The client sends it as a string holding
	// the exact decimal with the digits it was given (2600.50 stays
	// "2600.50"), whatever decimal's package-level switches say.
	SendingAmount decimal.Decimal `json:"sending_amount"`
	// CustomerID is the paying customer, who must be KYC-verified.
	CustomerID uuid.UUID `json:"customer_id"`
	// BankID is the verified account the customer pays from: of type
	// bank_account for IMPS, vpa for UPI.
	BankID uuid.UUID `json:"bank_id"`
	// PaymentMethod is IMPS or UPI, sent as given; any other value is
	// refused before sending.
	PaymentMethod PaymentMethod `json:"payment_method"`
	// RiskParameters describes the payer for the service's risk checks;
	// always sent.
	RiskParameters RiskParameters `json:"risk_parameters"`
}

// RiskParameters is the risk_parameters object of a payin quotation
// request.
type RiskParameters struct {
	// IPAddress is the payer's IP address; omitted when empty.
	IPAddress string `json:"ip_address,omitempty"`
	// DeviceID identifies the payer's device; omitted when empty.
	DeviceID string `json:"device_id,omitempty"`
	// SuspiciousActivityReport reports whether a suspicious activity
	// report exists for the payer; always sent.
	SuspiciousActivityReport bool `json:"suspicious_activity_report"`
	// LawEnforcementAgencyReport reports whether a law enforcement agency
	// report exists for the payer; always sent.
	LawEnforcementAgencyReport bool `json:"law_enforcement_agency_report"`
}

// AddWalletRequest is the body of add wallet, POST /cms/api/v1/wallet/add.
type AddWalletRequest struct {
	// CustomerID is the customer who owns the wallet (required).
	CustomerID uuid.UUID `json:"customer_id"`
	// WalletAddress is the crypto address (required). A deposit to a wrong
	// address is lost.
	WalletAddress string `json:"wallet_address"`
}
