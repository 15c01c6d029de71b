package types

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// CreatePayinQuotationRequest is the body of a payin quotation create,
// POST /pis/api/v1/payin/quotation.
type CreatePayinQuotationRequest struct {
	// Asset is the asset code; the client sends it in lower case.
	Asset string `json:"asset" fiatramp:"lower"`
	// Fiat is the fiat currency code; the client sends it in lower case.
	Fiat string `json:"fiat" fiatramp:"lower"`
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

// RiskParameters is the risk_parameters object of a quotation request,
// payin (CreatePayinQuotationRequest) or payout
// (CreatePayoutQuotationRequest).
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

// PayinQuotation is a payin quotation: a locked rate, deposit instructions
// and an expiry time, as returned by create payin quotation
// (POST /pis/api/v1/payin/quotation, without order_id and status) and by
// fetch payin quotation (GET /pis/api/v1/payin/quotation/{quotation_id}).
//
// Amounts decode from JSON numbers or decimal strings; receiveing_amount is
// accepted as in Payout. Timestamps follow the rules on Payout.
//
// The service does not document where deep_link and ios_checkout_link
// appear: each is taken from the top level of the data object, or, when
// absent, null or "" there, from inside deposit_instructions.
type PayinQuotation struct {
	// ID is the quotation's id, the one GetQuotation takes.
	ID uuid.UUID `json:"id"`
	// OrderID is the id of the order behind the quotation (fetch only;
	// uuid.Nil when absent).
	OrderID uuid.UUID `json:"order_id"`
	// CustomerID is the paying customer.
	CustomerID uuid.UUID `json:"customer_id"`
	// BankID is the account the customer pays from.
	BankID uuid.UUID `json:"bank_id"`
	// Status is the quotation status (fetch only). PROCESSING is the value
	// seen; EXPIRED from ExpiryTime on when no payin was initiated on it;
	// once a payin moves, the value may be the payin's status (SUCCESS,
	// FAILED, REFUNDED: compare with PayinStatus(Status)), as the sandbox
	// shows it. Any value is kept as text.
	Status QuotationStatus `json:"status"`
	// Asset is the asset code (upper case in responses).
	Asset string `json:"asset"`
	// Fiat is the fiat code (upper case in responses).
	Fiat string `json:"fiat"`
	// PaymentMethod is IMPS or UPI.
	PaymentMethod PaymentMethod `json:"payment_method"`
	// SendingAmount is the fiat amount the customer pays in, as quoted.
	SendingAmount decimal.Decimal `json:"sending_amount"`
	// Rate is the locked exchange rate.
	Rate decimal.Decimal `json:"rate"`
	// ReceivingAmount is the amount the customer receives for it.
	ReceivingAmount decimal.Decimal `json:"receiving_amount" fiatramp:"alias=receiveing_amount"`
	// Fees is the breakdown of the fees taken (quotation_fee in an older
	// guide; fees wins unless it is null).
	Fees Fees `json:"fees" fiatramp:"alias=quotation_fee"`
	// DepositInstructions tells the customer where to pay.
	DepositInstructions DepositInstructions `json:"deposit_instructions"`
	// DeepLink is the UPI payment link for Android and web flows; "" when
	// none.
	DeepLink string `json:"deep_link" fiatramp:"alias=deposit_instructions.deep_link"`
	// IOSCheckoutLink is the UPI payment link for iOS; "" when none.
	IOSCheckoutLink string `json:"ios_checkout_link" fiatramp:"alias=deposit_instructions.ios_checkout_link"`
	// CreatedAt is when the quotation was created.
	CreatedAt time.Time `json:"created_at"`
	// ExpiryTime is the instant from which the quotation is expired.
	ExpiryTime time.Time `json:"expiry_time"`
	// Raw is a copy of the exact JSON object this quotation was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

// Expired reports whether the quotation is expired at now: true when now is
// at or after ExpiryTime. A quotation without an
// expiry time (zero ExpiryTime) reports expired, since its validity is
// unknown.
func (q *PayinQuotation) Expired(now time.Time) bool {
	return !now.Before(q.ExpiryTime)
}

var payinQuotationPlan = compilePlan[PayinQuotation]()

// UnmarshalJSON decodes a payin quotation object (create or fetch) and
// keeps a copy of data in Raw. null leaves q unchanged; on error q is
// unchanged.
func (q *PayinQuotation) UnmarshalJSON(data []byte) error { return decode(q, data) }

func (*PayinQuotation) plan() *plan { return payinQuotationPlan }

// DepositInstructions is the deposit_instructions object of a payin
// quotation: the bank account the customer pays into.
type DepositInstructions struct {
	// AccountNumber is the number of the account to pay into.
	AccountNumber string `json:"account_number"`
	// IFSC is the Indian Financial System Code of that account's branch.
	IFSC string `json:"ifsc"`
	// AccountName is the name of that account's holder.
	AccountName string `json:"account_name"`
}

var depositInstructionsPlan = compilePlan[DepositInstructions]()

// UnmarshalJSON decodes a deposit_instructions object {account_number, ifsc,
// account_name}. null leaves d unchanged; on error d is unchanged.
func (d *DepositInstructions) UnmarshalJSON(data []byte) error {
	return decode(d, data)
}

func (*DepositInstructions) plan() *plan { return depositInstructionsPlan }
