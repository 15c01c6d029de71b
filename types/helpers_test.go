package types_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

// Fixed ids used by the examples.
var (
	idPayout    = uuid.MustParse("6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b")
	idQuotation = uuid.MustParse("0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d")
	idCustomer  = uuid.MustParse("9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d")
	idBank      = uuid.MustParse("1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b")
	idReceiver  = uuid.MustParse("2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b")
	idRemitter  = uuid.MustParse("3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f")
	idOrder     = uuid.MustParse("4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a")
	idWallet    = uuid.MustParse("5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b")
)

// requireDec asserts got equals the decimal written as want, exactly: the
// values are equal and got prints as want (so nothing was rounded).
func requireDec(t *testing.T, want string, got decimal.Decimal, msgAndArgs ...any) {
	t.Helper()
	w := decimal.RequireFromString(want)
	require.Truef(t, w.Equal(got), "want %s, got %s %v", want, got.String(), msgAndArgs)
	require.Equal(t, w.String(), got.String(), msgAndArgs...)
}

// requireTime asserts got is the instant written as want (RFC 3339).
func requireTime(t *testing.T, want string, got time.Time, msgAndArgs ...any) {
	t.Helper()
	w, err := time.Parse(time.RFC3339Nano, want)
	require.NoError(t, err)
	require.Truef(t, w.Equal(got), "want %s, got %s %v", w, got, msgAndArgs)
}

func strPtr(s string) *string { return &s }

// compact returns s, a JSON document, without insignificant white space.
func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, json.Compact(&b, []byte(s)))
	return b.String()
}
