package fiatramp

import (
	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// missingMember returns the name of the first member without which out, a
// response type of package types that has just decoded a 2xx response's
// data, cannot be used: absent, null, "" or, for an id, the nil UUID. It
// returns "" when every such member is there, and for any other out (a
// result type of the caller's own, given to Do, is never checked).
//
// The members are the ones every documented response of the operation
// carries and a caller cannot do without: the id a payout, quotation,
// wallet or bank account is known by, a payout's status, the subject and
// new status of a simulation, the amounts of a balance and the list of a
// bank list page (an empty list is a valid page, a missing one is not).
// Everything else may be absent, as the decoders of package types allow.
//
// This is a type switch, not reflection: a call pays for one comparison per
// member.
func missingMember(out any) string {
	switch v := out.(type) {
	case *types.Payout:
		return firstMissing(v.ID == uuid.Nil, "id", v.Status == "", "status")
	case *types.PrefundedPayout:
		return firstMissing(v.ID == uuid.Nil, "id", v.Status == "", "status")
	case *types.RemittancePayout:
		// The service does not document this payout's fields: only the id,
		// which every payout carries and Get takes, is required.
		return firstMissing(v.ID == uuid.Nil, "id", false, "")
	case *types.PayinQuotation:
		return firstMissing(v.ID == uuid.Nil, "id", false, "")
	case *types.Wallet:
		return firstMissing(v.ID == uuid.Nil, "id", false, "")
	case *types.BankAccount:
		return firstMissing(v.ID == uuid.Nil, "id", false, "")
	case *types.BankAccountPage:
		// count may be 0 and next and previous null; results may be [] but
		// must be there: a page without it cannot say "no accounts".
		return firstMissing(v.Results == nil, "results", false, "")
	case *types.KYCConfiguration:
		// additional_info_required may be absent (nothing more asked for);
		// the documents accepted are what a configuration is for.
		return firstMissing(v.SupportedDocumentTypes == nil, "supported_document_types", false, "")
	case *types.PayoutStatusSimulation:
		return firstMissing(v.PayoutID == uuid.Nil, "payout_id", v.PayoutStatus == "", "payout_status")
	case *types.KYCStatusSimulation:
		return firstMissing(v.ID == uuid.Nil, "id", v.Status == "", "status")
	case *types.BankVerificationSimulation:
		return firstMissing(v.BankID == uuid.Nil, "bank_id", v.BankAccountStatus == "", "bank_account_status")
	case *types.PayinStatusSimulation:
		return firstMissing(v.QuotationID == uuid.Nil, "quotation_id", v.PayinStatus == "", "payin_status")
	case *types.Balance:
		// An unknown balance is not zero, which a nil map would read as.
		return firstMissing(v.AvailableBalance == nil, "available_balance", false, "")
	}
	return ""
}

// firstMissing returns a when noA, else b when noB, else "".
func firstMissing(noA bool, a string, noB bool, b string) string {
	switch {
	case noA:
		return a
	case noB:
		return b
	}
	return ""
}
