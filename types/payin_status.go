package types

import "slices"

// PayinStatus is the status of a payin, and what it says about the money.
// The moves between statuses are one table, drawn as a diagram in the
// library's docs/states.md:
//
//	PROCESSING       -> SUCCESS, FAILED, ON_HOLD
//	ON_HOLD          -> SUCCESS, FAILED
//	FAILED           -> REFUND_INITIATED, REFUNDED
//	REFUND_INITIATED -> REFUNDED
//	SUCCESS, REFUNDED: final
//
// Next and CanMoveTo read the table; IsFinal, IsPaid, MayStillPay and
// FundsReturned say, for each status, whether it can still move, whether
// the customer's fiat was received and kept (the moment to credit the
// customer's crypto), whether it may still be, and whether the fiat has
// gone back to the customer.
//
// The service documents PROCESSING -> SUCCESS | FAILED and FAILED ->
// REFUNDED, that ON_HOLD exists, and that REFUND_INITIATED and REFUNDED
// carry refund_reason; the moves into and out of ON_HOLD and through
// REFUND_INITIATED are this library's reading. A value not listed here
// decodes unchanged (see IsKnown) and is treated as still under way.
type PayinStatus string

// Payin status values.
const (
	// PayinProcessing is the status of a payin under way.
	PayinProcessing PayinStatus = "PROCESSING"
	// PayinSuccess means the fiat arrived and is kept: credit the
	// customer's crypto. It is final.
	PayinSuccess PayinStatus = "SUCCESS"
	// PayinFailed means the payin failed; failure_reason says why. Nothing
	// is credited. It may still be refunded.
	PayinFailed PayinStatus = "FAILED"
	// PayinRefunded means the fiat went back to the customer. It is final.
	PayinRefunded PayinStatus = "REFUNDED"
	// PayinOnHold means the payin is held for review; it still moves.
	PayinOnHold PayinStatus = "ON_HOLD"
	// PayinRefundInitiated means the return of a failed payin to the
	// customer has begun; refund_reason says why. It still moves, to
	// REFUNDED.
	PayinRefundInitiated PayinStatus = "REFUND_INITIATED"
)

// Values returns every payin status: PROCESSING, SUCCESS, FAILED,
// REFUNDED, ON_HOLD, REFUND_INITIATED. The slice is new on every call.
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

// payinStatusList is every PayinStatus value, in a fixed order:
// the one list from which Values and IsKnown derive.
func payinStatusList() [6]PayinStatus {
	return [...]PayinStatus{PayinProcessing, PayinSuccess, PayinFailed, PayinRefunded, PayinOnHold, PayinRefundInitiated}
}

// payinMoves is the transition table: the statuses a payin in status s
// may move to, nil for a final or unknown status. Next, CanMoveTo and
// IsFinal derive from it.
func payinMoves(s PayinStatus) []PayinStatus {
	switch s {
	case PayinProcessing:
		return []PayinStatus{PayinSuccess, PayinFailed, PayinOnHold}
	case PayinOnHold:
		return []PayinStatus{PayinSuccess, PayinFailed}
	case PayinFailed:
		return []PayinStatus{PayinRefundInitiated, PayinRefunded}
	case PayinRefundInitiated:
		return []PayinStatus{PayinRefunded}
	}
	return nil
}

// Next returns the statuses a payin in status s may move to, in a fixed
// order; none for a final or unknown status. The slice is new on every
// call.
func (s PayinStatus) Next() []PayinStatus {
	return payinMoves(s)
}

// CanMoveTo reports whether a payin in status s may move to status to.
// Staying in the same status is not a move.
func (s PayinStatus) CanMoveTo(to PayinStatus) bool {
	return slices.Contains(payinMoves(s), to)
}

// IsFinal reports whether a payin in status s can no longer move: SUCCESS
// or REFUNDED. FAILED is not final (a refund may follow), nor are
// PROCESSING, ON_HOLD, REFUND_INITIATED and unknown statuses.
func (s PayinStatus) IsFinal() bool {
	return s.IsKnown() && len(payinMoves(s)) == 0
}

// IsPaid reports whether the customer's fiat was received and kept:
// SUCCESS, the moment to credit the customer's crypto.
func (s PayinStatus) IsPaid() bool {
	return s == PayinSuccess
}

// MayStillPay reports whether the payin may still succeed: PROCESSING,
// ON_HOLD and an unknown status (taken as still under way). When it is
// false the outcome is decided: SUCCESS, or nothing to credit (FAILED,
// REFUND_INITIATED, REFUNDED).
func (s PayinStatus) MayStillPay() bool {
	switch s {
	case PayinSuccess, PayinFailed, PayinRefundInitiated, PayinRefunded:
		return false
	}
	return true
}

// FundsReturned reports whether the customer's fiat has gone back to
// them: REFUNDED. REFUND_INITIATED has begun the return, not ended it.
func (s PayinStatus) FundsReturned() bool {
	return s == PayinRefunded
}
