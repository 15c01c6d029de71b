package types

import "slices"

// PayoutStatus is the status of a payout, and what it says about the
// money. The moves between statuses are one table, drawn as a diagram in
// the library's docs/states.md:
//
//	PROCESSING -> SUCCESS, FAILED, REFUNDED, IN_REVIEW, CANCELLED
//	IN_REVIEW  -> PROCESSING, SUCCESS, FAILED, CANCELLED
//	FAILED     -> REFUNDED
//	SUCCESS, REFUNDED, CANCELLED: final
//
// Next and CanMoveTo read the table; IsFinal, IsPaid, MayStillPay and
// FundsReturned say, for each status, whether it can still move, whether
// the beneficiary has been paid, whether fiat may still be paid, and
// whether the funds (the crypto of a standard payout, the reservation of
// a prefunded one) are back with the organization: the moment to re-credit
// the user who asked for the payout. FAILED means no fiat will be paid,
// but the funds have not come back yet: re-credit on REFUNDED (or
// CANCELLED), never on FAILED.
//
// The service documents PROCESSING -> SUCCESS | FAILED | REFUNDED and
// FAILED -> REFUNDED, and that IN_REVIEW and CANCELLED exist; the moves
// out of IN_REVIEW, the move to CANCELLED and what each status means for
// the funds are this library's reading, chosen so that a status never
// says the funds came back before they did. A value not listed here
// decodes unchanged (see IsKnown) and is treated as still under way: not
// final, fiat may still be paid, funds not returned.
type PayoutStatus string

// Payout status values.
const (
	// PayoutProcessing is the status of a newly created payout, until the
	// bank pays or the payout fails. Fiat may still be paid.
	PayoutProcessing PayoutStatus = "PROCESSING"
	// PayoutSuccess means the bank has paid the beneficiary; utr is set.
	// It is final.
	PayoutSuccess PayoutStatus = "SUCCESS"
	// PayoutFailed means the payout failed and no fiat will be paid;
	// failure_reason is set. It is not final: the funds have not come back
	// yet, and REFUNDED follows when they do.
	PayoutFailed PayoutStatus = "FAILED"
	// PayoutRefunded means the funds came back to the organization (a
	// prefunded reservation is back in the balance): re-credit the user.
	// It is final.
	PayoutRefunded PayoutStatus = "REFUNDED"
	// PayoutInReview means the payout is held for review (the user may be
	// asked for information through rfi_link); fiat may still be paid.
	PayoutInReview PayoutStatus = "IN_REVIEW"
	// PayoutCancelled means the payout was stopped before any fiat was
	// paid and its funds returned: re-credit the user. It is final.
	PayoutCancelled PayoutStatus = "CANCELLED"
)

// Values returns every payout status: PROCESSING, SUCCESS, FAILED,
// REFUNDED, IN_REVIEW, CANCELLED. The slice is new on every call.
func (PayoutStatus) Values() []PayoutStatus {
	l := payoutStatusList()
	return l[:]
}

// IsKnown reports whether s is one of the payout statuses of Values
// (compared exactly, case-sensitively).
func (s PayoutStatus) IsKnown() bool {
	l := payoutStatusList()
	return slices.Contains(l[:], s)
}

// payoutStatusList is every PayoutStatus value, in a fixed order:
// the one list from which Values and IsKnown derive.
func payoutStatusList() [6]PayoutStatus {
	return [...]PayoutStatus{PayoutProcessing, PayoutSuccess, PayoutFailed, PayoutRefunded, PayoutInReview, PayoutCancelled}
}

// payoutMoves is the transition table: the statuses a payout in status s
// may move to, nil for a final or unknown status. Next, CanMoveTo and
// IsFinal derive from it.
func payoutMoves(s PayoutStatus) []PayoutStatus {
	switch s {
	case PayoutProcessing:
		return []PayoutStatus{PayoutSuccess, PayoutFailed, PayoutRefunded, PayoutInReview, PayoutCancelled}
	case PayoutInReview:
		return []PayoutStatus{PayoutProcessing, PayoutSuccess, PayoutFailed, PayoutCancelled}
	case PayoutFailed:
		return []PayoutStatus{PayoutRefunded}
	}
	return nil
}

// Next returns the statuses a payout in status s may move to, in a fixed
// order; none for a final or unknown status. The slice is new on every
// call.
func (s PayoutStatus) Next() []PayoutStatus {
	return payoutMoves(s)
}

// CanMoveTo reports whether a payout in status s may move to status to.
// Staying in the same status is not a move.
func (s PayoutStatus) CanMoveTo(to PayoutStatus) bool {
	return slices.Contains(payoutMoves(s), to)
}

// IsFinal reports whether a payout in status s can no longer move:
// SUCCESS, REFUNDED or CANCELLED. FAILED is not final (REFUNDED follows
// when the funds come back), nor are PROCESSING, IN_REVIEW and unknown
// statuses.
func (s PayoutStatus) IsFinal() bool {
	return s.IsKnown() && len(payoutMoves(s)) == 0
}

// IsPaid reports whether the beneficiary has been paid: SUCCESS.
func (s PayoutStatus) IsPaid() bool {
	return s == PayoutSuccess
}

// MayStillPay reports whether fiat may still be paid to the beneficiary:
// PROCESSING, IN_REVIEW, and an unknown status (a status this library does
// not know is taken as still under way). When it is false the fiat
// outcome is decided: paid (SUCCESS) or never to be paid (FAILED,
// REFUNDED, CANCELLED).
func (s PayoutStatus) MayStillPay() bool {
	switch s {
	case PayoutSuccess, PayoutFailed, PayoutRefunded, PayoutCancelled:
		return false
	}
	return true
}

// FundsReturned reports whether the payout's funds (the crypto of a
// standard payout, the reserved amount of a prefunded one) are back with
// the organization: REFUNDED or CANCELLED. This is when to re-credit the
// user who asked for the payout; never on FAILED, whose funds have not
// come back yet.
func (s PayoutStatus) FundsReturned() bool {
	return s == PayoutRefunded || s == PayoutCancelled
}
