package main

// fiatramp payouts get-limits and payins get-limits, run as a user runs them.

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCLILimits(t *testing.T) {
	w := newWorld(t)
	cust := w.demo.Customer.ID.String()
	r := cli(t, w.env, "", "payouts", "get-limits", cust)
	require.Equal(t, 0, r.code, r)
	got := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, "10000000", string(got["available_limit"]))
	assert.Equal(t, "false", string(got["is_edd_required"]))
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodGet, reqs[0].Method)
	assert.Equal(t, "/ren/api/v1/payout/limits/"+cust, reqs[0].Path)
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "payins", "get-limits", cust, "-o", "table")
	require.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, "available_limit              10000000")
	assert.Contains(t, r.stdout, "is_limit_increase_available  true")
	assert.Equal(t, "/ren/api/v1/payin/limits/"+cust, w.requests()[0].Path)

	r = cli(t, w.env, "", "payins", "get-limits", uuid.NewString())
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "Customer not found or access denied")
}
