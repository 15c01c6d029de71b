package types_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
)

// One fuzz target per type with a decoder. Each is fuzzDecode with the
// type's own checks; the seeds live in testdata/fuzz/<target>/ (realistic
// bodies, truncations, wrong-typed fields, non-JSON, deep nesting, huge
// numbers, invalid UTF-8, lone surrogates, repeated keys). CI runs every
// target for a few seconds (.ci/fuzz); `go test` runs the seeds.

func FuzzPayout(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.Payout]{prior: fetchPayoutJSON, hasRaw: true, check: checkPayout})
}

func FuzzPrefundedPayout(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PrefundedPayout]{prior: prefundedPayoutJSON, hasRaw: true, check: checkPrefundedPayout})
}

func FuzzRemittancePayout(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.RemittancePayout]{prior: createPayoutJSON, hasRaw: true, check: checkRemittancePayout})
}

func FuzzPayinQuotation(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PayinQuotation]{prior: payinQuotationJSON, hasRaw: true, check: checkPayinQuotation})
}

func FuzzWallet(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.Wallet]{prior: fuzzWalletJSON, hasRaw: true})
}

func FuzzBankAccount(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.BankAccount]{prior: fuzzBankAccountJSON, hasRaw: true})
}

func FuzzBankAccountListItem(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.BankAccountListItem]{prior: fuzzBankItemJSON, hasRaw: true})
}

func FuzzBankAccountPage(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.BankAccountPage]{prior: bankPageJSON, hasRaw: true, check: checkBankAccountPage})
}

func FuzzKYCConfiguration(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.KYCConfiguration]{prior: kycConfigurationJSON, hasRaw: true})
}

func FuzzPayoutStatusSimulation(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PayoutStatusSimulation]{prior: fuzzPayoutSimulationJSON, hasRaw: true})
}

func FuzzKYCStatusSimulation(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.KYCStatusSimulation]{prior: fuzzKYCSimulationJSON, hasRaw: true})
}

func FuzzFees(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.Fees]{prior: fuzzFeesJSON, check: checkFeesObject})
}

func FuzzPrefundedFees(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PrefundedFees]{prior: fuzzPrefundedFeesJSON, check: checkPrefundedFeesObject})
}

func FuzzAdditionalInfoRequired(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.AdditionalInfoRequired]{prior: fuzzAdditionalInfoJSON})
}

func FuzzPartyRef(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PartyRef]{prior: `{"id":"2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b"}`, check: checkPartyRef})
}

func FuzzBankIdentifiers(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.BankIdentifiers]{prior: `{"account_number":"50100123456789","ifsc":"HDFC0001234"}`})
}

// Valid bodies of the types without a JSON constant elsewhere in the tests.
const (
	fuzzWalletJSON           = `{"id":"5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b","customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","wallet_address":"0x52908400098527886E0F7030069857D2E4169EE7","wallet_status":"ACTIVE","failure_reason":null}`
	fuzzBankAccountJSON      = `{"id":"1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b","customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","country":"IND","bank_account_type":"ACCOUNT_DETAILS","identifiers":{"account_number":"50100123456789","ifsc":"HDFC0001234"},"account_number":"50100123456789","ifsc":"HDFC0001234","bank_account_status":"VERIFIED","beneficiary_name":"ASHA RAO","bank_name":"HDFC BANK","failure_reason":null}`
	fuzzBankItemJSON         = `{"id":"2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b","customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","account_number":null,"ifsc":null,"account_name":"ASHA RAO","vpa":"asha@okhdfc","bank_account_type":"vpa","bank_account_status":"FAILED","failure_reason":"Name mismatch"}`
	fuzzPayoutSimulationJSON = `{"payout_id":"6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b","payout_status":"SUCCESS"}`
	fuzzKYCSimulationJSON    = `{"id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","status":"VERIFIED"}`
	fuzzFeesJSON             = `{"client_fee_fiat":"10.50","client_fee_crypto":"0.12","acme_fee":"5.00","pg_fee":"0","client_gst_fiat":"1.89","client_gst_crypto":"0.0216","acme_gst":"0.90","pg_gst":"0","tds":"86.88","gross_effective_exchange_rate":"85.123456789","partner_bonus":"1.5"}`
	fuzzPrefundedFeesJSON    = `{"service_fee":"12.50","client_fee":"3.00","client_gst":"0.54","tds":"217.81","acme_fee":"1"}`
	fuzzAdditionalInfoJSON   = `{"options":["income_range","profession"],"rules":{"type":"allOf","min_required":2},"income_range":{"type":"string","required":true},"profession":{"type":"string","required":false},"note":"x"}`
)

// decodeSpec describes one type T to fuzzDecode.
type decodeSpec[T any] struct {
	// prior is a valid body: a value decoded from it must be replaced
	// whole by a successful decode and left alone by a failed one.
	prior string
	// hasRaw is set when T has a Raw field (see rawOf).
	hasRaw bool
	// check, when set, checks a value successfully decoded from a JSON
	// object against that object's members (in document order).
	check func(t *testing.T, v *T, members []member)
}

