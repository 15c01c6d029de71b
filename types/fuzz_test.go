package types_test

import (
	"encoding/json"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
)

// FuzzDecodeResponses decodes arbitrary bytes into every response type, both
// through json.Unmarshal and by calling UnmarshalJSON directly (which gets no
// validation from encoding/json). Nothing may panic; a successful decode of
// an object keeps that object in Raw.
func FuzzDecodeResponses(f *testing.F) {
	for _, seed := range []string{
		createPayoutJSON, fetchPayoutJSON, prefundedPayoutJSON, payinQuotationJSON, bankPageJSON, kycConfigurationJSON,
		`{}`, `null`, `[]`, `"x"`, `{"fees":{"acme_fee":"1","acme_gst":2,"x_fee":"3","other":{"a":[1]}}}`,
		`{"rate":"1e-30","receiveing_amount":123456789012345678901234567890.123456789}`,
		`{"created_at":"2025-02-11T01:30:08","customer":{"sender":{"id":null}}}`,
		`{"additional_info_required":{"options":["a"],"rules":{"type":"allOf","min_required":1},"x":{"required":true}}}`,
		`{"rate":1e99999}`, `{"fees":{"t\u0064s":"1"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := json.Valid(data)
		for name, v := range responseTypes() {
			err := json.Unmarshal(data, v)
			if err == nil {
				if !valid {
					t.Fatalf("%s: json.Unmarshal accepted invalid JSON %q", name, data)
				}
				trimmed := trimJSONSpace(data)
				if len(trimmed) > 0 && trimmed[0] == '{' && string(rawOf(v)) != string(trimmed) {
					t.Fatalf("%s: Raw %q differs from input %q", name, rawOf(v), trimmed)
				}
			}
		}
		for _, v := range responseTypes() {
			_ = v.(json.Unmarshaler).UnmarshalJSON(data)
		}
		_ = new(types.Fees).UnmarshalJSON(data)
		_ = new(types.PrefundedFees).UnmarshalJSON(data)
		_ = new(types.AdditionalInfoRequired).UnmarshalJSON(data)
		_ = new(types.PartyRef).UnmarshalJSON(data)
		_ = json.Unmarshal(data, new(types.Fees))
		_ = json.Unmarshal(data, new(types.PrefundedFees))
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
