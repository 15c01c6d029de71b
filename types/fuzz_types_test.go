package types_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// The checks below are the fuzz targets' oracle for the money fields and
// the lists: they read the input again with encoding/json and work out,
// from the documented rules alone, what the decoder must have produced.
// A repeated key counts with its last value alone, as in a Python dict
// (the service's reader): a later null clears the field (zero value, nil
// pointer) and a later object replaces the earlier one whole, never
// merging into it (encoding/json, decoding into an existing struct, would
// keep the earlier object for null and merge a later one into it).

// member is one member of a JSON object.
type member struct {
	key   string
	value json.RawMessage
}

// objectMembers returns the members of the JSON object (or null) raw, in
// document order, repeated keys included.
func objectMembers(t *testing.T, raw []byte) []member {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		t.Fatalf("reading %q: %v", raw, err)
	}
	if tok == nil {
		return nil
	}
	if tok != json.Delim('{') {
		t.Fatalf("%q is not an object", raw)
	}
	var ms []member
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatalf("reading %q: %v", raw, err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("reading %q: %v", raw, err)
		}
		ms = append(ms, member{key: k.(string), value: v})
	}
	return ms
}

// occurrences returns the values of key in ms, in document order.
func occurrences(ms []member, key string) []json.RawMessage {
	var vs []json.RawMessage
	for _, m := range ms {
		if m.key == key {
			vs = append(vs, m.value)
		}
	}
	return vs
}

// lastObject returns the members of the last value of key in ms: nil when
// key is absent or its last value is null, whatever came before.
func lastObject(t *testing.T, ms []member, key string) []member {
	vs := occurrences(ms, key)
	if len(vs) == 0 {
		return nil
	}
	return objectMembers(t, vs[len(vs)-1])
}

// decimalText is the documented grammar of a money value held in a string:
// [+-]digits[.digits][e[+-]digits], a leading or trailing point allowed.
var decimalText = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// oracleDecimal reads a money value: a JSON number or a decimal string of
// at most types.MaxDecimalDigits digits, exact; null and "" give zero with
// set false. ok is false for anything else, which a decoder must refuse in
// a money field.
func oracleDecimal(raw json.RawMessage) (d decimal.Decimal, set, ok bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return decimal.Decimal{}, false, true
	}
	var text string
	switch c := raw[0]; {
	case c == '"':
		if json.Unmarshal(raw, &text) != nil {
			return decimal.Decimal{}, false, false
		}
		if text == "" {
			return decimal.Decimal{}, false, true
		}
	case c == '-' || c >= '0' && c <= '9':
		text = string(raw)
	default:
		return decimal.Decimal{}, false, false
	}
	if !decimalText.MatchString(text) {
		return decimal.Decimal{}, false, false
	}
	digits := 0
	for _, c := range text {
		if unicode.IsDigit(c) {
			digits++
		}
	}
	if digits > types.MaxDecimalDigits {
		return decimal.Decimal{}, false, false
	}
	d, err := decimal.NewFromString(text)
	return d, err == nil, err == nil
}

// requireDecimal fails unless got is want exactly (same value, same
// printed form) and survives a round trip through its string form.
func requireDecimal(t *testing.T, name string, want, got decimal.Decimal) {
	t.Helper()
	if !want.Equal(got) || want.String() != got.String() {
		t.Fatalf("%s: decoded %s, the input says %s", name, got, want)
	}
	back, err := decimal.NewFromString(got.String())
	if err != nil || !back.Equal(got) {
		t.Fatalf("%s: %s does not read back (%v)", name, got, err)
	}
}

// mustDecimal returns the value of a money member that decoded: every
// occurrence must be a decimal, null or "", and the last one counts.
func mustDecimal(t *testing.T, name string, vs []json.RawMessage) (d decimal.Decimal, set bool) {
	t.Helper()
	for _, v := range vs {
		var ok bool
		if d, set, ok = oracleDecimal(v); !ok {
			t.Fatalf("%s: %s is not a decimal, yet the object decoded", name, v)
		}
	}
	return d, set
}

