package types

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestIsBrandKey(t *testing.T) {
	for key, want := range map[string]string{
		"acme_fee": "fee", "acme_gst": "gst", "a1_fee": "fee", "9_gst": "gst",
		"_fee": "", "fee": "", "acme_fees": "", "acme_tax": "", "a_b_fee": "", "Acme_fee": "", "acme_Fee": "",
		"client_fee": "", "clientx_gst": "", "pg_fee": "", "pgx_fee": "", "acme.x_fee": "",
	} {
		got := ""
		for _, s := range []string{"fee", "gst"} {
			if isBrandKey([]byte(key), s) {
				require.Empty(t, got, key)
				got = s
			}
		}
		require.Equal(t, want, got, key)
	}
}
