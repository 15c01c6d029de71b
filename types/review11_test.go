package types_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// TestReview11InfoRequirementLastKeyWins: the service's reader keeps the
// last of a repeated key, so an object followed by null (or any value that
// is not an object) under the same key leaves no requirement.
func TestReview11InfoRequirementLastKeyWins(t *testing.T) {
	var a types.AdditionalInfoRequired
	require.NoError(t, a.UnmarshalJSON([]byte(`{"income_range":{"type":"select","required":true},"income_range":null,`+
		`"profession":{"type":"text"},"profession":"no","x":{"type":"t"},"x":{"type":"u","required":true}}`)))
	require.Nil(t, a.IncomeRange)
	require.Nil(t, a.Profession)
	require.Equal(t, map[string]types.InfoRequirement{"x": {Type: "u", Required: true}}, a.Fields)

	a = types.AdditionalInfoRequired{}
	require.NoError(t, a.UnmarshalJSON([]byte(`{"income_range":{"type":"select"},"income_range":null}`)))
	require.Nil(t, a.Fields, "nil when there are none")
	require.NoError(t, a.UnmarshalJSON([]byte(`{"income_range":null,"income_range":{"type":"select"}}`)))
	require.Equal(t, &types.InfoRequirement{Type: "select"}, a.IncomeRange)
}

// TestReview11LaterNullClearsAnObject: "fees": {...} followed by
// "fees": null is null for the service's reader (the last key wins); the
// decoders kept the first fees, money the service did not state.
func TestReview11LaterNullClearsAnObject(t *testing.T) {
	const fees = `"fees":{"client_fee_fiat":"10.5","tds":"1"},"fees":null`
	var p types.Payout
	require.NoError(t, p.UnmarshalJSON([]byte(`{`+fees+`}`)))
	require.Equal(t, types.Fees{}, p.Fees)
	var r types.RemittancePayout
	require.NoError(t, r.UnmarshalJSON([]byte(`{`+fees+`}`)))
	require.Equal(t, types.Fees{}, r.Fees)
	var q types.PayinQuotation
	require.NoError(t, q.UnmarshalJSON([]byte(`{`+fees+`}`)))
	require.Equal(t, types.Fees{}, q.Fees)
	var pp types.PrefundedPayout
	require.NoError(t, pp.UnmarshalJSON([]byte(`{"fees":{"client_fee":"3","tds":"1"},"fees":null}`)))
	require.Equal(t, types.PrefundedFees{}, pp.Fees)
	var b types.BankAccount
	require.NoError(t, b.UnmarshalJSON([]byte(`{"identifiers":{"account_number":"1234","ifsc":"HDFC0001"},"identifiers":null}`)))
	require.Equal(t, types.BankIdentifiers{}, b.Identifiers)
	var c types.KYCConfiguration
	require.NoError(t, c.UnmarshalJSON([]byte(`{"additional_info_required":{"options":["profession"]},"additional_info_required":null}`)))
	require.Equal(t, types.AdditionalInfoRequired{}, c.AdditionalInfoRequired)
	// A later object still replaces an earlier one wholly.
	require.NoError(t, p.UnmarshalJSON([]byte(`{"fees":{"client_fee_fiat":"10.5"},"fees":{"tds":"1"}}`)))
	require.True(t, p.Fees.ClientFeeFiat.IsZero())
	require.Equal(t, "1", p.Fees.TDS.String())
}
