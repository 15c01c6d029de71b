package types

import "slices"

// PayoutStatus is the status of a payout (interface.md section 3.1). A value
// the interface document does not list decodes unchanged; see IsKnown.
type PayoutStatus string

// Payout status values (interface.md section 3.1).
const (
	// PayoutProcessing is the status of a newly created payout (interface.md
	// section 3.1).
	PayoutProcessing PayoutStatus = "PROCESSING"
	// PayoutSuccess means the bank has paid; utr is set (interface.md section
	// 3.1).
	PayoutSuccess PayoutStatus = "SUCCESS"
	// PayoutFailed means the payout failed; failure_reason is set
	// (interface.md section 3.1).
	PayoutFailed PayoutStatus = "FAILED"
	// PayoutRefunded means a failed payout was refunded (interface.md section
	// 3.1).
	PayoutRefunded PayoutStatus = "REFUNDED"
	// PayoutInReview means the payout is held for review (interface.md section
	// 3.1).
	PayoutInReview PayoutStatus = "IN_REVIEW"
)

// Values returns every payout status of interface.md section 3.1, in the
// document's order. The slice is new on every call.
func (PayoutStatus) Values() []PayoutStatus {
	l := payoutStatusList()
	return l[:]
}

// IsKnown reports whether s is one of the values of interface.md section 3.1
// (compared exactly, case-sensitively).
func (s PayoutStatus) IsKnown() bool {
	l := payoutStatusList()
	return slices.Contains(l[:], s)
}

// payoutStatusList is every PayoutStatus value, in the document's order:
// the one list from which Values and IsKnown derive.
func payoutStatusList() [5]PayoutStatus {
	return [...]PayoutStatus{PayoutProcessing, PayoutSuccess, PayoutFailed, PayoutRefunded, PayoutInReview}
}

// IsFinal reports whether a payout in status s has reached a final status
// that a poller can stop at: SUCCESS, FAILED or REFUNDED. PROCESSING,
// IN_REVIEW (a payout under review still moves) and unknown statuses are
// not final.
func (s PayoutStatus) IsFinal() bool {
	switch s {
	case PayoutSuccess, PayoutFailed, PayoutRefunded:
		return true
	}
	return false
}

// KYCStatus is the KYC status of a customer (interface.md section 3.2). A
// value the interface document does not list decodes unchanged; see IsKnown.
type KYCStatus string

// KYC status values (interface.md section 3.2).
const (
	// KYCUnverified is the status of a customer without a KYC result
	// (interface.md section 3.2).
	KYCUnverified KYCStatus = "UNVERIFIED"
	// KYCProcessing means a KYC check is under way (interface.md section 3.2).
	KYCProcessing KYCStatus = "PROCESSING"
	// KYCVerified means the customer passed KYC (interface.md section 3.2).
	KYCVerified KYCStatus = "VERIFIED"
	// KYCFailed means the customer failed KYC (interface.md section 3.2).
	KYCFailed KYCStatus = "FAILED"
	// KYCTaxVerificationFailed means the tax id check failed (interface.md
	// section 3.2).
	KYCTaxVerificationFailed KYCStatus = "TAX_VERIFICATION_FAILED"
	// KYCDocumentVerificationFailed means the document check failed
	// (interface.md section 3.2).
	KYCDocumentVerificationFailed KYCStatus = "DOCUMENT_VERIFICATION_FAILED"
)

// Values returns every KYC status of interface.md section 3.2, in the
// document's order. The slice is new on every call.
func (KYCStatus) Values() []KYCStatus {
	l := kYCStatusList()
	return l[:]
}

// IsKnown reports whether s is one of the values of interface.md section 3.2
// (compared exactly, case-sensitively).
func (s KYCStatus) IsKnown() bool {
	l := kYCStatusList()
	return slices.Contains(l[:], s)
}

// kYCStatusList is every KYCStatus value, in the document's order:
// the one list from which Values and IsKnown derive.
func kYCStatusList() [6]KYCStatus {
	return [...]KYCStatus{KYCUnverified, KYCProcessing, KYCVerified, KYCFailed, KYCTaxVerificationFailed, KYCDocumentVerificationFailed}
}

// PaymentMethod is the payment method of a payin quotation (interface.md
// sections 2.5 and 4.11).
type PaymentMethod string

