package types

import "slices"

// KYCStatus is the KYC status of a customer. The sandbox KYC simulation
// (KYCService.SimulateStatus) allows PROCESSING to move to VERIFIED,
// UNVERIFIED, TAX_VERIFICATION_FAILED or DOCUMENT_VERIFICATION_FAILED,
// VERIFIED and FAILED to move back to UNVERIFIED, and nothing to leave
// UNVERIFIED. A value not listed here decodes unchanged; see IsKnown.
type KYCStatus string

// KYC status values.
const (
	// KYCUnverified is the status of a customer without a KYC result. A
	// payin quotation for such a customer is refused (Customer is
	// unverified).
	KYCUnverified KYCStatus = "UNVERIFIED"
	// KYCProcessing means a KYC check is under way.
	KYCProcessing KYCStatus = "PROCESSING"
	// KYCVerified means the customer passed KYC.
	KYCVerified KYCStatus = "VERIFIED"
	// KYCFailed means the customer failed KYC.
	KYCFailed KYCStatus = "FAILED"
	// KYCTaxVerificationFailed means the tax id check failed.
	KYCTaxVerificationFailed KYCStatus = "TAX_VERIFICATION_FAILED"
	// KYCDocumentVerificationFailed means the document check failed.
	KYCDocumentVerificationFailed KYCStatus = "DOCUMENT_VERIFICATION_FAILED"
)

// Values returns every KYC status: UNVERIFIED, PROCESSING, VERIFIED,
// FAILED, TAX_VERIFICATION_FAILED, DOCUMENT_VERIFICATION_FAILED. The slice
// is new on every call.
func (KYCStatus) Values() []KYCStatus {
	l := kYCStatusList()
	return l[:]
}

// IsKnown reports whether s is one of the KYC statuses of Values
// (compared exactly, case-sensitively).
func (s KYCStatus) IsKnown() bool {
	l := kYCStatusList()
	return slices.Contains(l[:], s)
}

// kYCStatusList is every KYCStatus value, in a fixed order:
// the one list from which Values and IsKnown derive.
func kYCStatusList() [6]KYCStatus {
	return [...]KYCStatus{KYCUnverified, KYCProcessing, KYCVerified, KYCFailed, KYCTaxVerificationFailed, KYCDocumentVerificationFailed}
}

// PaymentMethod is how the customer pays in the fiat of a payin quotation:
// IMPS or UPI, sent as payment_method.
type PaymentMethod string

// Payment method values.
const (
	// PaymentMethodIMPS pays in by IMPS from a bank account of type
	// bank_account, at most INR 500,000 per transaction.
	PaymentMethodIMPS PaymentMethod = "IMPS"
	// PaymentMethodUPI pays in by UPI from a bank account of type vpa, at
	// most INR 100,000 per transaction.
	PaymentMethodUPI PaymentMethod = "UPI"
)

// Values returns every payment method: IMPS, UPI. The slice is new on
// every call.
func (PaymentMethod) Values() []PaymentMethod {
	l := paymentMethodList()
	return l[:]
}

// IsKnown reports whether m is IMPS or UPI (compared exactly,
// case-sensitively).
func (m PaymentMethod) IsKnown() bool {
	l := paymentMethodList()
	return slices.Contains(l[:], m)
}

// paymentMethodList is every PaymentMethod value, in a fixed order:
// the one list from which Values and IsKnown derive.
func paymentMethodList() [2]PaymentMethod {
	return [...]PaymentMethod{PaymentMethodIMPS, PaymentMethodUPI}
}

// WalletStatus is the status of a customer wallet, as wallet_status. Only
// ACTIVE is documented; other values decode unchanged.
type WalletStatus string

// WalletActive is the only documented wallet status: the wallet can be
// used as a deposit source.
const WalletActive WalletStatus = "ACTIVE"

// Values returns every documented wallet status: ACTIVE. The slice is new
// on every call.
func (WalletStatus) Values() []WalletStatus {
	l := walletStatusList()
	return l[:]
}

// IsKnown reports whether s is ACTIVE (compared exactly,
// case-sensitively).
func (s WalletStatus) IsKnown() bool {
	l := walletStatusList()
	return slices.Contains(l[:], s)
}

// walletStatusList is every WalletStatus value, in a fixed order:
// the one list from which Values and IsKnown derive.
func walletStatusList() [1]WalletStatus {
	return [...]WalletStatus{WalletActive}
}

// BankAccountStatus is the verification status of a bank account:
// PROCESSING until verification ends in VERIFIED or FAILED. Responses
// show VERIFIED; PROCESSING and FAILED come from the service's public
// documentation. A payin quotation needs a VERIFIED account.
type BankAccountStatus string