// fuzzDecode fuzzes T's decoder. For any input:
//   - json.Unmarshal of invalid JSON fails, and so does a direct
//     UnmarshalJSON call, which gets no validation from encoding/json and
//     must never panic;
//   - on valid JSON, a direct call on the trimmed input gives the same
//     result as json.Unmarshal, and a failure is a *json.UnmarshalTypeError
//     (naming the field when the input is an object);
//   - decoding is deterministic (the same bytes twice give reflect.DeepEqual
//     values and the same error), does not modify the input, and keeps no
//     reference to it;
//   - only an object or null decodes; null leaves the value unchanged, and so
//     does a failure, while a success replaces it whole;
//   - after decoding an object, Raw is the trimmed input and decoding Raw
//     again gives the same value (so the money fields survive a round trip
//     through Raw), and the type's check holds.
func fuzzDecode[T any, P interface {
	*T
	json.Unmarshaler
}](f *testing.F, s decodeSpec[T]) {
	decodePrior := func(tb testing.TB) T {
		var v T
		if err := json.Unmarshal([]byte(s.prior), P(&v)); err != nil {
			tb.Fatalf("prior %s does not decode: %v", s.prior, err)
		}
		return v
	}
	prior := decodePrior(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		input := bytes.Clone(data)
		valid := json.Valid(data)
		trimmed := trimJSONSpace(data)

		var v T
		err := json.Unmarshal(data, P(&v))

		// Determinism, and no reference kept to the input: decode a copy,
		// then overwrite the copy.
		buf := bytes.Clone(data)
		var again T
		errAgain := json.Unmarshal(buf, P(&again))
		for i := range buf {
			buf[i] = '#'
		}
		if (err == nil) != (errAgain == nil) || (err != nil && err.Error() != errAgain.Error()) {
			t.Fatalf("two decodes of %q disagree: %v / %v", data, err, errAgain)
		}
		if !reflect.DeepEqual(v, again) {
			t.Fatalf("two decodes of %q differ (or the value aliases the input):\n%#v\n%#v", data, v, again)
		}

		// A direct call gets the bytes as they are.
		var direct T
		if derr := P(&direct).UnmarshalJSON(data); derr == nil && !valid {
			t.Fatalf("UnmarshalJSON accepted invalid JSON %q", data)
		}
		if valid {
			var dt T
			derr := P(&dt).UnmarshalJSON(trimmed)
			if (derr == nil) != (err == nil) || !reflect.DeepEqual(dt, v) {
				t.Fatalf("UnmarshalJSON(%q) = %v, json.Unmarshal = %v", trimmed, derr, err)
			}
		}

		// Replace whole on success; leave alone on null and on failure.
		p := decodePrior(t)
		perr := json.Unmarshal(data, P(&p))
		if (perr == nil) != (err == nil) {
			t.Fatalf("decoding %q over a value: %v, into a zero value: %v", data, perr, err)
		}
		if err != nil || string(trimmed) == "null" {
			if !reflect.DeepEqual(p, prior) {
				t.Fatalf("decoding %q (error %v) changed the value:\n%#v", data, err, p)
			}
		} else if !reflect.DeepEqual(p, v) {
			t.Fatalf("decoding %q over a value did not replace it whole:\n%#v\n%#v", data, p, v)
		}

		if !bytes.Equal(data, input) {
			t.Fatalf("the input was modified: %q -> %q", input, data)
		}

		if !valid {
			if err == nil {
				t.Fatalf("json.Unmarshal accepted invalid JSON %q", data)
			}
			return
		}
		if err != nil {
			_ = err.Error()
			var ute *json.UnmarshalTypeError
			if !errors.As(err, &ute) {
				t.Fatalf("valid JSON %q gives %T %v, not a *json.UnmarshalTypeError", data, err, err)
			}
			if trimmed[0] == '{' && ute.Field == "" {
				t.Fatalf("error for object %q names no field: %v", data, err)
			}
			return
		}
		switch trimmed[0] {
		case 'n':
			if !reflect.ValueOf(v).IsZero() {
				t.Fatalf("null decoded as %#v", v)
			}
			return
		case '{':
		default:
			t.Fatalf("decoded a non-object %q", data)
		}
		if s.hasRaw {
			raw := rawOf(&v)
			if string(raw) != string(trimmed) {
				t.Fatalf("Raw %q differs from input %q", raw, trimmed)
			}
			var re T
			if err := json.Unmarshal(raw, P(&re)); err != nil || !reflect.DeepEqual(re, v) {
				t.Fatalf("decoding Raw %q again: %v\n%#v\n%#v", raw, err, re, v)
			}
		}
		if s.check != nil {
			s.check(t, &v, objectMembers(t, trimmed))
		}
	})
}

func trimJSONSpace(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