// Payment method values (interface.md sections 2.5 and 4.11).
const (
	// PaymentMethodIMPS pays in by IMPS from a bank account of type
	// bank_account (interface.md sections 2.5 and 2.7).
	PaymentMethodIMPS PaymentMethod = "IMPS"
	// PaymentMethodUPI pays in by UPI from a bank account of type vpa
	// (interface.md sections 2.5 and 2.7).
	PaymentMethodUPI PaymentMethod = "UPI"
)

// Values returns every payment method of interface.md section 2.5. The slice
// is new on every call.
func (PaymentMethod) Values() []PaymentMethod {
	l := paymentMethodList()
	return l[:]
}

// IsKnown reports whether m is one of the values of interface.md section 2.5
// (compared exactly, case-sensitively).
func (m PaymentMethod) IsKnown() bool {
	l := paymentMethodList()
	return slices.Contains(l[:], m)
}

// paymentMethodList is every PaymentMethod value, in the document's order:
// the one list from which Values and IsKnown derive.
func paymentMethodList() [2]PaymentMethod {
	return [...]PaymentMethod{PaymentMethodIMPS, PaymentMethodUPI}
}

// WalletStatus is the status of a customer wallet (interface.md sections 2.6
// and 3.3). Only ACTIVE is documented; other values decode unchanged.
type WalletStatus string

// WalletActive is the only wallet status the interface document shows
// (interface.md section 3.3).
const WalletActive WalletStatus = "ACTIVE"

// Values returns every wallet status of interface.md section 3.3. The slice
// is new on every call.
func (WalletStatus) Values() []WalletStatus {
	l := walletStatusList()
	return l[:]
}

// IsKnown reports whether s is a value of interface.md section 3.3
// (compared exactly, case-sensitively).
func (s WalletStatus) IsKnown() bool {
	l := walletStatusList()
	return slices.Contains(l[:], s)
}

// walletStatusList is every WalletStatus value, in the document's order:
// the one list from which Values and IsKnown derive.
func walletStatusList() [1]WalletStatus {
	return [...]WalletStatus{WalletActive}
}

// BankAccountStatus is the verification status of a bank account
// (interface.md sections 2.7 and 3.3; the full set PROCESSING, VERIFIED,
// FAILED comes from the service's public documentation).
type BankAccountStatus string

// Bank account status values (interface.md section 3.3 and the public notes).
const (
	// BankAccountProcessing means verification is under way (interface.md
	// section 3.3, public notes).
	BankAccountProcessing BankAccountStatus = "PROCESSING"
	// BankAccountVerified means the account is verified (interface.md section
	// 3.3).
	BankAccountVerified BankAccountStatus = "VERIFIED"
	// BankAccountFailed means verification failed (interface.md section 3.3,
	// public notes).
	BankAccountFailed BankAccountStatus = "FAILED"
)

// Values returns every bank account status of interface.md section 3.3 and
// the public notes. The slice is new on every call.
func (BankAccountStatus) Values() []BankAccountStatus {
	l := bankAccountStatusList()
	return l[:]
}

// IsKnown reports whether s is one of the bank account statuses of
// interface.md section 3.3 and the public notes (compared exactly,
// case-sensitively).
func (s BankAccountStatus) IsKnown() bool {
	l := bankAccountStatusList()
	return slices.Contains(l[:], s)
}

// bankAccountStatusList is every BankAccountStatus value, in the document's order:
// the one list from which Values and IsKnown derive.
func bankAccountStatusList() [3]BankAccountStatus {
	return [...]BankAccountStatus{BankAccountProcessing, BankAccountVerified, BankAccountFailed}
}

// BankAccountType is the type of a bank account (interface.md section 2.7).
// The document shows ACCOUNT_DETAILS in a response and the lower-case
// bank_account and vpa in the payin quotation rules; all three are listed and
// compared exactly.
type BankAccountType string

// Bank account type values (interface.md section 2.7).
const (
	// BankAccountTypeAccountDetails is the type seen in a fetched account
	// (interface.md section 2.7).
	BankAccountTypeAccountDetails BankAccountType = "ACCOUNT_DETAILS"
	// BankAccountTypeBankAccount is the type an IMPS payin needs
	// (interface.md section 2.7).
	BankAccountTypeBankAccount BankAccountType = "bank_account"
	// BankAccountTypeVPA is the type a UPI payin needs (interface.md section
	// 2.7).
	BankAccountTypeVPA BankAccountType = "vpa"
)

