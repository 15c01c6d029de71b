package main

// fiatramp call, run as a user runs it.

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCLICall(t *testing.T) {
	w := newWorld(t)
	cust := w.demo.Customer.ID.String()
	r := cli(t, w.env, "", "call", "GET", "/cms/api/v1/kyc/configuration/"+cust)
	require.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, `"supported_document_types"`)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/cms/api/v1/kyc/configuration/"+cust, reqs[0].Path)
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "call", "get", "/pos/api/v1/payout/balance", "-envelope")
	require.Equal(t, 0, r.code, r)
	env := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, "true", string(env["status"]))
	assert.Contains(t, string(env["data"]), `"1000"`)
	w.requests()

	// A PATCH asks; without a terminal and --yes it sends nothing.
	r = cli(t, w.env, "", "payouts", "create", "-quotation", w.demo.Quotations[0].ID.String(), "-customer", cust, "-reference", "c-1", "--yes")
	require.Equal(t, 0, r.code, r)
	stored, _ := w.sb.PayoutByReference(w.demo.Organization.ID, "c-1")
	w.requests()
	body := `{ "payout_status": "SUCCESS", "payout_id": "` + stored.ID.String() + `" }`
	r = cli(t, w.env, "", "call", "PATCH", "/pos/api/v1/payout/mock-payout-status", body)
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, "pass --yes")
	assert.Empty(t, w.requests())

	// From standard input, sent canonical.
	r = cli(t, w.env, body, "call", "PATCH", "/pos/api/v1/payout/mock-payout-status", "-", "--yes")
	require.Equal(t, 0, r.code, r)
	reqs = w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPatch, reqs[0].Method)
	assert.Equal(t, `{"payout_id":"`+stored.ID.String()+`","payout_status":"SUCCESS"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])
	after, ok := w.sb.Payout(stored.ID)
	require.True(t, ok)
	assert.Equal(t, "SUCCESS", string(after.Status))

	// From a file; refused by the service (a SUCCESS payout cannot fail;
	// SUCCESS again would be a repeat, answered as done).
	file := filepath.Join(t.TempDir(), "body.json")
	require.NoError(t, os.WriteFile(file, []byte(strings.Replace(body, "SUCCESS", "FAILED", 1)), 0o600))
	r = cli(t, w.env, "", "call", "PATCH", "/pos/api/v1/payout/mock-payout-status", "@"+file, "--yes")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "status: 400")
	w.requests()

	// Bad input: exit 2, nothing sent.
	for _, bad := range [][]string{
		{"GET"},
		{"GET", "pos/api/v1/payout/balance"},
		{"GET", "/pos/api/v1/payout/balance", "{}"},
		{"POST", "/x", "{not json", "--yes"},
		{"POST", "/x", `{"amount": 12345678901234567.5}`, "--yes"},
		{"GET", "/x", "-o", "table"},
	} {
		r = cli(t, w.env, "", append([]string{"call"}, bad...)...)
		assert.Equal(t, 2, r.code, "%v: %s", bad, r)
	}
	assert.Empty(t, w.requests())
}
