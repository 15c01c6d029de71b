package types_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
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

func FuzzFees(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.Fees]{prior: fuzzFeesJSON, check: checkFeesObject})
}

func FuzzPrefundedFees(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PrefundedFees]{prior: fuzzPrefundedFeesJSON, check: checkPrefundedFeesObject})
}

var (
	feesKeys = []string{
		"client_fee_fiat", "client_fee_crypto", "service_fee", "pg_fee", "client_gst_fiat",
		"client_gst_crypto", "service_gst", "pg_gst", "tds", "gross_effective_exchange_rate",
	}
	prefundedFeesKeys = []string{"service_fee", "client_fee", "client_gst", "tds"}
)

// brandKind returns the kind ("fee" or "gst", among kinds) of an
// undocumented key `<word>_<kind>`, word one run of [a-z0-9] not starting
// with "client" or "pg"; "" for any other key.
func brandKind(key string, kinds []string) string {
	word, kind, ok := strings.Cut(key, "_")
	// An older edition wrote the plural: <brand>_fees, <brand>_gsts.
	if k, plural := strings.CutSuffix(kind, "s"); plural && slices.Contains(kinds, k) {
		kind = k
	}
	if !ok || !slices.Contains(kinds, kind) || word == "" ||
		strings.HasPrefix(word, "client") || strings.HasPrefix(word, "pg") {
		return ""
	}
	for _, c := range word {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return ""
		}
	}
	return kind
}

// expectFees works out a fees object from its members by the brand-key
// rule of types.Fees: the documented amounts (keys), service_<kind> taken
// from the first brand key of that kind unless service_<kind> itself is
// present, and Other, every other key holding a decimal.
func expectFees(t *testing.T, ms []member, keys, kinds []string) (fields, other map[string]decimal.Decimal) {
	t.Helper()
	fields = make(map[string]decimal.Decimal)
	other = make(map[string]decimal.Decimal)
	var order []string // keys in order of first appearance
	for _, m := range ms {
		if !slices.Contains(order, m.key) {
			order = append(order, m.key)
		}
	}
	brand := make(map[string]string) // kind -> first brand key
	for _, k := range order {
		vs := occurrences(ms, k)
		if k == "tds_fees" && slices.Contains(keys, "tds") {
			// An older edition's spelling of tds: it counts when tds is
			// absent, null or "", and is never another member.
			mustDecimal(t, "fees."+k, vs)
			continue
		}
		if slices.Contains(keys, k) {
			fields[k], _ = mustDecimal(t, "fees."+k, vs)
			continue
		}
		if kind := brandKind(k, kinds); kind != "" {
			mustDecimal(t, "fees."+k, vs)
			if _, seen := brand[kind]; !seen {
				brand[kind] = k
				continue
			}
		}
		if d, set, ok := oracleDecimal(vs[len(vs)-1]); ok && set {
			other[k] = d
		}
	}
	if alias := occurrences(ms, "tds_fees"); len(alias) > 0 && slices.Contains(keys, "tds") {
		own := occurrences(ms, "tds")
		if len(own) == 0 || string(own[len(own)-1]) == "null" || string(own[len(own)-1]) == `""` {
			fields["tds"], _ = mustDecimal(t, "fees.tds_fees", alias)
		}
	}
	for kind, k := range brand {
		d, set, _ := oracleDecimal(occurrences(ms, k)[len(occurrences(ms, k))-1])
		if len(occurrences(ms, "service_"+kind)) == 0 {
			fields["service_"+kind] = d
		} else if set {
			other[k] = d
		}
	}
	return fields, other
}

// checkOther checks a decoded Other map against the expected one.
func checkOther(t *testing.T, want, got map[string]decimal.Decimal) {
	t.Helper()
	if len(got) == 0 && got != nil {
		t.Fatalf("fees.Other is empty but not nil")
	}
	if len(got) != len(want) {
		t.Fatalf("fees.Other = %v, the input says %v", got, want)
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Fatalf("fees.Other lacks %q (want %s): %v", k, w, got)
		}
		requireDecimal(t, "fees.Other["+k+"]", w, g)
	}
}

