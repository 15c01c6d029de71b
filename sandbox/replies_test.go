package sandbox_test

import (
	"encoding/json"
	"net/http"
	"sort"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

// TestRepliesEnvelope: every answer is one JSON object in the service's
// envelope, with exactly the members of its kind: a success has status
// true, message and data; a refused rule status false, message and data
// null, without err_code or errors; field errors add err_code
// REQ_FIELD_MISSING and errors, the message being the first field's
// (sorted by name) first message; an authentication failure adds its
// AUTH_ err_code; an unknown path is a 404 in the same envelope.
func TestRepliesEnvelope(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name    string
		rq      authReq
		status  int
		members []string
		check   func(t *testing.T, m map[string]json.RawMessage)
	}{
		{"success", authGet(e), http.StatusOK, []string{"data", "message", "status"}, func(t *testing.T, m map[string]json.RawMessage) {
			assert.Equal(t, "true", string(m["status"]))
			assert.Equal(t, `"KYC configuration fetched successfully"`, string(m["message"]))
			assert.Equal(t, byte('{'), m["data"][0])
		}},
		{"refused rule", authWallet(`{"customer_id":"` + uuid.NewString() + `","wallet_address":"TR1"}`), http.StatusBadRequest,
			[]string{"data", "message", "status"}, func(t *testing.T, m map[string]json.RawMessage) {
				assert.Equal(t, `"Customer not found or access denied"`, string(m["message"]))
			}},
		{"field errors", authWallet(`{"wallet_address":true,"zz":1}`), http.StatusBadRequest,
			[]string{"data", "err_code", "errors", "message", "status"}, func(t *testing.T, m map[string]json.RawMessage) {
				assert.Equal(t, `"`+sandbox.CodeFieldMissing+`"`, string(m["err_code"]))
				assert.Equal(t, `"This field is required."`, string(m["message"]), "customer_id sorts first")
				assert.JSONEq(t, `{"customer_id":["This field is required."],"wallet_address":["Not a valid string."]}`, string(m["errors"]))
			}},
		{"authentication", authReq{method: http.MethodGet, path: authGet(e).path, sig: "wrong"}, http.StatusUnauthorized,
			[]string{"data", "err_code", "message", "status"}, func(t *testing.T, m map[string]json.RawMessage) {
				assert.Equal(t, `"`+sandbox.CodeInvalidSignature+`"`, string(m["err_code"]))
			}},
		{"unknown path", authReq{method: http.MethodGet, path: "/cms/api/v1/nothing"}, http.StatusNotFound,
			[]string{"data", "message", "status"}, func(t *testing.T, m map[string]json.RawMessage) {
				assert.Equal(t, `"Not found."`, string(m["message"]))
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := authSend(t, e, tc.rq)
			require.Equal(t, tc.status, r.status, string(r.raw))
			assert.Equal(t, "application/json", r.header.Get("Content-Type"))
			var m map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(r.raw, &m))
			var names []string
			for k := range m {
				names = append(names, k)
			}
			sort.Strings(names)
			assert.Equal(t, tc.members, names, string(r.raw))
			if tc.status >= 400 {
				assert.Equal(t, "false", string(m["status"]))
				assert.Equal(t, "null", string(m["data"]))
			}
			tc.check(t, m)
		})
	}
}
