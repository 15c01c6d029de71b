package main

// fiatramp payouts get-rate and payins get-rate, run as a user runs them.

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCLIRate(t *testing.T) {
	w := newWorld(t)
	r := cli(t, w.env, "", "payouts", "get-rate", "-asset", "usdt", "-fiat", "inr")
	require.Equal(t, 0, r.code, r)
	assert.JSONEq(t, `{"asset":"USDT","fiat":"INR","rate":88.5}`, r.stdout)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodGet, reqs[0].Method)
	assert.Equal(t, "/pos/api/v1/payout/fetch-rate", reqs[0].Path)
	assert.Equal(t, "asset=USDT&fiat=INR", reqs[0].Query)
	assert.Empty(t, reqs[0].Body)
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "payins", "get-rate", "-asset", "USDC", "-fiat", "INR", "-network", "ERC20", "-o", "table")
	require.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, "rate     88.4")
	assert.Contains(t, r.stdout, "network  ERC20")
	reqs = w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/pis/api/v1/payin/fetch-rate", reqs[0].Path)
	assert.Equal(t, "asset=USDC&fiat=INR&network=ERC20", reqs[0].Query)

	r = cli(t, w.env, "", "payouts", "get-rate", "-asset", "USDT")
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, "-asset and -fiat are required")
	assert.Empty(t, w.requests())
}
