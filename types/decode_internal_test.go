package types

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBrandKind(t *testing.T) {
	for key, want := range map[string]byte{
		"acme_fee": 'f', "acme_gst": 'g', "a1_fee": 'f', "9_gst": 'g',
		"_fee": 0, "fee": 0, "acme_fees": 0, "acme_tax": 0, "a_b_fee": 0, "Acme_fee": 0, "acme_Fee": 0,
		"client_fee": 0, "clientx_gst": 0, "pg_fee": 0, "pgx_fee": 0, "acme.x_fee": 0,
	} {
		require.Equal(t, want, brandKind([]byte(key)), key)
	}
}