// checkMoney checks the money field key of ms decoded as got.
func checkMoney(t *testing.T, ms []member, key string, got decimal.Decimal) {
	t.Helper()
	want, _ := mustDecimal(t, key, occurrences(ms, key))
	requireDecimal(t, key, want, got)
}

// checkReceiving checks the fiat amount: receiving_amount unless it is
// null or "", else receiveing_amount (the fetch responses' spelling).
func checkReceiving(t *testing.T, ms []member, got decimal.Decimal) {
	t.Helper()
	want, set := mustDecimal(t, "receiving_amount", occurrences(ms, "receiving_amount"))
	misspelt, _ := mustDecimal(t, "receiveing_amount", occurrences(ms, "receiveing_amount"))
	if !set {
		want = misspelt
	}
	requireDecimal(t, "receiving_amount", want, got)
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

func checkPayout(t *testing.T, p *types.Payout, ms []member) {
	checkMoney(t, ms, "rate", p.Rate)
	checkMoney(t, ms, "sending_amount", p.SendingAmount)
	checkReceiving(t, ms, p.ReceivingAmount)
	checkFees(t, lastObject(t, ms, "fees"), p.Fees)
}

func checkRemittancePayout(t *testing.T, p *types.RemittancePayout, ms []member) {
	checkMoney(t, ms, "rate", p.Rate)
	checkMoney(t, ms, "sending_amount", p.SendingAmount)
	checkReceiving(t, ms, p.ReceivingAmount)
	checkFees(t, lastObject(t, ms, "fees"), p.Fees)
}

func checkPrefundedPayout(t *testing.T, p *types.PrefundedPayout, ms []member) {
	checkMoney(t, ms, "rate", p.Rate)
	checkMoney(t, ms, "sending_amount", p.SendingAmount)
	checkReceiving(t, ms, p.ReceivingAmount)
	checkPrefundedFees(t, lastObject(t, ms, "fees"), p.Fees)
}

func checkPayinQuotation(t *testing.T, q *types.PayinQuotation, ms []member) {
	checkMoney(t, ms, "rate", q.Rate)
	checkMoney(t, ms, "sending_amount", q.SendingAmount)
	checkReceiving(t, ms, q.ReceivingAmount)
	checkFees(t, lastObject(t, ms, "fees"), q.Fees)
}

// checkBankAccountPage checks count and that each list item keeps its own
// object in Raw.
func checkBankAccountPage(t *testing.T, p *types.BankAccountPage, ms []member) {
	count := 0
	if vs := occurrences(ms, "count"); len(vs) > 0 {
		if err := json.Unmarshal(vs[len(vs)-1], &count); err != nil {
			t.Fatalf("count %s decoded: %v", vs[len(vs)-1], err)
		}
	}
	if p.Count != count {
		t.Fatalf("Count = %d, the input says %d", p.Count, count)
	}
	var items []json.RawMessage
	if vs := occurrences(ms, "results"); len(vs) > 0 {
		if err := json.Unmarshal(vs[len(vs)-1], &items); err != nil {
			t.Fatalf("results %s decoded: %v", vs[len(vs)-1], err)
		}
	}
	if (items == nil) != (p.Results == nil) || len(items) != len(p.Results) {
		t.Fatalf("Results has %d items (nil %t), the input %d (nil %t)", len(p.Results), p.Results == nil, len(items), items == nil)
	}
	for i, it := range items {
		if string(it) == "null" {
			continue
		}
		if string(p.Results[i].Raw) != string(it) {
			t.Fatalf("Results[%d].Raw = %q, the input has %q", i, p.Results[i].Raw, it)
		}
	}
}

// checkPartyRef checks that ID is nil exactly when id is null, "" or absent.
func checkPartyRef(t *testing.T, r *types.PartyRef, ms []member) {
	vs := occurrences(ms, "id")
	empty := len(vs) == 0 || string(vs[len(vs)-1]) == "null" || string(vs[len(vs)-1]) == `""`
	if empty != (r.ID == nil) {
		t.Fatalf("ID = %v for id %s", r.ID, vs)
	}
}