func checkFees(t *testing.T, ms []member, got types.Fees) {
	t.Helper()
	fields, other := expectFees(t, ms, feesKeys, []string{"fee", "gst"})
	for k, g := range map[string]decimal.Decimal{
		"client_fee_fiat": got.ClientFeeFiat, "client_fee_crypto": got.ClientFeeCrypto,
		"service_fee": got.ServiceFee, "pg_fee": got.PGFee, "client_gst_fiat": got.ClientGSTFiat,
		"client_gst_crypto": got.ClientGSTCrypto, "service_gst": got.ServiceGST, "pg_gst": got.PGGST,
		"tds": got.TDS, "gross_effective_exchange_rate": got.GrossEffectiveExchangeRate,
	} {
		requireDecimal(t, "fees."+k, fields[k], g)
	}
	checkOther(t, other, got.Other)
}

func checkPrefundedFees(t *testing.T, ms []member, got types.PrefundedFees) {
	t.Helper()
	fields, other := expectFees(t, ms, prefundedFeesKeys, []string{"fee"})
	for k, g := range map[string]decimal.Decimal{
		"service_fee": got.ServiceFee, "client_fee": got.ClientFee, "client_gst": got.ClientGST, "tds": got.TDS,
	} {
		requireDecimal(t, "fees."+k, fields[k], g)
	}
	checkOther(t, other, got.Other)
}

func checkFeesObject(t *testing.T, f *types.Fees, ms []member) { checkFees(t, ms, *f) }

func checkPrefundedFeesObject(t *testing.T, f *types.PrefundedFees, ms []member) {
	checkPrefundedFees(t, ms, *f)
}

// TestIsBrandKey pins which undocumented keys the brand rule takes: one
// run of [a-z0-9], then _fee or _gst (or an older edition's plural,
// _fees), the client's and the gateway's own keys excluded.
func TestIsBrandKey(t *testing.T) {
	for key, want := range map[string]string{
		"acme_fee": "fee", "acme_gst": "gst", "a1_fee": "fee", "9_gst": "gst", "acme_fees": "fee", "acme_gsts": "gst",
		"_fee": "", "fee": "", "_fees": "", "acme_feess": "", "client_fees": "", "pg_fees": "", "acme_tax": "", "a_b_fee": "", "Acme_fee": "", "acme_Fee": "",
		"client_fee": "", "clientx_gst": "", "pg_fee": "", "pgx_fee": "", "acme.x_fee": "", "acme_fee ": "",
	} {
		got := ""
		for _, s := range []string{"fee", "gst"} {
			if types.IsBrandKey(key, s) {
				require.Empty(t, got, key)
				got = s
			}
		}
		require.Equal(t, want, got, key)
	}
}

// Brand-like members (<word>_fee, <word>_gst) beyond the first of their
// kind land in Other too, and count against the same cap: thousands of them
// are refused, not read whole into the map.
func TestFeesOtherCappedForBrandKeys(t *testing.T) {
	brands := func(n int, tail string) string {
		var b strings.Builder
		b.WriteString(`{"tds":1`)
		for i := range n {
			b.WriteString(`,"b` + strconv.Itoa(i) + `_fee":"0.5"`)
		}
		b.WriteString(tail + "}")
		return b.String()
	}
	// b0_fee fills ServiceFee; the next MaxOtherMembers fit in Other.
	f := decodeFees(t, brands(types.MaxOtherMembers+1, ""))
	require.Len(t, f.Other, types.MaxOtherMembers)

	var te *json.UnmarshalTypeError
	var over types.Fees
	require.ErrorAs(t, json.Unmarshal([]byte(brands(types.MaxOtherMembers+2, "")), &over), &te)
	require.Equal(t, "b"+strconv.Itoa(types.MaxOtherMembers+1)+"_fee", te.Field)
	require.Nil(t, over.Other)

	// With service_fee present the first brand member moves to Other at the
	// end of the object: one over the cap there is refused as well.
	var moved types.Fees
	require.ErrorAs(t, json.Unmarshal([]byte(brands(types.MaxOtherMembers+1, `,"service_fee":"2"`)), &moved), &te)
	require.Equal(t, "b0_fee", te.Field)
	require.Nil(t, moved.Other)
}

