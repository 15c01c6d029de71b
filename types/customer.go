package types

import (
	"encoding/json"
	"reflect"

	"github.com/google/uuid"
)

// Wallet is a customer's crypto wallet address, the deposit source of
// on-ramp transactions: the data of POST /cms/api/v1/wallet/add.
type Wallet struct {
	// ID is the wallet's id.
	ID uuid.UUID `json:"id"`
	// CustomerID is the customer who owns the wallet.
	CustomerID uuid.UUID `json:"customer_id"`
	// WalletAddress is the crypto address, as sent.
	WalletAddress string `json:"wallet_address"`
	// WalletStatus is the wallet's status (ACTIVE appears).
	WalletStatus WalletStatus `json:"wallet_status"`
	// FailureReason says why the wallet is not usable; nil when null or
	// absent.
	FailureReason *string `json:"failure_reason"`
	// Raw is a copy of the exact JSON object this wallet was decoded from.
	Raw json.RawMessage `json:"-"`
}

var walletType = reflect.TypeFor[Wallet]()

// UnmarshalJSON decodes a wallet object and
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
// account, GET /cms/api/v1/bank/{customer_id}/{bank_id}. Documented strings that come
// as null decode as "".
type BankAccount struct {
	// ID is the bank account's id (the bank_id of a payin quotation).
	ID uuid.UUID `json:"id"`
	// CustomerID is the customer who owns the account.
	CustomerID uuid.UUID `json:"customer_id"`
	// Country is the 3-letter country code of the account.
	Country string `json:"country"`
	// BankAccountType is the kind of account (ACCOUNT_DETAILS appears).
	BankAccountType BankAccountType `json:"bank_account_type"`
	// Identifiers holds the account number and IFSC as the identifiers
	// object carries them.
	Identifiers BankIdentifiers `json:"identifiers"`
	// AccountNumber is the bank account number.
	AccountNumber string `json:"account_number"`
	// IFSC is the Indian Financial System Code of the account's branch.
	IFSC string `json:"ifsc"`
	// BankAccountStatus is the verification status (VERIFIED appears); a
	// payin quotation needs VERIFIED.
	BankAccountStatus BankAccountStatus `json:"bank_account_status"`
	// BeneficiaryName is the account holder's name.
	BeneficiaryName string `json:"beneficiary_name"`
	// BankName is the name of the bank.
	BankName string `json:"bank_name"`
	// FailureReason says why verification failed; nil when null or absent.
	FailureReason *string `json:"failure_reason"`
	// Raw is a copy of the exact JSON object this account was decoded from.
	Raw json.RawMessage `json:"-"`
}

// BankIdentifiers is the identifiers object of a fetched bank account.
type BankIdentifiers struct {
	// AccountNumber is the bank account number.
	AccountNumber string `json:"account_number"`
	// IFSC is the Indian Financial System Code of the account's branch.
	IFSC string `json:"ifsc"`
}

var (
	bankAccountType     = reflect.TypeFor[BankAccount]()
	bankIdentifiersType = reflect.TypeFor[BankIdentifiers]()
)

// UnmarshalJSON decodes an identifiers object {account_number, ifsc}.
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

// UnmarshalJSON decodes the bank account object of a fetch of one account
// and keeps a copy of data in Raw. null leaves b unchanged; on
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
			memberValue(&m, &out.Identifiers)
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

// BankAccountListItem is one entry of the bank account list,
// GET /cms/api/v1/bank/list/{customer_id}. An IMPS account has no vpa and a UPI account no
// account_number; a null string decodes as "".
type BankAccountListItem struct {
	// ID is the bank account's id (the bank_id of a payin quotation).
	ID uuid.UUID `json:"id"`
	// CustomerID is the customer who owns the account.
	CustomerID uuid.UUID `json:"customer_id"`
	// AccountNumber is the bank account number ("" when null, as for a
	// UPI account).
	AccountNumber string `json:"account_number"`
	// IFSC is the Indian Financial System Code ("" when null).
	IFSC string `json:"ifsc"`
	// AccountName is the account holder's name ("" when null).
	AccountName string `json:"account_name"`
	// VPA is the UPI virtual payment address ("" when null, as for an IMPS
	// account).
	VPA string `json:"vpa"`
	// BankAccountType is the kind of account: bank_account (IMPS) or vpa
	// (UPI) in the payin rules.
	BankAccountType BankAccountType `json:"bank_account_type"`
	// BankAccountStatus is the verification status.
	BankAccountStatus BankAccountStatus `json:"bank_account_status"`
	// FailureReason says why verification failed; nil when null or absent.
	FailureReason *string `json:"failure_reason"`
	// Raw is a copy of the exact JSON object this item was decoded from.
	Raw json.RawMessage `json:"-"`
}

var bankAccountListItemType = reflect.TypeFor[BankAccountListItem]()

// UnmarshalJSON decodes one bank list item and
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
