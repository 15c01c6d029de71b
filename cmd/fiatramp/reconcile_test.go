package main

// fiatramp payouts reconcile, and the command a create's exit status 3
// names, run as a user runs them.

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

// The command a lost create prints settles it: run as printed, it finds
// the payout, with reads only.
func TestCLIPayoutsReconcileAfterExit3(t *testing.T) {
	w := newWorld(t)
	require.NoError(t, w.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: "/pos/api/v1/payout/initiate", Count: 1}))
	q, cust := w.demo.Quotations[0].ID.String(), w.demo.Customer.ID.String()
	r := cli(t, w.env, "", "payouts", "create", "-quotation", q, "-customer", cust, "-reference", "lost-2", "--yes")
	require.Equal(t, 3, r.code, r)
	const prefix = "settle it (reads only): "
	i := strings.Index(r.stderr, prefix)
	require.GreaterOrEqual(t, i, 0, r.stderr)
	line := strings.SplitN(r.stderr[i+len(prefix):], "\n", 2)[0]
	assert.Regexp(t, `^fiatramp payouts reconcile -reference lost-2 -customer `+cust+` -quotation `+q+` -likely-created -from \d{4}-\d\d-\d\d -to \d{4}-\d\d-\d\d$`, line,
		"the retry was refused as a duplicate: the attempt probably acted")
	w.requests() // forget the create's

	args := strings.Fields(line)[1:]
	r = cli(t, w.env, "", args...)
	require.Equal(t, 0, r.code, r)
	var out struct {
		Verdict         string          `json:"verdict"`
		Reason          string          `json:"reason"`
		Requests        int             `json:"requests"`
		Payout          json.RawMessage `json:"payout"`
		QuotationStatus *string         `json:"quotation_status"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
	assert.Equal(t, "created", out.Verdict, out.Reason)
	stored, ok := w.sb.PayoutByReference(w.demo.Organization.ID, "lost-2")
	require.True(t, ok)
	assert.Equal(t, `"`+stored.ID.String()+`"`, string(objectOf(out.Payout)["id"]))
	assert.Equal(t, 1, out.Requests, "the newest page of the history, read first since the attempt probably acted")
	for _, req := range w.requests() {
		assert.Equal(t, http.MethodGet, req.Method, "reads only: %s %s", req.Method, req.Path)
	}
}

func TestCLIPayoutsReconcile(t *testing.T) {
	w := newWorld(t)
	q, cust := w.demo.Quotations[1].ID.String(), w.demo.Customer.ID.String()

	// An unused quotation: proof that nothing holds the reference.
	r := cli(t, w.env, "", "payouts", "reconcile", "-reference", "never-sent", "-customer", cust, "-quotation", q)
	require.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, `"verdict": "not_created"`)
	assert.Contains(t, r.stdout, `"quotation_status": "UNLINKED"`)
	assert.Contains(t, r.stdout, `"requests": 1`)

	// The quotation names its customer: -customer is not needed with it.
	r = cli(t, w.env, "", "payouts", "reconcile", "-reference", "never-sent", "-quotation", q)
	require.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, `"verdict": "not_created"`)

	// Without the quotation nothing proves absence: exit 3, and the
	// command to run again.
	r = cli(t, w.env, "", "payouts", "reconcile", "-reference", "it's mine", "-customer", cust)
	require.Equal(t, 3, r.code, r)
	assert.Contains(t, r.stdout, `"verdict": "unknown"`)
	assert.Contains(t, r.stderr, `run again later: fiatramp payouts reconcile -reference 'it'\''s mine' -customer `+cust)

	// Bad command lines: exit 2, nothing sent.
	w.requests()
	for _, bad := range [][]string{
		{"-customer", cust},
		{"-reference", "r"},
		{"-reference", "r", "-customer", "nope"},
		{"-reference", "r", "-customer", cust, "-from", "2026-11-27"},
		{"-reference", "r", "-customer", cust, "-from", "27-11-2026", "-to", "2026-11-27"},
	} {
		r = cli(t, w.env, "", append([]string{"payouts", "reconcile"}, bad...)...)
		assert.Equal(t, 2, r.code, "%v: %v", bad, r)
	}
	assert.Empty(t, w.requests())
}
