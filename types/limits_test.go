package types_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// decimalPaths lists every path at which a response type decodes a money,
// rate or fee value: decode decodes a body into the type, and paths are the
// dotted field paths (a fees member under "fees.").
var decimalPaths = []struct {
	typ    string
	decode func([]byte) error
	paths  []string
}{
	{"Payout", func(b []byte) error { var v types.Payout; return json.Unmarshal(b, &v) },
		append([]string{"rate", "sending_amount", "receiving_amount", "receiveing_amount"}, feesPaths...)},
	{"PrefundedPayout", func(b []byte) error { var v types.PrefundedPayout; return json.Unmarshal(b, &v) },
		[]string{"rate", "sending_amount", "receiving_amount", "receiveing_amount",
			"fees.service_fee", "fees.client_fee", "fees.client_gst", "fees.tds", "fees.acme_fee"}},
	{"RemittancePayout", func(b []byte) error { var v types.RemittancePayout; return json.Unmarshal(b, &v) },
		append([]string{"rate", "sending_amount", "receiving_amount", "receiveing_amount"}, feesPaths...)},
	{"PayinQuotation", func(b []byte) error { var v types.PayinQuotation; return json.Unmarshal(b, &v) },
		append([]string{"rate", "sending_amount", "receiving_amount", "receiveing_amount"}, feesPaths...)},
	{"Fees", func(b []byte) error { var v types.Fees; return json.Unmarshal(b, &v) }, nil},
}

var feesPaths = []string{
	"fees.client_fee_fiat", "fees.client_fee_crypto", "fees.service_fee", "fees.pg_fee",
	"fees.client_gst_fiat", "fees.client_gst_crypto", "fees.service_gst", "fees.pg_gst",
	"fees.tds", "fees.gross_effective_exchange_rate", "fees.acme_fee", "fees.acme_gst",
}

// bodyWith returns an object with value at path (one level of "fees.").
func bodyWith(path, value string) []byte {
	if fee, ok := strings.CutPrefix(path, "fees."); ok {
		return []byte(`{"fees":{"` + fee + `":` + value + `}}`)
	}
	return []byte(`{"` + path + `":` + value + `}`)
}

// TestDecimalDigitsCapped pins the cap on the digits of every decimal the
// package decodes: at most MaxDecimalDigits digits decode, one more is a
// type error naming the field, as a number and as a string, and a value of
// 1.5 million digits (seconds of work for the decimal conversion) is
// refused without converting it.
func TestDecimalDigitsCapped(t *testing.T) {
	n := types.MaxDecimalDigits
	atCap := []string{
		strings.Repeat("9", n),
		"-" + strings.Repeat("1", n-1) + ".5",
		"1." + strings.Repeat("0", n-3) + "1e+5",
	}
	overCap := []string{
		strings.Repeat("9", n+1),
		"-" + strings.Repeat("1", n) + ".5",
		"1." + strings.Repeat("0", n-2) + "1e5",    // the exponent's digits count
		"0." + strings.Repeat("0", n+10) + "1",     // leading zeros count
		strings.Repeat("7", 1_500_000),             // seconds of big.Int work before the cap
		"1" + strings.Repeat("0", 1_500_000) + ".", // trailing point
	}
	for _, tt := range decimalPaths {
		paths := tt.paths
		if tt.typ == "Fees" {
			paths = nil
			for _, p := range feesPaths {
				paths = append(paths, strings.TrimPrefix(p, "fees."))
			}
		}
		for i, path := range paths {
			t.Run(tt.typ+"."+path, func(t *testing.T) {
				for _, v := range atCap {
					for _, lit := range []string{v, `"` + v + `"`} {
						if lit[0] != '"' && (strings.HasSuffix(v, ".") || strings.HasPrefix(v, ".")) {
							continue
						}
						require.NoError(t, tt.decode(bodyWith(path, lit)), "%d digits", n)
					}
				}
				for _, v := range overCap {
					if len(v) > 2*n && i > 0 && i != len(paths)-1 {
						// The huge values go through the same check as
						// the others: try them on a first and a last path.
						continue
					}
					for _, lit := range []string{v, `"` + v + `"`} {
						if lit[0] != '"' && strings.HasSuffix(v, ".") {
							continue // not a JSON number
						}
						// The message comes from the check made before any
						// conversion: the quadratic one never ran.
						err := tt.decode(bodyWith(path, lit))
						var ute *json.UnmarshalTypeError
						require.ErrorAs(t, err, &ute, "%.40s... (%d bytes)", lit, len(lit))
						require.Contains(t, err.Error(), "decimal of more than 1000 digits")
						require.Equal(t, path, ute.Field)
					}
				}
			})
		}
	}
}

// TestDecimalDigitsCappedInOther: an unknown fee key whose value is too
// long is not a decimal, so it is skipped like any non-decimal value, and
// the decode stays cheap.
func TestDecimalDigitsCappedInOther(t *testing.T) {
	var f types.Fees
	body := `{"partner_bonus":"` + strings.Repeat("9", 1_500_000) + `","other_x":"1.5"}`
	require.NoError(t, json.Unmarshal([]byte(body), &f))
	require.Len(t, f.Other, 1)
	require.Equal(t, "1.5", f.Other["other_x"].String())
}

// TestNestingDepthCapped: a member that nests the object deeper than the
// scanner's cap is a type error naming the field, for known and unknown
// keys alike.
func TestNestingDepthCapped(t *testing.T) {
	// The object is the first level.
	deep := strings.Repeat("[", 64) + strings.Repeat("]", 64)
	ok := strings.Repeat("[", 63) + strings.Repeat("]", 63)
	for _, key := range []string{"unknown_key", "fees", "customer"} {
		var p types.PrefundedPayout
		err := json.Unmarshal([]byte(`{"id":null,"`+key+`":`+deep+`}`), &p)
		var ute *json.UnmarshalTypeError
		require.ErrorAs(t, err, &ute, key)
		require.Equal(t, key, ute.Field)
		require.Contains(t, err.Error(), "nested deeper than 64 levels")
	}
	var p types.Payout
	require.NoError(t, json.Unmarshal([]byte(`{"unknown_key":`+ok+`}`), &p))
	// 9,000 levels (encoding/json's own cap is 10,000): refused too.
	huge := strings.Repeat(`{"a":`, 9000) + "1" + strings.Repeat("}", 9000)
	err := json.Unmarshal([]byte(`{"x":`+huge+`}`), &p)
	require.ErrorContains(t, err, "nested deeper than 64 levels")
}
