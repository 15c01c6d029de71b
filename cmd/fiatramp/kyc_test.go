package main

// fiatramp kyc config, run as a user runs it.

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCLIKYCConfig(t *testing.T) {
	w := newWorld(t)
	cust := w.demo.Customer.ID.String()
	r := cli(t, w.env, "", "kyc", "config", cust)
	require.Equal(t, 0, r.code, r)
	got := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, `["AADHAAR","PASSPORT","VOTER_ID","DRIVING_LICENSE"]`, compact(t, string(got["supported_document_types"])))
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodGet, reqs[0].Method)
	assert.Equal(t, "/cms/api/v1/kyc/configuration/"+cust, reqs[0].Path)
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "kyc", "config", "-o", "table", cust)
	require.Equal(t, 0, r.code, r)
	assert.Regexp(t, `(?m)^options +\["income_range","profession"\]$`, r.stdout)
}
