package types_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
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

func TestTimestampForms(t *testing.T) {
	cases := []struct{ in, want string }{
		{"2025-03-08T07:31:24.770179Z", "2025-03-08T07:31:24.770179Z"}, // public notes
		{"2025-02-11T01:30:08.000Z", "2025-02-11T01:30:08Z"},           // public notes
		{"2025-02-11T01:30:08Z", "2025-02-11T01:30:08Z"},
		{"2025-02-11T01:30:08.1Z", "2025-02-11T01:30:08.1Z"},
		{"2025-02-11T01:30:08.123456789Z", "2025-02-11T01:30:08.123456789Z"},
		{"2025-02-11T07:00:08.5+05:30", "2025-02-11T01:30:08.5Z"},
		{"2025-02-10T20:30:08-05:00", "2025-02-11T01:30:08Z"},
		{"2025-02-11T01:30:08", "2025-02-11T01:30:08Z"},               // no zone: UTC
		{"2025-02-11T01:30:08.770179", "2025-02-11T01:30:08.770179Z"}, // no zone: UTC
		{"2025-02-11t01:30:08z", "2025-02-11T01:30:08Z"},              // RFC 3339 allows lower case
		{"2025-02-11 01:30:08+00:00", "2025-02-11T01:30:08Z"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			var p types.Payout
			require.NoError(t, json.Unmarshal([]byte(`{"created_at":"`+tc.in+`","updated_at":"`+tc.in+`"}`), &p))
			requireTime(t, tc.want, p.CreatedAt)
			requireTime(t, tc.want, p.UpdatedAt)
		})
	}

	var p types.Payout
	require.NoError(t, json.Unmarshal([]byte(`{"created_at":"2025-02-11T01:30:08"}`), &p))
	require.Equal(t, time.UTC, p.CreatedAt.Location(), "a timestamp without zone is UTC")
}

func TestTimestampNullAbsentEmpty(t *testing.T) {
	for _, body := range []string{`{}`, `{"created_at":null}`, `{"created_at":""}`} {
		var q types.PayinQuotation
		require.NoError(t, json.Unmarshal([]byte(body), &q), body)
		require.True(t, q.CreatedAt.IsZero(), body)
		require.True(t, q.ExpiryTime.IsZero(), body)
	}
}

func TestTimestampGarbageNamesTheField(t *testing.T) {
	for _, lit := range []string{`"yesterday"`, `"2025-02-11"`, `"2025-02-30T01:30:08Z"`, `"2025-02-11T25:30:08Z"`, `"2025-02-11T01:30:08+0530"`, `1741419084`, `true`, `{}`, `[]`} {
		t.Run(lit, func(t *testing.T) {
			var q types.PayinQuotation
			err := json.Unmarshal([]byte(`{"id":"0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d","expiry_time":`+lit+`}`), &q)
			require.Error(t, err)
			require.Contains(t, err.Error(), "PayinQuotation.expiry_time")
			var ute *json.UnmarshalTypeError
			require.ErrorAs(t, err, &ute)
			require.Equal(t, "expiry_time", ute.Field)
			require.Equal(t, "time.Time", ute.Type.String())
		})
	}
}

// Fixed ids used by the examples.
var (
	idPayout    = uuid.MustParse("6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b")
	idQuotation = uuid.MustParse("0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d")
	idCustomer  = uuid.MustParse("9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d")
	idBank      = uuid.MustParse("1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b")
	idReceiver  = uuid.MustParse("2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b")
	idRemitter  = uuid.MustParse("3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f")
	idOrder     = uuid.MustParse("4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a")
	idWallet    = uuid.MustParse("5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b")
)

// requireDec asserts got equals the decimal written as want, exactly: the
// values are equal and got prints as want (so nothing was rounded).
func requireDec(t *testing.T, want string, got decimal.Decimal, msgAndArgs ...any) {
	t.Helper()
	w := decimal.RequireFromString(want)
	require.Truef(t, w.Equal(got), "want %s, got %s %v", want, got.String(), msgAndArgs)
	require.Equal(t, w.String(), got.String(), msgAndArgs...)
}

// requireTime asserts got is the instant written as want (RFC 3339).
func requireTime(t *testing.T, want string, got time.Time, msgAndArgs ...any) {
	t.Helper()
	w, err := time.Parse(time.RFC3339Nano, want)
	require.NoError(t, err)
	require.Truef(t, w.Equal(got), "want %s, got %s %v", w, got, msgAndArgs)
}

func strPtr(s string) *string { return &s }

// compact returns s, a JSON document, without insignificant white space.
func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, json.Compact(&b, []byte(s)))
	return b.String()
}

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

// A list is decoded into one allocation of its size, and a hostile array
// of many items that are not what the slice holds fails on its first item
// without making room for all of them.
func TestDecodeListPresize(t *testing.T) {
	var p types.Page[types.Payout]
	require.NoError(t, json.Unmarshal([]byte(`{"results":[{"id":"0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d"},{},{}]}`), &p))
	require.Len(t, p.Results, 3)
	require.Equal(t, 3, cap(p.Results), "no spare room")

	hostile := []byte(`{"results":[` + strings.Repeat("0,", 1_000_000) + `0]}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := json.Unmarshal(hostile, &p)
	runtime.ReadMemStats(&after)
	require.Error(t, err)
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4<<20), "room made for a bounded number of items only")
}
