package types

import (
	"encoding/json"
	"reflect"

	"github.com/google/uuid"
)

// Wallet is a customer's crypto wallet (interface.md section 2.6), the data
// of add wallet (section 4.6).
type Wallet struct {
	// ID is the wallet id (id).
	ID uuid.UUID `json:"id"`
	// CustomerID is customer_id.
	CustomerID uuid.UUID `json:"customer_id"`
	// WalletAddress is wallet_address.
	WalletAddress string `json:"wallet_address"`
	// WalletStatus is wallet_status (ACTIVE appears).
	WalletStatus WalletStatus `json:"wallet_status"`
	// FailureReason is failure_reason; nil when null or absent.
	FailureReason *string `json:"failure_reason"`
	// Raw is a copy of the exact JSON object this wallet was decoded from.
	Raw json.RawMessage `json:"-"`
}

var walletType = reflect.TypeFor[Wallet]()

// UnmarshalJSON decodes the wallet object of interface.md section 2.6 and
// keeps a copy of data in Raw. null leaves w unchanged; on error w is
// unchanged.
func (w *Wallet) UnmarshalJSON(data []byte) error {
	var out Wallet
	m := objectMembers("Wallet", walletType, data)
	for m.next() {
		switch string(m.key) {
		case "id":
			m.uuid(&out.ID)
		case "customer_id":
			m.uuid(&out.CustomerID)
		case "wallet_address":
			memberString(&m, &out.WalletAddress)
		case "wallet_status":
			memberString(&m, &out.WalletStatus)
		case "failure_reason":
			m.nullableString(&out.FailureReason)
		default:
			m.skip()
		}
	}
	return finishObject(&m, w, &out, &out.Raw)
}

// BankAccount is one bank account of a customer as returned by fetch bank
// account (interface.md sections 2.7 and 4.8). Documented strings that come
// as null decode as "".
type BankAccount struct {
	// ID is the bank account id (id).
	ID uuid.UUID `json:"id"`
	// CustomerID is customer_id.
	CustomerID uuid.UUID `json:"customer_id"`
	// Country is the 3-letter country code (country).
	Country string `json:"country"`
	// BankAccountType is bank_account_type (ACCOUNT_DETAILS appears).
	BankAccountType BankAccountType `json:"bank_account_type"`
	// Identifiers is the identifiers object.
	Identifiers BankIdentifiers `json:"identifiers"`
	// AccountNumber is account_number.
	AccountNumber string `json:"account_number"`
	// IFSC is ifsc.
	IFSC string `json:"ifsc"`
	// BankAccountStatus is bank_account_status (VERIFIED appears).
	BankAccountStatus BankAccountStatus `json:"bank_account_status"`
	// BeneficiaryName is beneficiary_name.
	BeneficiaryName string `json:"beneficiary_name"`
	// BankName is bank_name.
	BankName string `json:"bank_name"`
	// FailureReason is failure_reason; nil when null or absent.
	FailureReason *string `json:"failure_reason"`
	// Raw is a copy of the exact JSON object this account was decoded from.
	Raw json.RawMessage `json:"-"`
}

// BankIdentifiers is the identifiers object of a fetched bank account
// (interface.md section 2.7).
type BankIdentifiers struct {
	// AccountNumber is identifiers.account_number.
	AccountNumber string `json:"account_number"`
	// IFSC is identifiers.ifsc.
	IFSC string `json:"ifsc"`
}

var (
	bankAccountType     = reflect.TypeFor[BankAccount]()
	bankIdentifiersType = reflect.TypeFor[BankIdentifiers]()
)

// UnmarshalJSON decodes the identifiers object of interface.md section 2.7.
// null leaves b unchanged.
func (b *BankIdentifiers) UnmarshalJSON(data []byte) error {
	var out BankIdentifiers
	m := objectMembers("BankIdentifiers", bankIdentifiersType, data)
	for m.next() {
		switch string(m.key) {
		case "account_number":
			memberString(&m, &out.AccountNumber)
		case "ifsc":
			memberString(&m, &out.IFSC)
		default:
			m.skip()
		}
	}
	return finishObject(&m, b, &out, nil)
}

