package sandbox_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
)

// fuzzRoutes are the operations the fuzzer aims at, with a path that may
// take the fuzzed id.
var fuzzRoutes = []struct{ method, path string }{
	{http.MethodPost, "/pos/api/v1/payout/initiate"},
	{http.MethodPost, "/pos/api/v1/prefunded/payout/initiate"},
	{http.MethodPost, sandbox.DefaultRemittancePayoutPath},
	{http.MethodPatch, "/pos/api/v1/payout/mock-payout-status"},
	{http.MethodGet, "/pos/api/v1/payout/"},
	{http.MethodPost, "/cms/api/v1/wallet/add"},
	{http.MethodPatch, "/cms/api/v1/kyc/mock-kyc-status"},
	{http.MethodGet, "/cms/api/v1/bank/list/"},
	{http.MethodGet, "/cms/api/v1/kyc/configuration/"},
	{http.MethodPost, "/pis/api/v1/payin/quotation"},
	{http.MethodGet, "/pis/api/v1/payin/quotation/"},
}

// FuzzServeHTTP sends correctly signed requests with arbitrary bodies and
// path ids to every operation: the sandbox must answer each with a JSON
// envelope whose status agrees with the HTTP code, and never panic.
func FuzzServeHTTP(f *testing.F) {
	sb := sandbox.New()
	demo, err := sb.SeedDemo()
	require.NoError(f, err)
	cust, bank, q := demo.Customer.ID.String(), demo.BankAccount.ID.String(), demo.Quotations[0].ID.String()
	seeds := []string{
		`{}`, `[]`, `null`, `"x"`, `{"quotation_id":"` + q + `","customer_id":"` + cust + `"}`,
		`{"quotation_id":"` + q + `","customer":{"sender":{"id":"` + cust + `"},"receiver":{"id":"` + cust + `"}}}`,
		`{"quotation_id":"` + q + `","customer_id":"` + cust + `","remitter_id":"` + demo.Remitter.ID.String() + `"}`,
		`{"payout_id":"` + q + `","payout_status":"SUCCESS"}`,
		`{"customer_id":"` + cust + `","wallet_address":"T1"}`,
		`{"customer_id":"` + cust + `","kyc_status":"UNVERIFIED"}`,
		`{"asset":"usdt","fiat":"inr","sending_amount":"5000","customer_id":"` + cust + `","bank_id":"` + bank +
			`","payment_method":"IMPS","risk_parameters":{"suspicious_activity_report":false}}`,
		`{"sending_amount":1e400,"asset":{},"customer":[],"risk_parameters":"x"}`,
	}
	for i := range fuzzRoutes {
		for _, s := range seeds {
			f.Add(uint8(i), cust, []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, route uint8, id string, body []byte) {
		rt := fuzzRoutes[int(route)%len(fuzzRoutes)]
		path := rt.path
		if path[len(path)-1] == '/' {
			path += url.PathEscape(id)
		}
		target := "http://sandbox.test" + path
		signed := []byte("{}")
		if rt.method != http.MethodGet {
			if c, err := fiatramp.CanonicalizeJSON(body); err == nil {
				body, signed = c, c
			}
		}
		ts := sb.Now().Unix()
		req := httptest.NewRequest(rt.method, target, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-KEY", demo.Organization.APIKey)
		req.Header.Set("X-TIMESTAMP", strconv.FormatInt(ts, 10))
		req.Header.Set("X-SIGNATURE", fiatramp.Sign(demo.Organization.APIKey, demo.Organization.APISecret, ts, signed))
		w := httptest.NewRecorder()
		sb.ServeHTTP(w, req)

		var env struct {
			Status *bool `json:"status"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || env.Status == nil {
			t.Fatalf("%s %s: HTTP %d, not an envelope: %q", rt.method, path, w.Code, w.Body.Bytes())
		}
		if ok := w.Code/100 == 2; ok != *env.Status {
			t.Fatalf("%s %s: HTTP %d with status %v: %s", rt.method, path, w.Code, *env.Status, w.Body.Bytes())
		}
		switch w.Code {
		case http.StatusOK, http.StatusCreated, http.StatusBadRequest, http.StatusUnauthorized, http.StatusNotFound:
		default:
			t.Fatalf("%s %s: unexpected HTTP %d: %s", rt.method, path, w.Code, w.Body.Bytes())
		}
	})
}
