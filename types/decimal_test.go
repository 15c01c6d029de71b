package types_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// exactValues are decoded both as JSON numbers and as decimal strings; each
// must come back exactly, digit for digit.
var exactValues = []struct{ json, want string }{
	{"0.1", "0.1"},
	{"1e-30", "0.000000000000000000000000000001"},
	{"123456789012345678901234567890.123456789", "123456789012345678901234567890.123456789"},
	{"-42.000000000000000001", "-42.000000000000000001"},
	{"1.5E+3", "1500"},
	{"9007199254740993", "9007199254740993"}, // 2^53+1: not representable in float64
}

func TestDecimalsExactFromNumberAndString(t *testing.T) {
	for _, v := range exactValues {
		for _, lit := range []string{v.json, `"` + v.json + `"`} {
			t.Run(lit, func(t *testing.T) {
				body := fmt.Sprintf(`{"rate": %[1]s, "sending_amount": %[1]s, "receiveing_amount": %[1]s,
				  "fees": {"client_fee_fiat": %[1]s, "client_fee_crypto": %[1]s, "service_fee": %[1]s, "pg_fee": %[1]s,
				  "client_gst_fiat": %[1]s, "client_gst_crypto": %[1]s, "service_gst": %[1]s, "pg_gst": %[1]s,
				  "tds": %[1]s, "gross_effective_exchange_rate": %[1]s, "extra_fee_x": %[1]s}}`, lit)
				var p types.Payout
				require.NoError(t, json.Unmarshal([]byte(body), &p))
				for name, d := range map[string]interface{ String() string }{
					"rate": p.Rate, "sending_amount": p.SendingAmount, "receiving_amount": p.ReceivingAmount,
					"client_fee_fiat": p.Fees.ClientFeeFiat, "client_fee_crypto": p.Fees.ClientFeeCrypto,
					"service_fee": p.Fees.ServiceFee, "pg_fee": p.Fees.PGFee, "client_gst_fiat": p.Fees.ClientGSTFiat,
					"client_gst_crypto": p.Fees.ClientGSTCrypto, "service_gst": p.Fees.ServiceGST, "pg_gst": p.Fees.PGGST,
					"tds": p.Fees.TDS, "gross_effective_exchange_rate": p.Fees.GrossEffectiveExchangeRate,
					"other": p.Fees.Other["extra_fee_x"],
				} {
					require.Equal(t, v.want, d.String(), name)
				}

				var pf types.PrefundedFees
				require.NoError(t, json.Unmarshal([]byte(`{"service_fee":`+lit+`,"client_fee":`+lit+`,"client_gst":`+lit+`,"tds":`+lit+`}`), &pf))
				for _, d := range []interface{ String() string }{pf.ServiceFee, pf.ClientFee, pf.ClientGST, pf.TDS} {
					require.Equal(t, v.want, d.String())
				}

				var q types.PayinQuotation
				require.NoError(t, json.Unmarshal([]byte(`{"sending_amount":`+lit+`,"rate":`+lit+`,"receiving_amount":`+lit+`}`), &q))
				require.Equal(t, v.want, q.SendingAmount.String())
				require.Equal(t, v.want, q.Rate.String())
				require.Equal(t, v.want, q.ReceivingAmount.String())
			})
		}
	}
}

func TestDecimalsNullAndEmptyLeaveZero(t *testing.T) {
	var p types.Payout
	require.NoError(t, json.Unmarshal([]byte(`{"rate": null, "sending_amount": "", "receiving_amount": null}`), &p))
	require.True(t, p.Rate.IsZero())
	require.True(t, p.SendingAmount.IsZero())
	require.True(t, p.ReceivingAmount.IsZero())
}

func TestDecimalsRejectNonDecimals(t *testing.T) {
	for _, lit := range []string{
		`"abc"`, `true`, `false`, `{}`, `{"v": 1}`, `[]`, `[1]`,
		`" 1"`, `"1 "`, `"1,5"`, `"0x10"`, `"NaN"`, `"Infinity"`, `"1e"`, `"."`, `"-"`, `"1.2.3"`,
		`"1e99999999"`, `1e99999`, // exponent beyond decimal.MaxDecodeExponent
	} {
		t.Run(lit, func(t *testing.T) {
			var p types.Payout
			err := json.Unmarshal([]byte(`{"rate": `+lit+`}`), &p)
			require.Error(t, err)
			var ute *json.UnmarshalTypeError
			require.ErrorAs(t, err, &ute)
			require.Equal(t, "rate", ute.Field)
			require.Equal(t, "Payout", ute.Struct)
			require.Contains(t, err.Error(), "Payout.rate")
		})
	}
}

func TestDecimalsLenientStringForms(t *testing.T) {
	for lit, want := range map[string]string{`"+1.5"`: "1.5", `".5"`: "0.5", `"5."`: "5", `"1e3"`: "1000", `"\u0031.25"`: "1.25"} {
		var p types.Payout
		require.NoError(t, json.Unmarshal([]byte(`{"rate": `+lit+`}`), &p), lit)
		require.Equal(t, want, p.Rate.String(), lit)
	}
}