// Bank account status values.
const (
	// BankAccountProcessing means verification is under way.
	BankAccountProcessing BankAccountStatus = "PROCESSING"
	// BankAccountVerified means the account is verified.
	BankAccountVerified BankAccountStatus = "VERIFIED"
	// BankAccountFailed means verification failed.
	BankAccountFailed BankAccountStatus = "FAILED"
)

// Values returns every bank account status: PROCESSING, VERIFIED,
// FAILED. The slice is new on every call.
func (BankAccountStatus) Values() []BankAccountStatus {
	l := bankAccountStatusList()
	return l[:]
}

// IsKnown reports whether s is one of the bank account statuses of
// Values (compared exactly, case-sensitively).
func (s BankAccountStatus) IsKnown() bool {
	l := bankAccountStatusList()
	return slices.Contains(l[:], s)
}

// bankAccountStatusList is every BankAccountStatus value, in a fixed order:
// the one list from which Values and IsKnown derive.
func bankAccountStatusList() [3]BankAccountStatus {
	return [...]BankAccountStatus{BankAccountProcessing, BankAccountVerified, BankAccountFailed}
}

// BankAccountType is the type of a bank account, as bank_account_type.
// A fetched account shows ACCOUNT_DETAILS; a payin quotation needs an
// account of the lower-case type bank_account for IMPS and vpa for UPI.
// All three are listed and compared exactly.
type BankAccountType string

// Bank account type values.
const (
	// BankAccountTypeAccountDetails is the type seen in a fetched account
	// identified by account number and IFSC.
	BankAccountTypeAccountDetails BankAccountType = "ACCOUNT_DETAILS"
	// BankAccountTypeBankAccount is the type an IMPS payin needs.
	BankAccountTypeBankAccount BankAccountType = "bank_account"
	// BankAccountTypeVPA is the type a UPI payin needs (a virtual payment
	// address).
	BankAccountTypeVPA BankAccountType = "vpa"
)

// Values returns every bank account type: ACCOUNT_DETAILS, bank_account,
// vpa. The slice is new on every call.
func (BankAccountType) Values() []BankAccountType {
	l := bankAccountTypeList()
	return l[:]
}

// IsKnown reports whether t is one of the bank account types of Values
// (compared exactly, case-sensitively).
func (t BankAccountType) IsKnown() bool {
	l := bankAccountTypeList()
	return slices.Contains(l[:], t)
}

// bankAccountTypeList is every BankAccountType value, in a fixed order:
// the one list from which Values and IsKnown derive.
func bankAccountTypeList() [3]BankAccountType {
	return [...]BankAccountType{BankAccountTypeAccountDetails, BankAccountTypeBankAccount, BankAccountTypeVPA}
}

// QuotationStatus is the status of a quotation, carried by a fetched payin
// quotation. PROCESSING is what a fetched payin quotation shows; the
// service's public documentation adds UNLINKED, which moves to LINKED when
// a payout or payin uses the quotation or to EXPIRED.
type QuotationStatus string

// Quotation status values.
const (
	// QuotationProcessing is the status seen on a fetched payin quotation.
	QuotationProcessing QuotationStatus = "PROCESSING"
	// QuotationUnlinked means no payout or payin uses the quotation yet.
	QuotationUnlinked QuotationStatus = "UNLINKED"
	// QuotationLinked means the quotation is in use.
	QuotationLinked QuotationStatus = "LINKED"
	// QuotationExpired means the quotation expired unused.
	QuotationExpired QuotationStatus = "EXPIRED"
)

// Values returns every quotation status: PROCESSING, UNLINKED, LINKED,
// EXPIRED. The slice is new on every call.
func (QuotationStatus) Values() []QuotationStatus {
	l := quotationStatusList()
	return l[:]
}

// IsKnown reports whether s is one of the quotation statuses of Values
// (compared exactly, case-sensitively).
func (s QuotationStatus) IsKnown() bool {
	l := quotationStatusList()
	return slices.Contains(l[:], s)
}

// quotationStatusList is every QuotationStatus value, in a fixed order:
// the one list from which Values and IsKnown derive.
func quotationStatusList() [4]QuotationStatus {
	return [...]QuotationStatus{QuotationProcessing, QuotationUnlinked, QuotationLinked, QuotationExpired}
}

// Payin failure and refund reasons.

// PayinFailureReason says why a payin FAILED, as failure_reason. A value
// not listed here decodes unchanged; see IsKnown.
type PayinFailureReason string

// Payin failure reasons.
const (
	// PayinFailureIncorrectUTR: the UTR names no transfer of the quoted
	// payment.
	PayinFailureIncorrectUTR PayinFailureReason = "INCORRECT_UTR"
	// PayinFailurePaymentNotReceived: no payment arrived.
	PayinFailurePaymentNotReceived PayinFailureReason = "PAYMENT_NOT_RECEIVED"
)

