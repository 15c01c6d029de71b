package main

// fiatramp customers add-bank-account, run as a user runs it.

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCLICustomersAddBank(t *testing.T) {
	w := newWorld(t)
	cust := w.demo.Customer.ID.String()

	r := cli(t, w.env, "", "customers", "add-bank-account", "-customer", cust, "-account", "50100123456789", "-ifsc", "HDFC0001234", "-name", "Asha Rao")
	require.Equal(t, 0, r.code, r)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	assert.Equal(t, "PROCESSING", got["bank_account_status"])
	assert.Equal(t, "50100123456789", got["account_number"])
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPost, reqs[0].Method)
	assert.Equal(t, "/cms/api/v1/bank/create", reqs[0].Path)
	assert.Equal(t, `{"account_name":"Asha Rao","account_number":"50100123456789","customer_id":"`+cust+`","ifsc":"HDFC0001234"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "customers", "add-bank-account", "-customer", cust, "-vpa", "asha.two@okhdfc", "-o", "table")
	require.Equal(t, 0, r.code, r)
	assert.Regexp(t, `(?m)^vpa +asha\.two@okhdfc$`, r.stdout)
	assert.Regexp(t, `(?m)^bank_account_status +PROCESSING$`, r.stdout)
	w.requests()

	// The same account again: the service's refusal, on stderr.
	r = cli(t, w.env, "", "customers", "add-bank-account", "-customer", cust, "-vpa", "asha.two@okhdfc")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "VPA already in use")
	assert.Contains(t, r.stderr, "sentinel: ErrVPAInUse")

	// Bad input: nothing sent, exit 2.
	w.requests()
	for _, args := range [][]string{
		{"-customer", cust},
		{"-customer", cust, "-vpa", "a@upi", "-account", "1"},
		{"-customer", cust, "-account", "1"},
		{"-vpa", "a@upi"},
		{"-customer", "nope", "-vpa", "a@upi"},
	} {
		r = cli(t, w.env, "", append([]string{"customers", "add-bank-account"}, args...)...)
		assert.Equal(t, 2, r.code, "%s: %s", strings.Join(args, " "), r)
	}
	assert.Empty(t, w.requests(), "bad input sends nothing")
}
