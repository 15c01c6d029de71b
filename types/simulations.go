package types

import (
	"encoding/json"
	"reflect"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// BankVerificationSimulation is the data of the sandbox bank verification
// simulation (POST /cms/api/v1/bank/mock-bank-verification):
// {customer_id, bank_id, bank_account_status}.
type BankVerificationSimulation struct {
	// CustomerID is the customer who owns the account.
	CustomerID uuid.UUID `json:"customer_id"`
	// BankID is the bank account whose verification was set.
	BankID uuid.UUID `json:"bank_id"`
	// BankAccountStatus is the status the account now has.
	BankAccountStatus BankAccountStatus `json:"bank_account_status"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-"`
}

var bankVerificationSimulationType = reflect.TypeFor[BankVerificationSimulation]()

// UnmarshalJSON decodes the simulation's data and keeps a copy of data in
// Raw. null leaves s unchanged; on error s is unchanged.
func (s *BankVerificationSimulation) UnmarshalJSON(data []byte) error {
	var out BankVerificationSimulation
	m := objectMembers("BankVerificationSimulation", bankVerificationSimulationType, data)
	for m.next() {
		switch string(m.key) {
		case "customer_id":
			m.uuid(&out.CustomerID)
		case "bank_id":
			m.uuid(&out.BankID)
		case "bank_account_status":
			memberString(&m, &out.BankAccountStatus)
		default:
			m.skip()
		}
	}
	return finishObject(&m, s, &out, &out.Raw)
}

// PayinStatusSimulation is the data of the sandbox payin status simulation
// (PATCH /pis/api/v1/payin/mock-payin-status): {quotation_id, payin_status}.
type PayinStatusSimulation struct {
	// QuotationID is the payin quotation whose payin moved.
	QuotationID uuid.UUID `json:"quotation_id"`
	// PayinStatus is the status the payin now has.
	PayinStatus PayinStatus `json:"payin_status"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-"`
}

var payinStatusSimulationType = reflect.TypeFor[PayinStatusSimulation]()

// UnmarshalJSON decodes the simulation's data and keeps a copy of data in
// Raw. null leaves s unchanged; on error s is unchanged.
func (s *PayinStatusSimulation) UnmarshalJSON(data []byte) error {
	var out PayinStatusSimulation
	m := objectMembers("PayinStatusSimulation", payinStatusSimulationType, data)
	for m.next() {
		switch string(m.key) {
		case "quotation_id":
			m.uuid(&out.QuotationID)
		case "payin_status":
			memberString(&m, &out.PayinStatus)
		default:
			m.skip()
		}
	}
	return finishObject(&m, s, &out, &out.Raw)
}

// Balance is the organization's prefunded balance (GET
// /pos/api/v1/payout/balance).
type Balance struct {
	// AvailableBalance is available_balance: the amount available per
	// asset code, exactly as sent (a JSON number or a decimal string).
	// When an asset repeats, the last one wins. Nil when the member is
	// absent or null.
	AvailableBalance map[string]decimal.Decimal `json:"available_balance"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-"`
}

var (
	balanceType          = reflect.TypeFor[Balance]()
	availableBalanceType = reflect.TypeFor[map[string]decimal.Decimal]()
)

// UnmarshalJSON decodes the balance data and keeps a copy of data in Raw.
// Every amount must be a decimal (number or decimal string); null and ""
// amounts are refused, since an unknown balance is not zero. null leaves b
// unchanged; on error b is unchanged.
func (b *Balance) UnmarshalJSON(data []byte) error {
	var out Balance
	m := objectMembers("Balance", balanceType, data)
	for m.next() {
		switch string(m.key) {
		case "available_balance":
			out.AvailableBalance = nil
			if err := decodeAmounts(m.raw, &out.AvailableBalance); err != nil {
				m.fail(err)
			}
		default:
			m.skip()
		}
	}
	return finishObject(&m, b, &out, &out.Raw)
}

// decodeAmounts decodes an object of asset code to amount into *dst; null
// leaves *dst nil.
func decodeAmounts(raw []byte, dst *map[string]decimal.Decimal) error {
	a := objectMembers("Balance.available_balance", availableBalanceType, raw)
	amounts := map[string]decimal.Decimal{}
	for a.next() {
		d, set, err := parseDecimal(a.raw)
		if err == nil && !set {
			err = typeError(a.raw, decimalType)
		}
		if err != nil {
			a.fail(err)
			break
		}
		amounts[string(a.key)] = d
	}
	if a.err != nil || a.null {
		return a.err
	}
	*dst = amounts
	return nil
}
