package types_test

import (
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

func decodeFees(t *testing.T, body string) types.Fees {
	t.Helper()
	var f types.Fees
	require.NoError(t, json.Unmarshal([]byte(body), &f))
	return f
}

func requireOther(t *testing.T, want map[string]string, got map[string]decimal.Decimal) {
	t.Helper()
	if want == nil {
		require.Nil(t, got)
		return
	}
	require.Len(t, got, len(want))
	for k, v := range want {
		d, ok := got[k]
		require.Truef(t, ok, "Other lacks %q", k)
		requireDec(t, v, d, k)
	}
}

func TestFeesBrandKeys(t *testing.T) {
	f := decodeFees(t, `{"acme_fee": 5.5, "acme_gst": "0.99", "tds": 1}`)
	requireDec(t, "5.5", f.ServiceFee)
	requireDec(t, "0.99", f.ServiceGST)
	requireDec(t, "1", f.TDS)
	require.Nil(t, f.Other, "a brand key that fills ServiceFee/ServiceGST is not also in Other")

	f = decodeFees(t, `{"fiatramp2_fee": "7", "x9_gst": "1.26"}`)
	requireDec(t, "7", f.ServiceFee, "digits are allowed in the brand word")
	requireDec(t, "1.26", f.ServiceGST)
}

func TestFeesExplicitServiceKeyWins(t *testing.T) {
	for _, body := range []string{
		`{"service_fee": "1", "acme_fee": "2", "service_gst": "0.18", "acme_gst": "0.36"}`,
		`{"acme_fee": "2", "service_fee": "1", "acme_gst": "0.36", "service_gst": "0.18"}`,
	} {
		f := decodeFees(t, body)
		requireDec(t, "1", f.ServiceFee, body)
		requireDec(t, "0.18", f.ServiceGST, body)
		requireOther(t, map[string]string{"acme_fee": "2", "acme_gst": "0.36"}, f.Other)
	}
	// An explicit null service_fee still wins; a null brand value is not kept.
	f := decodeFees(t, `{"acme_fee": null, "service_fee": null}`)
	require.True(t, f.ServiceFee.IsZero())
	require.Nil(t, f.Other)
}

func TestFeesSeveralBrandKeysFirstWins(t *testing.T) {
	f := decodeFees(t, `{"acme_fee": "3", "other_fee": "4"}`)
	requireDec(t, "3", f.ServiceFee)
	requireOther(t, map[string]string{"other_fee": "4"}, f.Other)
}

func TestFeesOther(t *testing.T) {
	f := decodeFees(t, `{
	  "client_fee_fiat": "1",
	  "network_fee_crypto": "0.0001",
	  "client_fee": "2",
	  "clientx_fee": 2.5,
	  "pg_extra_fee": "3",
	  "pgx_gst": "0.3",
	  "Acme_Fee": "4",
	  "acme-corp_fee": "6",
	  "_fee": "5",
	  "total": 1e-30,
	  "rebate": "-0.5",
	  "label": "not a number",
	  "breakdown": {"a": 1},
	  "flags": [1, 2],
	  "waived": true,
	  "missing": null,
	  "blank": ""
	}`)
	requireDec(t, "1", f.ClientFeeFiat)
	require.True(t, f.ServiceFee.IsZero(), "none of these is a brand key")
	require.True(t, f.ServiceGST.IsZero())
	requireOther(t, map[string]string{
		"network_fee_crypto": "0.0001", // two underscores: not a single word
		"client_fee":         "2",      // client-prefixed
		"clientx_fee":        "2.5",    // client-prefixed
		"pg_extra_fee":       "3",
		"pgx_gst":            "0.3", // pg-prefixed
		"Acme_Fee":           "4",   // upper case: not [a-z0-9]
		"acme-corp_fee":      "6",   // '-' is not in [a-z0-9]
		"_fee":               "5",   // empty word
		"total":              "0.000000000000000000000000000001",
		"rebate":             "-0.5",
	}, f.Other)
}

func TestFeesNullAndEmpty(t *testing.T) {
	f := decodeFees(t, `{"tds": null, "pg_fee": "", "pg_gst": "0.00"}`)
	require.True(t, f.TDS.IsZero())
	require.True(t, f.PGFee.IsZero())
	require.True(t, f.PGGST.IsZero())
	require.Nil(t, f.Other)

	var p types.Payout
	require.NoError(t, json.Unmarshal([]byte(`{"fees": null}`), &p))
	require.Equal(t, types.Fees{}, p.Fees)
	require.NoError(t, json.Unmarshal([]byte(`{"fees": {}}`), &p))
	require.Equal(t, types.Fees{}, p.Fees)
}

func TestFeesEscapedKeys(t *testing.T) {
	// Keys are compared after JSON unescaping.
	f := decodeFees(t, `{"t\u0064s": "1.5", "\u0061cme_fee": "2"}`)
	requireDec(t, "1.5", f.TDS)
	requireDec(t, "2", f.ServiceFee)
}

func TestPrefundedFees(t *testing.T) {
	var f types.PrefundedFees
	require.NoError(t, json.Unmarshal([]byte(`{"acme_fee": "12.50", "client_fee": 3, "client_gst": "0.54", "tds": "217.81", "acme_gst": "2.25", "pg_fee": "1", "memo": "x"}`), &f))
	requireDec(t, "12.50", f.ServiceFee, "brand fee key")
	requireDec(t, "3", f.ClientFee, "numbers are accepted")
	requireDec(t, "0.54", f.ClientGST)
	requireDec(t, "217.81", f.TDS)
	requireOther(t, map[string]string{"acme_gst": "2.25", "pg_fee": "1"}, f.Other)

	require.NoError(t, json.Unmarshal([]byte(`{"acme_fee": "9", "service_fee": "1"}`), &f))
	requireDec(t, "1", f.ServiceFee, "explicit service_fee wins")
	requireOther(t, map[string]string{"acme_fee": "9"}, f.Other)

	require.NoError(t, json.Unmarshal([]byte(`{"service_fee": "1", "client_fee": "2", "client_gst": "3", "tds": "4"}`), &f))
	require.Nil(t, f.Other)
}

func TestFeesWrongTypes(t *testing.T) {
	for _, body := range []string{
		`{"tds": "abc"}`,
		`{"tds": true}`,
		`{"tds": {}}`,
		`{"tds": []}`,
		`{"acme_fee": "abc"}`,
		`{"acme_gst": false}`,
		`"fees"`,
		`12`,
		`[]`,
	} {
		var f types.Fees
		err := json.Unmarshal([]byte(body), &f)
		require.Error(t, err, body)
		var ute *json.UnmarshalTypeError
		require.ErrorAs(t, err, &ute, body)
	}
	var pf types.PrefundedFees
	require.Error(t, json.Unmarshal([]byte(`{"client_gst": "1.2.3"}`), &pf))
	require.Error(t, json.Unmarshal([]byte(`{"acme_fee": {"v": 1}}`), &pf))
	require.Error(t, json.Unmarshal([]byte(`"x"`), &pf))
}

// TestFeesRepeatedKeys: a repeated key counts with its last value, brand
// keys included (found by FuzzFees); the first appearance of a brand key
// decides which one is first.
func TestFeesRepeatedKeys(t *testing.T) {
	tests := []struct {
		body            string
		serviceFee, gst string
		other           map[string]string
	}{
		{`{"acme_fee":"1","acme_fee":"2"}`, "2", "0", nil},
		{`{"acme_fee":"1","beta_fee":"2","acme_fee":null}`, "0", "0", map[string]string{"beta_fee": "2"}},
		{`{"acme_fee":"1","beta_fee":"2","acme_fee":"3"}`, "3", "0", map[string]string{"beta_fee": "2"}},
		{`{"acme_fee":"1","service_fee":"2","acme_fee":"3"}`, "2", "0", map[string]string{"acme_fee": "3"}},
		{`{"acme_gst":"1","service_gst":"2","acme_gst":""}`, "0", "2", nil},
		{`{"bonus":"1","bonus":null}`, "0", "0", nil},
		{`{"bonus":"1","bonus":{"x":1}}`, "0", "0", nil},
		{`{"bonus":null,"bonus":"1"}`, "0", "0", map[string]string{"bonus": "1"}},
	}
	for _, tt := range tests {
		f := decodeFees(t, tt.body)
		requireDec(t, tt.serviceFee, f.ServiceFee, tt.body)
		requireDec(t, tt.gst, f.ServiceGST, tt.body)
		requireOther(t, tt.other, f.Other)
	}

	var p types.PrefundedFees
	require.NoError(t, json.Unmarshal([]byte(`{"acme_fee":"1","acme_fee":"2","x":"3","x":""}`), &p))
	requireDec(t, "2", p.ServiceFee)
	require.Nil(t, p.Other)
}