// feesWithOthers is a fees object with n undocumented decimal members
// x0_extra ... x(n-1)_extra.
func feesWithOthers(n int) string {
	var b strings.Builder
	b.WriteString(`{"tds":1`)
	for i := range n {
		b.WriteString(`,"x` + strconv.Itoa(i) + `_extra":"0.5"`)
	}
	b.WriteString("}")
	return b.String()
}

// Other holds at most MaxOtherMembers keys: a hostile answer with more is
// refused, naming the first key over the cap, and never grows the map.
func TestFeesOtherCapped(t *testing.T) {
	f := decodeFees(t, feesWithOthers(types.MaxOtherMembers))
	require.Len(t, f.Other, types.MaxOtherMembers)

	var over types.Fees
	err := json.Unmarshal([]byte(feesWithOthers(types.MaxOtherMembers+1)), &over)
	var te *json.UnmarshalTypeError
	require.ErrorAs(t, err, &te)
	require.Equal(t, "x"+strconv.Itoa(types.MaxOtherMembers)+"_extra", te.Field)
	require.Nil(t, over.Other, "a refused object leaves the value unchanged")

	// A key repeated many times counts once; a later null frees its place.
	var b strings.Builder
	b.WriteString(feesWithOthers(types.MaxOtherMembers)[:len(feesWithOthers(types.MaxOtherMembers))-1])
	for range 100 {
		b.WriteString(`,"x0_extra":"2"`)
	}
	b.WriteString(`,"x1_extra":null,"late_extra":"3"}`)
	f = decodeFees(t, b.String())
	require.Len(t, f.Other, types.MaxOtherMembers)
	require.Equal(t, "2", f.Other["x0_extra"].String())
	require.Equal(t, "3", f.Other["late_extra"].String())
	_, kept := f.Other["x1_extra"]
	require.False(t, kept)

	// The same cap holds for a map of objects (the KYC configuration's
	// additional requirements).
	options := func(n int) []byte {
		var kb strings.Builder
		kb.WriteString("{")
		for i := range n {
			if i > 0 {
				kb.WriteString(",")
			}
			kb.WriteString(`"opt` + strconv.Itoa(i) + `":{"type":"string"}`)
		}
		kb.WriteString("}")
		return []byte(kb.String())
	}
	var info types.AdditionalInfoRequired
	require.NoError(t, json.Unmarshal(options(types.MaxOtherMembers), &info))
	require.Len(t, info.Fields, types.MaxOtherMembers)
	var overInfo types.AdditionalInfoRequired
	require.ErrorAs(t, json.Unmarshal(options(types.MaxOtherMembers+1), &overInfo), &te)
	require.Equal(t, "opt"+strconv.Itoa(types.MaxOtherMembers), te.Field)
}

// TestFeesOlderPluralKeys: an older edition's <brand>_fees and tds_fees
// land in ServiceFee and TDS, in both fee objects.
func TestFeesOlderPluralKeys(t *testing.T) {
	var f types.Fees
	require.NoError(t, json.Unmarshal([]byte(`{"acme_fees":"1.5","tds_fees":2,"acme_gst":"0.27"}`), &f))
	require.Equal(t, "1.5", f.ServiceFee.String())
	require.Equal(t, "2", f.TDS.String())
	require.Equal(t, "0.27", f.ServiceGST.String())
	require.Nil(t, f.Other)
	var p types.PrefundedFees
	require.NoError(t, json.Unmarshal([]byte(`{"acme_fees":"1.5","tds_fees":"2"}`), &p))
	require.Equal(t, "1.5", p.ServiceFee.String())
	require.Equal(t, "2", p.TDS.String())
}
