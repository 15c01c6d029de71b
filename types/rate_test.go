package types_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

func TestRate(t *testing.T) {
	body := `{"asset":"USDT","fiat":"INR","rate":88.5,"rate":"88.123456789012345678901","network":"TRC20","extra":[1]}`
	var r types.Rate
	require.NoError(t, json.Unmarshal([]byte(body), &r))
	require.Equal(t, "USDT", r.Asset)
	require.Equal(t, "INR", r.Fiat)
	require.Equal(t, "TRC20", r.Network)
	requireDec(t, "88.123456789012345678901", r.Rate, "last duplicate wins, every digit kept")
	require.Equal(t, body, string(r.Raw))

	require.NoError(t, json.Unmarshal([]byte(`{"asset":"USDC","fiat":"INR","rate":9.0e1}`), &r))
	requireDec(t, "90", r.Rate, "a number with an exponent")
	require.Empty(t, r.Network, "absent network: every member set afresh")
}

func TestRateRefusals(t *testing.T) {
	for _, body := range []string{
		`{"rate":"lots"}`,
		`{"rate":true}`,
		`{"rate":[88]}`,
		`{"asset":1}`,
		`[]`,
	} {
		r := types.Rate{Asset: "before"}
		require.Error(t, json.Unmarshal([]byte(body), &r), body)
		require.Equal(t, "before", r.Asset, "unchanged on error: %s", body)
	}
}

func FuzzRate(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.Rate]{prior: `{"asset":"USDT","fiat":"INR","rate":88.5}`, hasRaw: true})
}
