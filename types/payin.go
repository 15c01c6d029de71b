package types

import (
	"encoding/json"
	"reflect"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

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
	// seen; once the payin moves, the value may be the payin's status
	// (SUCCESS, FAILED, REFUNDED: compare with PayinStatus(Status)), as the
	// sandbox shows it. Any value is kept as text.
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
	ReceivingAmount decimal.Decimal `json:"receiving_amount"`
	// Fees is the breakdown of the fees taken.
	Fees Fees `json:"fees"`
	// DepositInstructions tells the customer where to pay.
	DepositInstructions DepositInstructions `json:"deposit_instructions"`
	// DeepLink is the UPI payment link for Android and web flows; "" when
	// none.
	DeepLink string `json:"deep_link"`
	// IOSCheckoutLink is the UPI payment link for iOS; "" when none.
	IOSCheckoutLink string `json:"ios_checkout_link"`
	// CreatedAt is when the quotation was created.
	CreatedAt time.Time `json:"created_at"`
	// ExpiryTime is the instant from which the quotation is expired.
	ExpiryTime time.Time `json:"expiry_time"`
	// Raw is a copy of the exact JSON object this quotation was decoded from.
	Raw json.RawMessage `json:"-"`
}

// Expired reports whether the quotation is expired at now: true when now is
// at or after ExpiryTime. A quotation without an
// expiry time (zero ExpiryTime) reports expired, since its validity is
// unknown.
func (q *PayinQuotation) Expired(now time.Time) bool {
	return !now.Before(q.ExpiryTime)
}

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

var (
	depositInstructionsType = reflect.TypeFor[DepositInstructions]()
	payinQuotationType      = reflect.TypeFor[PayinQuotation]()
)

// decodeDepositInstructions decodes deposit_instructions, returning also the
// deep_link and ios_checkout_link found inside it.
func decodeDepositInstructions(data []byte) (di DepositInstructions, deepLink, iosLink string, err error) {
	m := objectMembers("DepositInstructions", depositInstructionsType, data)
	for m.next() {
		switch string(m.key) {
		case "account_number":
			memberString(&m, &di.AccountNumber)
		case "ifsc":
			memberString(&m, &di.IFSC)
		case "account_name":
			memberString(&m, &di.AccountName)
		case "deep_link":
			memberString(&m, &deepLink)
		case "ios_checkout_link":
			memberString(&m, &iosLink)
		default:
			m.skip()
		}
	}
	if m.err != nil {
		return DepositInstructions{}, "", "", m.err
	}
	return di, deepLink, iosLink, nil
}

// UnmarshalJSON decodes a payin quotation object (create or fetch) and
// keeps a copy of data in Raw. null leaves q unchanged; on error q is
// unchanged.
func (q *PayinQuotation) UnmarshalJSON(data []byte) error {
	var out PayinQuotation
	var recv receivingAmount
	var nestedDeep, nestedIOS string
	m := objectMembers("PayinQuotation", payinQuotationType, data)
	for m.next() {
		switch string(m.key) {
		case "id":
			m.uuid(&out.ID)
		case "order_id":
			m.uuid(&out.OrderID)
		case "customer_id":
			m.uuid(&out.CustomerID)
		case "bank_id":
			m.uuid(&out.BankID)
		case "status":
			memberString(&m, &out.Status)
		case "asset":
			memberString(&m, &out.Asset)
		case "fiat":
			memberString(&m, &out.Fiat)
		case "payment_method":
			memberString(&m, &out.PaymentMethod)
		case "sending_amount":
			m.decimal(&out.SendingAmount)
		case "rate":
			m.decimal(&out.Rate)
		case "receiving_amount", "receiveing_amount":
			recv.decode(&m)
		case "fees":
			memberValue(&m, &out.Fees)
		case "deposit_instructions":
			di, deep, ios, err := decodeDepositInstructions(m.raw)
			if err != nil {
				m.fail(err)
				break
			}
			out.DepositInstructions, nestedDeep, nestedIOS = di, deep, ios
		case "deep_link":
			memberString(&m, &out.DeepLink)
		case "ios_checkout_link":
			memberString(&m, &out.IOSCheckoutLink)
		case "created_at":
			m.time(&out.CreatedAt)
		case "expiry_time":
			m.time(&out.ExpiryTime)
		default:
			m.skip()
		}
	}
	out.ReceivingAmount = recv.value()
	if out.DeepLink == "" {
		out.DeepLink = nestedDeep
	}
	if out.IOSCheckoutLink == "" {
		out.IOSCheckoutLink = nestedIOS
	}
	return finishObject(&m, q, &out, &out.Raw)
}
