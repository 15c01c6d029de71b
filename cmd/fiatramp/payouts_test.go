package main

// fiatramp payouts get, balance and create, run as a user runs them.

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

func TestCLIPayoutsBalance(t *testing.T) {
	w := newWorld(t)
	// More digits than a float64 holds: the output must keep every one.
	require.NoError(t, w.sb.SetBalance(w.demo.Organization.ID, "USDC", decimal.RequireFromString("12345678901234567890.123456789")))

	r := cli(t, w.env, "", "payouts", "get-balance")
	require.Equal(t, 0, r.code, r)
	assert.Empty(t, r.stderr)
	got := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, `{"USDC":"12345678901234567890.123456789","USDT":"1000"}`, compact(t, string(got["available_balance"])))
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodGet, reqs[0].Method)
	assert.Equal(t, "/pos/api/v1/payout/balance", reqs[0].Path)
	assert.Empty(t, reqs[0].Body)
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "payouts", "get-balance", "-o", "table")
	require.Equal(t, 0, r.code, r)
	assert.Equal(t, "ASSET  AVAILABLE\nUSDC   12345678901234567890.123456789\nUSDT   1000\n", r.stdout)
}

func TestCLIPayoutsCreateGet(t *testing.T) {
	w := newWorld(t)
	q, cust := w.demo.Quotations[0].ID.String(), w.demo.Customer.ID.String()

	// No terminal, no --yes: refused, nothing sent.
	r := cli(t, w.env, "yes\n", "payouts", "create", "-quotation", q, "-customer", cust, "-reference", "cli-1")
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, "pass --yes")
	assert.Contains(t, r.stderr, "Create a payout of quotation "+q)
	assert.Empty(t, r.stdout)
	assert.Empty(t, w.requests())
	assert.Empty(t, w.sb.Payouts(w.demo.Organization.ID))

	r = cli(t, w.env, "", "payouts", "create", "-quotation", q, "-customer", cust, "-reference", "cli-1", "--yes")
	require.Equal(t, 0, r.code, r)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPost, reqs[0].Method)
	assert.Equal(t, "/pos/api/v1/payout/initiate", reqs[0].Path)
	assert.Equal(t, "application/json", reqs[0].Header.Get("Content-Type"))
	assert.Equal(t, `{"client_reference_id":"cli-1","customer_id":"`+cust+`","quotation_id":"`+q+`"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])
	stored, ok := w.sb.PayoutByReference(w.demo.Organization.ID, "cli-1")
	require.True(t, ok)
	created := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, `"`+stored.ID.String()+`"`, string(created["id"]))
	assert.Equal(t, `"PROCESSING"`, string(created["status"]))
	assert.Equal(t, "882.5", string(created["receiving_amount"]), "a number stays the number sent")

	// A generated reference when none is given, named in the output.
	r = cli(t, w.env, "", "payouts", "create", "-quotation", w.demo.Quotations[1].ID.String(), "-customer", cust, "--yes")
	require.Equal(t, 0, r.code, r)
	reqs = w.requests()
	require.Len(t, reqs, 1)
	var body map[string]string
	require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
	assert.True(t, strings.HasPrefix(body["client_reference_id"], "cli-"), body["client_reference_id"])
	assert.Contains(t, r.stdout, body["client_reference_id"])

	// Refused by the service: exit 1, status, message and sentinel.
	r = cli(t, w.env, "", "payouts", "create", "-quotation", q, "-customer", cust, "-reference", "cli-3", "--yes")
	assert.Equal(t, 1, r.code, r)
	assert.Empty(t, r.stdout)
	assert.Contains(t, r.stderr, "fiatramp: HTTP 400: Quotation is already linked to another payout\n")
	assert.Contains(t, r.stderr, "  status: 400\n")
	assert.Contains(t, r.stderr, "  message: Quotation is already linked to another payout\n")
	assert.Contains(t, r.stderr, "  sentinel: ErrQuotationAlreadyLinked\n")
	w.requests()

	// An expired quotation: the sentinel names the refusal.
	expired, err := w.sb.AddQuotation(sandbox.Quotation{
		CustomerID: w.demo.Customer.ID, SendingAmount: decimal.NewFromInt(5), ExpiresAt: time.Now().Add(-time.Minute),
	})
	require.NoError(t, err)
	r = cli(t, w.env, "", "payouts", "create", "-quotation", expired.ID.String(), "-customer", cust, "--yes")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "  message: Quotation has expired\n")
	assert.Contains(t, r.stderr, "  sentinel: ErrQuotationExpired\n")
	w.requests()

	// get, as JSON and as a table; flags after the argument work too.
	r = cli(t, w.env, "", "payouts", "get", stored.ID.String())
	require.Equal(t, 0, r.code, r)
	got := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, `"`+stored.ID.String()+`"`, string(got["id"]))
	assert.Equal(t, `"882.5"`, string(got["receiveing_amount"]), "the fetch spelling and string, as sent")
	reqs = w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodGet, reqs[0].Method)
	assert.Equal(t, "/pos/api/v1/payout/"+stored.ID.String(), reqs[0].Path)
	assert.Empty(t, reqs[0].Body)
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "payouts", "get", stored.ID.String(), "-o", "table")
	require.Equal(t, 0, r.code, r)
	assert.Regexp(t, `(?m)^receiving_amount +882\.5$`, r.stdout)
	assert.Regexp(t, `(?m)^client_reference_id +cli-1$`, r.stdout)
	assert.Regexp(t, `(?m)^utr +-$`, r.stdout)

	// Unknown payout: refused; a bad id: exit 2, nothing sent.
	r = cli(t, w.env, "", "payouts", "get", uuid.NewString())
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "status: 400")
	w.requests()
	r = cli(t, w.env, "", "payouts", "get", "not-a-uuid")
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, `PAYOUT_ID "not-a-uuid" is not a uuid`)
	assert.Empty(t, w.requests())
}

// A create whose answer is lost exits 3 and says how to reconcile; the
// repeat it suggests is refused as a duplicate, so nothing is paid twice.
func TestCLIPayoutsCreateOutcomeUnknown(t *testing.T) {
	w := newWorld(t)
	require.NoError(t, w.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: "/pos/api/v1/payout/initiate", Count: 1}))
	args := []string{"payouts", "create", "-quotation", w.demo.Quotations[0].ID.String(),
		"-customer", w.demo.Customer.ID.String(), "-reference", "lost-1", "--yes"}

	r := cli(t, w.env, "", args...)
	assert.Equal(t, 3, r.code, r)
	assert.Empty(t, r.stdout)
	assert.Contains(t, r.stderr, "fiatramp: outcome unknown: POST /pos/api/v1/payout/initiate")
	assert.Contains(t, r.stderr, "sentinel: ErrOutcomeUnknown")
	assert.Contains(t, r.stderr, "--reference lost-1")
	_, stored := w.sb.PayoutByReference(w.demo.Organization.ID, "lost-1")
	assert.True(t, stored, "the drop came after the effect")

	r = cli(t, w.env, "", args...)
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "ErrClientReferenceExists")
	assert.Len(t, w.sb.Payouts(w.demo.Organization.ID), 1)
}
