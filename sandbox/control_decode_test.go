package sandbox_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestControlRefusals(t *testing.T) {
	e := newCtlEnv(t)
	oid := e.org.ID.String()
	cid := e.cust.ID.String()
	for _, tc := range []struct {
		method, path, body string
		status             int
		field, says        string
	}{
		{"POST", "/_sandbox/faults", `{}`, 400, "kind", "kind is required"},
		{"POST", "/_sandbox/faults", `{"Kind":"rate_limit"}`, 400, "Kind", `names are case-sensitive: "kind"`},
		{"POST", "/_sandbox/faults", `{"kind":"teapot"}`, 400, "kind", "want one of [rate_limit"},
		{"POST", "/_sandbox/faults", `{"kind":"delay"}`, 400, "delay_seconds", "positive delay_seconds"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable","delay_seconds":1}`, 400, "delay_seconds", "kind unavailable takes no delay_seconds"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable","retry_after_seconds":1}`, 400, "retry_after_seconds", "only a rate_limit fault"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable","count":-1}`, 400, "count", "negative"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable","count":1.5}`, 400, "count", "cannot read a JSON number"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable","fraction":2}`, 400, "fraction", "outside 0..1"},
		{"POST", "/_sandbox/faults", `{"kind":"delay","delay_seconds":1e300}`, 400, "delay_seconds", "within"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable","method":7}`, 400, "method", "cannot read"},
		{"POST", "/_sandbox/faults", `[]`, 400, "", "one JSON object"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable"} {}`, 400, "", "one JSON object"},
		{"POST", "/_sandbox/delivery-faults", `{"kind":"drop","path":"/x"}`, 400, "path", "unknown field"},
		{"POST", "/_sandbox/delivery-faults", `{"kind":"delay"}`, 400, "delay_seconds", "positive"},
		{"POST", "/_sandbox/delivery-faults", `{"kind":"explode"}`, 400, "kind", "bad_signature"},
		{"PUT", "/_sandbox/clock", `{"time":"yesterday"}`, 400, "time", "RFC 3339"},
		{"PUT", "/_sandbox/clock", `{}`, 400, "time", "required"},
		{"POST", "/_sandbox/clock/advance", `{"seconds":"60"}`, 400, "seconds", "cannot read a JSON string"},
		{"POST", "/_sandbox/clock/advance", `{}`, 400, "seconds", "required"},
		{"POST", "/_sandbox/customers", `{"name":"x"}`, 400, "organization_id", "no organization"},
		{"POST", "/_sandbox/customers", fmt.Sprintf(`{"organization_id":%q,"kyc_status":"MAYBE"}`, oid), 400, "kyc_status", "unknown KYC status"},
		{"POST", "/_sandbox/customers", fmt.Sprintf(`{"organization_id":%q,"onramp_disabled":"yes"}`, oid), 400, "onramp_disabled", "cannot read"},
		{"POST", "/_sandbox/organizations", `{"api_key":"` + e.org.APIKey + `"}`, 400, "api_key", "already in use"},
		{"POST", "/_sandbox/organizations", `{"balances":{"USDT":"-1"}}`, 400, "balances", "negative"},
		{"POST", "/_sandbox/organizations", `{"webhook_url":"ftp://x"}`, 400, "webhook_url", "valid URL"},
		{"POST", "/_sandbox/bank-accounts", fmt.Sprintf(`{"customer_id":%q,"type":"cheque"}`, cid), 400, "type", "neither"},
		{"POST", "/_sandbox/wallets", fmt.Sprintf(`{"customer_id":%q}`, cid), 400, "wallet_address", "empty"},
		{"POST", "/_sandbox/wallets", fmt.Sprintf(`{"customer_id":%q,"wallet_address":"T","wallet_status":"GONE"}`, cid), 400, "wallet_status", "unknown status"},
		{"POST", "/_sandbox/quotations", fmt.Sprintf(`{"customer_id":%q,"sending_amount":"0"}`, cid), 400, "sending_amount", "not positive"},
		{"POST", "/_sandbox/quotations", fmt.Sprintf(`{"customer_id":%q,"sending_amount":"1","expires_at":"soon"}`, cid), 400, "expires_at", "soon"},
		{"POST", "/_sandbox/quotations", fmt.Sprintf(`{"customer_id":%q,"sending_amount":"1","fees":{"Service_Fee":"1"}}`, cid), 400, "fees.Service_Fee", `fees: unknown field "Service_Fee" (names are case-sensitive: "service_fee")`},
		{"POST", "/_sandbox/remitters", `{}`, 400, "organization_id", "no organization"},
		{"PUT", "/_sandbox/organizations/" + oid + "/balances/USDT", `{"amount":"-2"}`, 400, "amount", "negative"},
		{"PUT", "/_sandbox/organizations/" + oid + "/balances/USDT", `{"amount":"lots"}`, 400, "amount", "lots"},
		{"PUT", "/_sandbox/organizations/" + oid + "/balances/USDT", `{}`, 400, "amount", "required"},
		{"PUT", "/_sandbox/organizations/" + oid + "/webhook-url", `{"webhook_url":"not a url"}`, 400, "webhook_url", "valid URL"},
		{"PUT", "/_sandbox/customers/" + cid + "/kyc-status", `{"kyc_status":"verified"}`, 400, "kyc_status", "want one of"},
		{"PUT", "/_sandbox/customers/" + cid + "/flags", `{"aml":true}`, 400, "aml", "unknown field"},
		{"POST", "/_sandbox/deliveries/wait", `{"timeout_seconds":0}`, 400, "timeout_seconds", "at most 50"},
		{"POST", "/_sandbox/deliveries/wait", `{"timeout_seconds":51}`, 400, "timeout_seconds", "at most 50"},
		{"POST", "/_sandbox/deliveries/wait", `{"timeout_seconds":-1}`, 400, "timeout_seconds", "want more than 0"},
		{"POST", "/_sandbox/reset", `{"seed_demo":"yes"}`, 400, "seed_demo", "cannot read"},
		{"POST", "/_sandbox/fixtures", `{"organizations":[{"Name":"x"}]}`, 400, "organizations[0].Name", `organizations[0]: unknown field "Name" (names are case-sensitive: "name")`},
		{"POST", "/_sandbox/fixtures", `{"organizations":[{"customers":[{"kyc_status":"NOPE"}]}]}`, 400, "organizations[0].customers[0]", "unknown KYC status"},
		{"POST", "/_sandbox/fixtures", `{"organizations":`, 400, "", "document ends early"},
		{"GET", "/_sandbox/organizations/" + uuid.NewString(), "", 404, "", "no organization"},
		{"GET", "/_sandbox/organizations/not-a-uuid", "", 400, "", "not a uuid"},
		{"GET", "/_sandbox/customers/" + uuid.NewString(), "", 404, "", "no customer"},
		{"PUT", "/_sandbox/customers/" + uuid.NewString() + "/flags", `{}`, 404, "", "no customer"},
		{"GET", "/_sandbox/organizations/" + oid + "/payouts/by-reference", "", 400, "client_reference_id", "once"},
		{"GET", "/_sandbox/nothing-here", "", 404, "", "GET /_sandbox lists them"},
		{"PATCH", "/_sandbox/faults", "", 405, "", "allowed: DELETE, POST"},
	} {
		t.Run(tc.method+" "+tc.path+" "+tc.body, func(t *testing.T) {
			a := e.call(tc.method, tc.path, tc.body)
			require.Equal(t, tc.status, a.status, "%s", a)
			m := a.json(t)
			assert.Contains(t, m["error"], tc.says)
			if tc.field == "" {
				assert.NotContains(t, m, "field")
			} else {
				assert.Equal(t, tc.field, m["field"])
			}
		})
	}
	// Nothing refused took effect.
	assert.Empty(t, e.sb.Payouts(e.org.ID))
	assert.Equal(t, "1000", e.sb.Balance(e.org.ID, "USDT").String())

	big := `{"kind":"unavailable","path":"` + strings.Repeat("a", 70<<10) + `"}`
	a := e.call("POST", "/_sandbox/faults", big)
	assert.Equal(t, http.StatusRequestEntityTooLarge, a.status, "%s", a)
}

// TestControlDecodeExactKeys: a member spelled in another case, given twice
// in two cases, or of the wrong kind is refused, also nested in fixtures.
func TestControlDecodeExactKeys(t *testing.T) {
	e := newCtlEnv(t)
	for _, body := range []string{
		`{"Seconds":5}`, `{"seconds":5,"SECONDS":6}`, `{"seconds":5,"seconds":"x"}`,
	} {
		a := e.call("POST", "/_sandbox/clock/advance", body)
		assert.Equal(t, http.StatusBadRequest, a.status, "%s: %s", body, a)
	}
	a := e.call("POST", "/_sandbox/fixtures", `{"organizations":[{"Name":"x","name":"y"}]}`)
	assert.Equal(t, http.StatusBadRequest, a.status, "%s", a)
	a = e.call("POST", "/_sandbox/fixtures", `{"Organizations":[{"name":"y"}]}`)
	assert.Equal(t, http.StatusBadRequest, a.status, "%s", a)
}
