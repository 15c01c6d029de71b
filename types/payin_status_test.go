package types_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fiatramp/fiatramp-go/types"
)

func payinFacts() statusFacts[types.PayinStatus] {
	return statusFacts[types.PayinStatus]{
		values: types.PayinStatus("").Values(), next: types.PayinStatus.Next,
		final: types.PayinStatus.IsFinal, paid: types.PayinStatus.IsPaid,
		mayPay: types.PayinStatus.MayStillPay, funds: types.PayinStatus.FundsReturned,
	}
}

// TestPayinStatusTable: the moves, and what each status says about the
// money, written out once here against the methods.
func TestPayinStatusTable(t *testing.T) {
	P, S, F, R, H, RI := types.PayinProcessing, types.PayinSuccess, types.PayinFailed, types.PayinRefunded, types.PayinOnHold, types.PayinRefundInitiated
	for _, tc := range []struct {
		s                          types.PayinStatus
		next                       []types.PayinStatus
		final, paid, mayPay, funds bool
	}{
		{P, []types.PayinStatus{S, F, H}, false, false, true, false},
		{H, []types.PayinStatus{S, F}, false, false, true, false},
		{S, nil, true, true, false, false},
		{F, []types.PayinStatus{RI, R}, false, false, false, false},
		{RI, []types.PayinStatus{R}, false, false, false, false},
		{R, nil, true, false, false, true},
		{"SETTLED", nil, false, false, true, false},
	} {
		assert.Equal(t, tc.next, tc.s.Next(), tc.s)
		assert.Equal(t, tc.final, tc.s.IsFinal(), tc.s)
		assert.Equal(t, tc.paid, tc.s.IsPaid(), tc.s)
		assert.Equal(t, tc.mayPay, tc.s.MayStillPay(), tc.s)
		assert.Equal(t, tc.funds, tc.s.FundsReturned(), tc.s)
		for _, to := range append(types.PayinStatus("").Values(), "SETTLED") {
			assert.Equal(t, slices.Contains(tc.next, to), tc.s.CanMoveTo(to), "%s -> %s", tc.s, to)
		}
	}
}

func TestPayinStatusFactsAgree(t *testing.T) {
	checkFactsAgree(t, payinFacts(), types.PayinProcessing)
}

// docs/states.md draws the payin table.
func TestPayinStatesDrawnInDocs(t *testing.T) {
	assert.Empty(t, statesProblems(statesDoc(t), "Payins", payinFacts(), types.PayinProcessing))
}