// Values returns every bank account type of interface.md section 2.7. The
// slice is new on every call.
func (BankAccountType) Values() []BankAccountType {
	l := bankAccountTypeList()
	return l[:]
}

// IsKnown reports whether t is one of the values of interface.md section 2.7
// (compared exactly, case-sensitively).
func (t BankAccountType) IsKnown() bool {
	l := bankAccountTypeList()
	return slices.Contains(l[:], t)
}

// bankAccountTypeList is every BankAccountType value, in the document's order:
// the one list from which Values and IsKnown derive.
func bankAccountTypeList() [3]BankAccountType {
	return [...]BankAccountType{BankAccountTypeAccountDetails, BankAccountTypeBankAccount, BankAccountTypeVPA}
}

// QuotationStatus is the status of a payin quotation (interface.md sections
// 2.5 and 3.3; UNLINKED, LINKED and EXPIRED come from the service's public
// documentation).
type QuotationStatus string

// Quotation status values (interface.md section 3.3 and the public notes).
const (
	// QuotationProcessing is the status seen on a fetched payin quotation
	// (interface.md section 3.3).
	QuotationProcessing QuotationStatus = "PROCESSING"
	// QuotationUnlinked means no payout or payin uses the quotation yet
	// (interface.md section 3.3, public notes).
	QuotationUnlinked QuotationStatus = "UNLINKED"
	// QuotationLinked means the quotation is in use (interface.md section 3.3,
	// public notes).
	QuotationLinked QuotationStatus = "LINKED"
	// QuotationExpired means the quotation expired unused (interface.md
	// section 3.3, public notes).
	QuotationExpired QuotationStatus = "EXPIRED"
)

// Values returns every quotation status of interface.md section 3.3 and the
// public notes. The slice is new on every call.
func (QuotationStatus) Values() []QuotationStatus {
	l := quotationStatusList()
	return l[:]
}

// IsKnown reports whether s is one of the quotation statuses of interface.md
// section 3.3 and the public notes (compared exactly, case-sensitively).
func (s QuotationStatus) IsKnown() bool {
	l := quotationStatusList()
	return slices.Contains(l[:], s)
}

// quotationStatusList is every QuotationStatus value, in the document's order:
// the one list from which Values and IsKnown derive.
func quotationStatusList() [4]QuotationStatus {
	return [...]QuotationStatus{QuotationProcessing, QuotationUnlinked, QuotationLinked, QuotationExpired}
}

// PayinStatus is the status of a payin, moved in the sandbox by the payin
// status simulation: PROCESSING -> SUCCESS | FAILED, FAILED -> REFUNDED;
// ON_HOLD also exists. A value not listed here decodes unchanged; see
// IsKnown.
type PayinStatus string

// Payin status values.
const (
	// PayinProcessing is the status of a payin under way.
	PayinProcessing PayinStatus = "PROCESSING"
	// PayinSuccess means the fiat arrived.
	PayinSuccess PayinStatus = "SUCCESS"
	// PayinFailed means the payin failed.
	PayinFailed PayinStatus = "FAILED"
	// PayinRefunded means a failed payin was returned to the customer.
	PayinRefunded PayinStatus = "REFUNDED"
	// PayinOnHold means the payin is held.
	PayinOnHold PayinStatus = "ON_HOLD"
)

// Values returns every payin status. The slice is new on every call.
func (PayinStatus) Values() []PayinStatus {
	l := payinStatusList()
	return l[:]
}

// IsKnown reports whether s is one of the listed payin statuses (compared
// exactly, case-sensitively).
func (s PayinStatus) IsKnown() bool {
	l := payinStatusList()
	return slices.Contains(l[:], s)
}

// payinStatusList is every PayinStatus value, in the document's order:
// the one list from which Values and IsKnown derive.
func payinStatusList() [5]PayinStatus {
	return [...]PayinStatus{PayinProcessing, PayinSuccess, PayinFailed, PayinRefunded, PayinOnHold}
}
