package main

// fiatramp kyc generate-link, run as a user runs it.

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

func TestCLIKYCLink(t *testing.T) {
	w := newWorld(t)
	cust := w.demo.PendingCustomer.ID.String()
	r := cli(t, w.env, "", "kyc", "generate-link", "-redirect", "https://shop.example/kyc-done", cust)
	require.Equal(t, 0, r.code, r)
	got := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, `"`+cust+`"`, string(got["customer_id"]))
	var link string
	require.NoError(t, json.Unmarshal(got["url"], &link))
	assert.True(t, strings.Contains(link, sandbox.HostedPrefix+"kyc/"), link)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPost, reqs[0].Method)
	assert.Equal(t, "/cms/api/v1/kyc/generate-link", reqs[0].Path)
	assert.Equal(t, `{"customer_id":"`+cust+`","redirect_url":"https://shop.example/kyc-done"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])

	for _, bad := range [][]string{
		{"kyc", "generate-link", cust},                                  // no -redirect
		{"kyc", "generate-link", "-redirect", "/relative", cust},        // refused before sending
		{"kyc", "generate-link", "-redirect", "https://x.example", "x"}, // not an id
		{"kyc", "generate-link", "-redirect", "https://x.example"},      // no id
	} {
		r = cli(t, w.env, "", bad...)
		assert.Equal(t, 2, r.code, "%v: %s", bad, r)
	}
	assert.Empty(t, w.requests(), "nothing more was sent")
}
