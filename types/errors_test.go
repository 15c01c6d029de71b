package types_test

import (
	"encoding/json"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// responseTypes returns a fresh value of every response type.
func responseTypes() map[string]any {
	return map[string]any{
		"Payout":                 new(types.Payout),
		"PrefundedPayout":        new(types.PrefundedPayout),
		"RemittancePayout":       new(types.RemittancePayout),
		"PayinQuotation":         new(types.PayinQuotation),
		"Wallet":                 new(types.Wallet),
		"BankAccount":            new(types.BankAccount),
		"BankAccountListItem":    new(types.BankAccountListItem),
		"BankAccountPage":        new(types.BankAccountPage),
		"KYCConfiguration":       new(types.KYCConfiguration),
		"PayoutStatusSimulation": new(types.PayoutStatusSimulation),
		"KYCStatusSimulation":    new(types.KYCStatusSimulation),
	}
}

func TestNonObjectDataIsATypeError(t *testing.T) {
	for name, v := range responseTypes() {
		for _, body := range []string{`"x"`, `1`, `true`, `[]`, `[{}]`} {
			err := json.Unmarshal([]byte(body), v)
			require.Error(t, err, "%s %s", name, body)
			var ute *json.UnmarshalTypeError
			require.ErrorAs(t, err, &ute, "%s %s", name, body)
			require.Equal(t, reflect.TypeOf(v).Elem(), ute.Type, "the error names the public type")
		}
	}
}

func TestNullDataLeavesValueUnchanged(t *testing.T) {
	for name, v := range responseTypes() {
		require.NoError(t, json.Unmarshal([]byte(`null`), v), name)
	}
	p := types.Payout{Asset: "USDT"}
	require.NoError(t, json.Unmarshal([]byte(`null`), &p))
	require.Equal(t, types.Payout{Asset: "USDT"}, p)
}

func TestWrongTypedFieldsAreErrors(t *testing.T) {
	cases := []struct {
		v     any
		body  string
		field string // expected path in the error, "Struct.field"
	}{
		{new(types.Payout), `{"id": 5}`, "Payout.id"},
		{new(types.Payout), `{"id": "not-a-uuid"}`, "Payout.id"},
		{new(types.Payout), `{"quotation_id": {}}`, "Payout.quotation_id"},
		{new(types.Payout), `{"asset": 1}`, "Payout.asset"},
		{new(types.Payout), `{"status": 1}`, "Payout.status"},
		{new(types.Payout), `{"client_reference_id": 7}`, "Payout.client_reference_id"},
		{new(types.Payout), `{"utr": false}`, "Payout.utr"},
		{new(types.Payout), `{"fees": "none"}`, "Payout.fees"},
		{new(types.Payout), `{"fees": {"pg_gst": "x"}}`, "Payout.fees.pg_gst"},
		{new(types.Payout), `{"fees": {"acme_fee": "x"}}`, "Payout.fees.acme_fee"},
		{new(types.PayinQuotation), `{"fees": {"acme_gst": {}}}`, "PayinQuotation.fees.acme_gst"},
		{new(types.PrefundedPayout), `{"fees": {"acme_fee": true}}`, "PrefundedPayout.fees.acme_fee"},
		{new(types.Payout), `{"receiveing_amount": [1]}`, "Payout.receiveing_amount"},
		{new(types.Payout), `{"updated_at": "soon"}`, "Payout.updated_at"},
		{new(types.PrefundedPayout), `{"customer": {"sender": {"id": 1}}}`, "PrefundedPayout.customer.sender.id"},
		{new(types.PrefundedPayout), `{"customer": {"receiver": "x"}}`, "PrefundedPayout.customer.receiver"},
		{new(types.PrefundedPayout), `{"customer": []}`, "PrefundedPayout.customer"},
		{new(types.PrefundedPayout), `{"fees": {"tds": {}}}`, "PrefundedPayout.fees.tds"},
		{new(types.PrefundedPayout), `{"network": 1}`, "PrefundedPayout.network"},
		{new(types.RemittancePayout), `{"remitter_id": "zzz"}`, "RemittancePayout.remitter_id"},
		{new(types.PayinQuotation), `{"deposit_instructions": "x"}`, "PayinQuotation.deposit_instructions"},
		{new(types.PayinQuotation), `{"deposit_instructions": {"ifsc": 1}}`, "PayinQuotation.deposit_instructions.ifsc"},
		{new(types.PayinQuotation), `{"deep_link": 1}`, "PayinQuotation.deep_link"},
		{new(types.PayinQuotation), `{"order_id": true}`, "PayinQuotation.order_id"},
		{new(types.Wallet), `{"wallet_status": []}`, "Wallet.wallet_status"},
		{new(types.BankAccount), `{"identifiers": {"ifsc": 1}}`, "BankAccount.identifiers.ifsc"},
		{new(types.BankAccountListItem), `{"vpa": 1}`, "BankAccountListItem.vpa"},
		{new(types.BankAccountPage), `{"count": "3"}`, "Page[BankAccountListItem].count"},
		{new(types.BankAccountPage), `{"count": 1.5}`, "Page[BankAccountListItem].count"},
		{new(types.BankAccountPage), `{"next": 1}`, "Page[BankAccountListItem].next"},
		{new(types.BankAccountPage), `{"results": {}}`, "Page[BankAccountListItem].results"},
		{new(types.BankAccountPage), `{"results": [{"id": 1}]}`, "Page[BankAccountListItem].results.id"},
		{new(types.KYCConfiguration), `{"supported_document_types": "AADHAAR"}`, "KYCConfiguration.supported_document_types"},
		{new(types.KYCConfiguration), `{"additional_info_required": {"options": "x"}}`, "KYCConfiguration.additional_info_required.options"},
		{new(types.KYCConfiguration), `{"additional_info_required": {"rules": {"min_required": "2"}}}`, "KYCConfiguration.additional_info_required.rules.min_required"},
		{new(types.KYCConfiguration), `{"additional_info_required": {"income_range": {"required": "yes"}}}`, "KYCConfiguration.additional_info_required.income_range.required"},
		{new(types.KYCConfiguration), `{"additional_info_required": []}`, "KYCConfiguration.additional_info_required"},
		{new(types.PayoutStatusSimulation), `{"payout_id": 1}`, "PayoutStatusSimulation.payout_id"},
		{new(types.KYCStatusSimulation), `{"status": 1}`, "KYCStatusSimulation.status"},
	}
	for _, tc := range cases {
		t.Run(tc.body, func(t *testing.T) {
			err := json.Unmarshal([]byte(tc.body), tc.v)
			require.Error(t, err)
			var ute *json.UnmarshalTypeError
			require.ErrorAs(t, err, &ute)
			// Go 1.23's encoding/json names a nested field decoded by a
			// TextUnmarshaler (uuid.UUID) by its parent's path; Go 1.24
			// and later by its own. Either names the field's object.
			msg := err.Error()
			if !strings.Contains(msg, "Go struct field "+tc.field+" ") {
				parent := tc.field[:strings.LastIndexByte(tc.field, '.')]
				require.True(t, strings.HasPrefix(runtime.Version(), "go1.23") && strings.Contains(parent, ".") &&
					strings.Contains(msg, "Go struct field "+parent+" of type uuid.UUID"),
					"%q does not name %s", msg, tc.field)
			}
		})
	}
}

func TestFailedDecodeLeavesValueUnchanged(t *testing.T) {
	p := types.Payout{Asset: "USDT"}
	require.Error(t, json.Unmarshal([]byte(`{"asset":"BTC","rate":"x"}`), &p))
	require.Equal(t, types.Payout{Asset: "USDT"}, p)
}

func TestDirectUnmarshalJSONOnMalformedInput(t *testing.T) {
	// UnmarshalJSON called directly gets no validation from encoding/json;
	// malformed bytes must give an error, never a panic.
	for _, body := range []string{``, `{`, `{"a"`, `{"a":`, `{"a":1`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `{"a":"1`, `{"a":[1}`, `{"tds":"\u00"}`, `{"\ud800":1,`} {
		require.Error(t, new(types.Fees).UnmarshalJSON([]byte(body)), body)
		require.Error(t, new(types.PrefundedFees).UnmarshalJSON([]byte(body)), body)
		require.Error(t, new(types.AdditionalInfoRequired).UnmarshalJSON([]byte(body)), body)
		for name, v := range responseTypes() {
			require.Error(t, v.(json.Unmarshaler).UnmarshalJSON([]byte(body)), "%s %q", name, body)
		}
	}
}