// UnmarshalJSON decodes the fetch-one bank account object of interface.md
// section 2.7 and keeps a copy of data in Raw. null leaves b unchanged; on
// error b is unchanged.
func (b *BankAccount) UnmarshalJSON(data []byte) error {
	var out BankAccount
	m := objectMembers("BankAccount", bankAccountType, data)
	for m.next() {
		switch string(m.key) {
		case "id":
			m.uuid(&out.ID)
		case "customer_id":
			m.uuid(&out.CustomerID)
		case "country":
			memberString(&m, &out.Country)
		case "bank_account_type":
			memberString(&m, &out.BankAccountType)
		case "identifiers":
			m.value(&out.Identifiers)
		case "account_number":
			memberString(&m, &out.AccountNumber)
		case "ifsc":
			memberString(&m, &out.IFSC)
		case "bank_account_status":
			memberString(&m, &out.BankAccountStatus)
		case "beneficiary_name":
			memberString(&m, &out.BeneficiaryName)
		case "bank_name":
			memberString(&m, &out.BankName)
		case "failure_reason":
			m.nullableString(&out.FailureReason)
		default:
			m.skip()
		}
	}
	return finishObject(&m, b, &out, &out.Raw)
}

// BankAccountListItem is one entry of the bank account list (interface.md
// sections 2.7 and 4.9). An IMPS account has no vpa and a UPI account no
// account_number; a null string decodes as "".
type BankAccountListItem struct {
	// ID is the bank account id (id).
	ID uuid.UUID `json:"id"`
	// CustomerID is customer_id.
	CustomerID uuid.UUID `json:"customer_id"`
	// AccountNumber is account_number ("" when null).
	AccountNumber string `json:"account_number"`
	// IFSC is ifsc ("" when null).
	IFSC string `json:"ifsc"`
	// AccountName is account_name ("" when null).
	AccountName string `json:"account_name"`
	// VPA is the UPI virtual payment address, vpa ("" when null).
	VPA string `json:"vpa"`
	// BankAccountType is bank_account_type.
	BankAccountType BankAccountType `json:"bank_account_type"`
	// BankAccountStatus is bank_account_status.
	BankAccountStatus BankAccountStatus `json:"bank_account_status"`
	// FailureReason is failure_reason; nil when null or absent.
	FailureReason *string `json:"failure_reason"`
	// Raw is a copy of the exact JSON object this item was decoded from.
	Raw json.RawMessage `json:"-"`
}

var bankAccountListItemType = reflect.TypeFor[BankAccountListItem]()

// UnmarshalJSON decodes one bank list item of interface.md section 2.7 and
// keeps a copy of data in Raw. null leaves b unchanged; on error b is
// unchanged.
func (b *BankAccountListItem) UnmarshalJSON(data []byte) error {
	var out BankAccountListItem
	m := objectMembers("BankAccountListItem", bankAccountListItemType, data)
	for m.next() {
		switch string(m.key) {
		case "id":
			m.uuid(&out.ID)
		case "customer_id":
			m.uuid(&out.CustomerID)
		case "account_number":
			memberString(&m, &out.AccountNumber)
		case "ifsc":
			memberString(&m, &out.IFSC)
		case "account_name":
			memberString(&m, &out.AccountName)
		case "vpa":
			memberString(&m, &out.VPA)
		case "bank_account_type":
			memberString(&m, &out.BankAccountType)
		case "bank_account_status":
			memberString(&m, &out.BankAccountStatus)
		case "failure_reason":
			m.nullableString(&out.FailureReason)
		default:
			m.skip()
		}
	}
	return finishObject(&m, b, &out, &out.Raw)
}

// BankAccountPage is one page of fetch bank accounts of a customer
// (interface.md section 4.9): {count, next, previous, results}.
type BankAccountPage struct {
	// Count is count, the total number of accounts.
	Count int `json:"count"`
	// Next is the URL of the next page; nil when null or absent.
	Next *string `json:"next"`
	// Previous is the URL of the previous page; nil when null or absent.
	Previous *string `json:"previous"`
	// Results are the accounts of this page (nil when null or absent).
	Results []BankAccountListItem `json:"results"`
	// Raw is a copy of the exact JSON object this page was decoded from.
	Raw json.RawMessage `json:"-"`
}

var bankAccountPageType = reflect.TypeFor[BankAccountPage]()

// UnmarshalJSON decodes the list data of interface.md section 4.9 and keeps
// a copy of data in Raw. null leaves p unchanged; on error p is unchanged.
func (p *BankAccountPage) UnmarshalJSON(data []byte) error {
	var out BankAccountPage
	m := objectMembers("BankAccountPage", bankAccountPageType, data)
	for m.next() {
		switch string(m.key) {
		case "count":
			m.int(&out.Count)
		case "next":
			m.nullableString(&out.Next)
		case "previous":
			m.nullableString(&out.Previous)
		case "results":
			memberList(&m, &out.Results)
		default:
			m.skip()
		}
	}
	return finishObject(&m, p, &out, &out.Raw)
}