// Values returns every payin failure reason: INCORRECT_UTR,
// PAYMENT_NOT_RECEIVED. The slice is new on every call.
func (PayinFailureReason) Values() []PayinFailureReason {
	l := payinFailureReasonList()
	return l[:]
}

// IsKnown reports whether r is one of the listed failure reasons
// (compared exactly, case-sensitively).
func (r PayinFailureReason) IsKnown() bool {
	l := payinFailureReasonList()
	return slices.Contains(l[:], r)
}

// payinFailureReasonList is every PayinFailureReason value, in a fixed
// order: the one list from which Values and IsKnown derive.
func payinFailureReasonList() [2]PayinFailureReason {
	return [...]PayinFailureReason{PayinFailureIncorrectUTR, PayinFailurePaymentNotReceived}
}

// PayinRefundReason says why a payin is refunded, as refund_reason: a
// payin must come from the customer's own whitelisted account, in one
// transfer of exactly the quoted amount. A value not listed here decodes
// unchanged; see IsKnown.
type PayinRefundReason string

// Payin refund reasons.
const (
	// PayinRefundIncorrectAmount: the amount paid is not the quoted one.
	PayinRefundIncorrectAmount PayinRefundReason = "INCORRECT_AMOUNT"
	// PayinRefundNonWhitelistedAccount: the payment came from an account
	// that is not the customer's verified one.
	PayinRefundNonWhitelistedAccount PayinRefundReason = "PAYMENT_FROM_NON_WHITELISTED_ACCOUNT"
	// PayinRefundThirdPartyPayment: someone other than the customer paid.
	PayinRefundThirdPartyPayment PayinRefundReason = "THIRD_PARTY_PAYMENT"
)

// Values returns every payin refund reason: INCORRECT_AMOUNT,
// PAYMENT_FROM_NON_WHITELISTED_ACCOUNT, THIRD_PARTY_PAYMENT. The slice is
// new on every call.
func (PayinRefundReason) Values() []PayinRefundReason {
	l := payinRefundReasonList()
	return l[:]
}

// IsKnown reports whether r is one of the listed refund reasons (compared
// exactly, case-sensitively).
func (r PayinRefundReason) IsKnown() bool {
	l := payinRefundReasonList()
	return slices.Contains(l[:], r)
}

// payinRefundReasonList is every PayinRefundReason value, in a fixed
// order: the one list from which Values and IsKnown derive.
func payinRefundReasonList() [3]PayinRefundReason {
	return [...]PayinRefundReason{PayinRefundIncorrectAmount, PayinRefundNonWhitelistedAccount, PayinRefundThirdPartyPayment}
}

// KYCFailureReason says why a customer's KYC failed, as failure_reason.
// The first three are recoverable by the matching KYC update (tax,
// document, selfie); KYC_FAILED is final (the customer must contact
// support). A value not listed here decodes unchanged; see IsKnown.
type KYCFailureReason string

// KYC failure reasons.
const (
	// KYCFailureDocument: the identity document did not verify; recover
	// with KYCService.UpdateDocumentInfo.
	KYCFailureDocument KYCFailureReason = "DOCUMENT_VERIFICATION_FAILED"
	// KYCFailureTax: the tax number did not verify; recover with
	// KYCService.UpdateTaxInfo.
	KYCFailureTax KYCFailureReason = "TAX_VERIFICATION_FAILED"
	// KYCFailureSelfie: the selfie did not verify; recover with
	// KYCService.UpdateSelfie.
	KYCFailureSelfie KYCFailureReason = "SELFIE_VERIFICATION_FAILED"
	// KYCFailureFinal: KYC failed for good; no update recovers it.
	KYCFailureFinal KYCFailureReason = "KYC_FAILED"
)

// Values returns every KYC failure reason: DOCUMENT_VERIFICATION_FAILED,
// TAX_VERIFICATION_FAILED, SELFIE_VERIFICATION_FAILED, KYC_FAILED. The
// slice is new on every call.
func (KYCFailureReason) Values() []KYCFailureReason {
	l := kycFailureReasonList()
	return l[:]
}

// IsKnown reports whether r is one of the failure reasons of Values
// (compared exactly, case-sensitively).
func (r KYCFailureReason) IsKnown() bool {
	l := kycFailureReasonList()
	return slices.Contains(l[:], r)
}

// IsRecoverable reports whether an update can recover a customer that
// failed for r: document, tax and selfie failures can; KYC_FAILED and
// unknown reasons cannot.
func (r KYCFailureReason) IsRecoverable() bool {
	return r == KYCFailureDocument || r == KYCFailureTax || r == KYCFailureSelfie
}

// kycFailureReasonList is every KYCFailureReason value, in a fixed order:
// the one list from which Values and IsKnown derive.
func kycFailureReasonList() [4]KYCFailureReason {
	return [...]KYCFailureReason{KYCFailureDocument, KYCFailureTax, KYCFailureSelfie, KYCFailureFinal}
}
