package main

// fiatramp payouts get-configuration and payins get-configuration, run as a user runs them.

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCLIConfig(t *testing.T) {
	w := newWorld(t)
	for service, path := range map[string]string{"payouts": "/pos/api/v1/payout/configuration", "payins": "/pis/api/v1/payin/configuration"} {
		r := cli(t, w.env, "", service, "get-configuration")
		require.Equal(t, 0, r.code, r)
		inr := objectOf(objectOf(json.RawMessage(r.stdout))["inr"])
		assert.JSONEq(t, `["usdc","usdt"]`, string(inr["supported_assets"]), service)
		reqs := w.requests()
		require.Len(t, reqs, 1)
		assert.Equal(t, http.MethodGet, reqs[0].Method)
		assert.Equal(t, path, reqs[0].Path)
		w.checkSigned(t, reqs[0])

		r = cli(t, w.env, "", service, "get-configuration", "-o", "table")
		require.Equal(t, 0, r.code, r)
		want := "FIAT  ASSET  METHOD  MIN  MAX\n" +
			"inr   usdc   imps    10   5000\n" +
			"inr   usdc   upi     10   1000\n" +
			"inr   usdt   imps    10   5000\n" +
			"inr   usdt   upi     10   1000\n"
		if service == "payins" { // the sandbox shows the payin quotation's bounds in crypto
			want = "FIAT  ASSET  METHOD  MIN        MAX\n" +
				"inr   usdc   imps    27.946832  5589.366515\n" +
				"inr   usdc   upi     27.946832  1117.873303\n" +
				"inr   usdt   imps    27.915254  5583.050847\n" +
				"inr   usdt   upi     27.915254  1116.610169\n"
		}
		assert.Equal(t, want, r.stdout, service)
		w.requests()
	}
}
