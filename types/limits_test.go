package types_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

func TestLimits(t *testing.T) {
	body := `{"daily_limit":200000,"available_limit":150000.50,` +
		`"payment_method_limits":{"per_transaction_limit":{"UPI":100000,"IMPS":"500000"},"total_available_limit":{"UPI":100000,"IMPS":150000.50}},` +
		`"full_limit_reset_timestamp":"2026-01-02T00:00:00Z","is_edd_required":false,"is_limit_increase_available":true}`
	var l types.Limits
	require.NoError(t, json.Unmarshal([]byte(body), &l))
	require.NotNil(t, l.DailyLimit)
	requireDec(t, "200000", *l.DailyLimit)
	requireDec(t, "150000.50", *l.AvailableLimit)
	requireDec(t, "500000", l.PaymentMethodLimits.PerTransactionLimit["IMPS"])
	requireDec(t, "100000", l.PaymentMethodLimits.TotalAvailableLimit["UPI"])
	requireTime(t, "2026-01-02T00:00:00Z", l.FullLimitResetTimestamp)
	require.False(t, l.IsEDDRequired)
	require.True(t, l.IsLimitIncreaseAvailable)
	require.Equal(t, body, string(l.Raw))
}

// TestLimitsOlderEdition: the older payin limits spell the amounts
// maximum_daily_limit and available_daily_limit, as strings; the newest
// spelling wins when both are there and set.
func TestLimitsOlderEdition(t *testing.T) {
	var l types.Limits
	require.NoError(t, json.Unmarshal([]byte(`{"maximum_daily_limit":"100000.00","available_daily_limit":"0","is_edd_required":true}`), &l))
	requireDec(t, "100000.00", *l.DailyLimit)
	requireDec(t, "0", *l.AvailableLimit)
	require.True(t, l.IsEDDRequired)

	require.NoError(t, json.Unmarshal([]byte(`{"available_limit":5,"available_daily_limit":"7"}`), &l))
	requireDec(t, "5", *l.AvailableLimit, "the newest spelling wins")
	require.Nil(t, l.DailyLimit, "absent: nil, never zero")
	require.NoError(t, json.Unmarshal([]byte(`{"available_limit":null,"available_daily_limit":"7"}`), &l))
	requireDec(t, "7", *l.AvailableLimit, "null gives way to the other spelling")
	require.NoError(t, json.Unmarshal([]byte(`{"available_limit":1,"available_limit":2}`), &l))
	requireDec(t, "2", *l.AvailableLimit, "last duplicate wins")
}

func TestLimitsRefusals(t *testing.T) {
	for _, body := range []string{
		`{"available_limit":"many"}`,
		`{"available_limit":true}`,
		`{"payment_method_limits":{"per_transaction_limit":{"UPI":null}}}`,
		`{"payment_method_limits":[]}`,
		`{"is_edd_required":"yes"}`,
		`{"full_limit_reset_timestamp":"tomorrow"}`,
	} {
		l := types.Limits{IsEDDRequired: true}
		require.Error(t, json.Unmarshal([]byte(body), &l), body)
		require.True(t, l.IsEDDRequired, "unchanged on error: %s", body)
	}
}

func FuzzLimits(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.Limits]{prior: `{"daily_limit":1,"available_limit":1,"is_edd_required":true}`, hasRaw: true})
}
