package types

import (
	"encoding/json"

	"github.com/google/uuid"
)

// BankAccount is one bank account of a customer as returned by fetch bank
// account, GET /cms/api/v1/bank/{customer_id}/{bank_id}, and by add bank
// account, POST /cms/api/v1/bank/create. Documented strings that come as
// null decode as "".
//
// Editions of the service answer a fetch in three shapes, all read here:
// the detailed one (country, identifiers, ifsc, beneficiary_name,
// bank_name), the list item's (ifsc, account_name, vpa), and an older one
// that spells the IFSC ifsc_code. When an answer holds both ifsc and
// ifsc_code, ifsc wins unless it is null or "". HolderName gives the
// account holder's name whichever member carried it.
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
	// IFSC is the Indian Financial System Code of the account's branch,
	// read from ifsc or, when that is absent, null or "", from ifsc_code
	// (an older edition's spelling).
	IFSC string `json:"ifsc" fiatramp:"alias=ifsc_code"`
	// AccountName is the account holder's name as the list item's shape
	// carries it ("" when null or absent; see HolderName).
	AccountName string `json:"account_name"`
	// VPA is the UPI virtual payment address ("" when null or absent, as
	// for an account identified by number and IFSC).
	VPA string `json:"vpa"`
	// BankAccountStatus is the verification status (PROCESSING after an
	// add, then VERIFIED or FAILED); a payin quotation needs VERIFIED.
	BankAccountStatus BankAccountStatus `json:"bank_account_status"`
	// BeneficiaryName is the account holder's name as the detailed shape
	// carries it ("" when null or absent; see HolderName).
	BeneficiaryName string `json:"beneficiary_name"`
	// BankName is the name of the bank.
	BankName string `json:"bank_name"`
	// FailureReason says why verification failed (INVALID_IFSC,
	// INVALID_ACCOUNT_NUMBER, ACCOUNT_TYPE_NRE, PENNY_DROP_FAILED,
	// NAME_MISMATCH, BANK_RISK_CHECK_FAILED); nil when null or absent.
	FailureReason *string `json:"failure_reason"`
	// Raw is a copy of the exact JSON object this account was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

// HolderName returns the account holder's name: AccountName, or
// BeneficiaryName when AccountName is "".
func (b *BankAccount) HolderName() string {
	if b.AccountName != "" {
		return b.AccountName
	}
	return b.BeneficiaryName
}

var bankAccountPlan = compilePlan[BankAccount]()

// UnmarshalJSON decodes the bank account object of a fetch of one account
// and keeps a copy of data in Raw. null leaves b unchanged; on
// error b is unchanged.
func (b *BankAccount) UnmarshalJSON(data []byte) error { return decode(b, data) }

func (*BankAccount) plan() *plan { return bankAccountPlan }

// BankIdentifiers is the identifiers object of a fetched bank account.
type BankIdentifiers struct {
	// AccountNumber is the bank account number.
	AccountNumber string `json:"account_number"`
	// IFSC is the Indian Financial System Code of the account's branch.
	IFSC string `json:"ifsc"`
}

var bankIdentifiersPlan = compilePlan[BankIdentifiers]()

// UnmarshalJSON decodes an identifiers object {account_number, ifsc}.
// null leaves b unchanged.
func (b *BankIdentifiers) UnmarshalJSON(data []byte) error {
	return decode(b, data)
}

func (*BankIdentifiers) plan() *plan { return bankIdentifiersPlan }

// BankAccountListItem is one entry of the bank account list,
// GET /cms/api/v1/bank/list/{customer_id}. An IMPS account has no vpa and a UPI account no
// account_number; a null string decodes as "". An older edition spells the
// IFSC ifsc_code; it is read too.
type BankAccountListItem struct {
	// ID is the bank account's id (the bank_id of a payin quotation).
	ID uuid.UUID `json:"id"`
	// CustomerID is the customer who owns the account.
	CustomerID uuid.UUID `json:"customer_id"`
	// AccountNumber is the bank account number ("" when null, as for a
	// UPI account).
	AccountNumber string `json:"account_number"`
	// IFSC is the Indian Financial System Code ("" when null), read from
	// ifsc or, when that is absent, null or "", from ifsc_code (an older
	// edition's spelling).
	IFSC string `json:"ifsc" fiatramp:"alias=ifsc_code"`
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
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var bankAccountListItemPlan = compilePlan[BankAccountListItem]()

// UnmarshalJSON decodes one bank list item and
// keeps a copy of data in Raw. null leaves b unchanged; on error b is
// unchanged.
func (b *BankAccountListItem) UnmarshalJSON(data []byte) error {
	return decode(b, data)
}

func (*BankAccountListItem) plan() *plan { return bankAccountListItemPlan }

// BankAccountPage is one page of a customer's bank accounts, the data of
// GET /cms/api/v1/bank/list/{customer_id}.
type BankAccountPage = Page[BankAccountListItem]

// AddBankAccountRequest is the body of add bank account, POST
// /cms/api/v1/bank/create. It names either an account by AccountNumber and
// IFSC (with AccountName, the holder's name, when known), or a UPI address
// by VPA, never both: the members of the shape not chosen, and an empty
// AccountName, are left out of the body.
type AddBankAccountRequest struct {
	// CustomerID is the customer who owns the account (required; the
	// customer must be VERIFIED).
	CustomerID uuid.UUID `json:"customer_id"`
	// AccountNumber and IFSC identify a bank account; both are required
	// when any of the three is given. AccountName, the holder's name, is
	// sent when not empty (the service's examples show accounts added
	// without it).
	AccountNumber string `json:"account_number,omitempty"`
	IFSC          string `json:"ifsc,omitempty"`
	AccountName   string `json:"account_name,omitempty"`
	// VPA is a UPI virtual payment address, e.g. "asha@upi".
	VPA string `json:"vpa,omitempty"`
}

// Failure reasons of a bank account's verification, as failure_reason.
const (
	BankFailureInvalidIFSC          = "INVALID_IFSC"
	BankFailureInvalidAccountNumber = "INVALID_ACCOUNT_NUMBER"
	BankFailureAccountTypeNRE       = "ACCOUNT_TYPE_NRE"
	BankFailurePennyDropFailed      = "PENNY_DROP_FAILED"
	BankFailureNameMismatch         = "NAME_MISMATCH"
	BankFailureBankRiskCheckFailed  = "BANK_RISK_CHECK_FAILED"
)
