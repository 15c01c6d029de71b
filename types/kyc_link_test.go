package types_test

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

const fuzzKYCLinkJSON = `{"customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","url":"https://kyc.example.com/k/abc?x=1&y=2"}`

func TestKYCLink(t *testing.T) {
	var l types.KYCLink
	require.NoError(t, json.Unmarshal([]byte(fuzzKYCLinkJSON), &l))
	require.Equal(t, types.KYCLink{
		CustomerID: idCustomer,
		URL:        "https://kyc.example.com/k/abc?x=1&y=2",
		Raw:        json.RawMessage(fuzzKYCLinkJSON),
	}, l)

	// The last of duplicate members wins; a second decode replaces the whole value.
	require.NoError(t, json.Unmarshal([]byte(`{"url":"https://a.example/1","url":"https://a.example/2"}`), &l))
	require.Equal(t, "https://a.example/2", l.URL)
	require.Equal(t, uuid.Nil, l.CustomerID)

	require.Error(t, json.Unmarshal([]byte(`{"customer_id":"not-a-uuid","url":"x"}`), &l))
	require.Equal(t, "https://a.example/2", l.URL, "a failed decode leaves the value alone")
}

func FuzzKYCLink(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.KYCLink]{prior: fuzzKYCLinkJSON, hasRaw: true})
}
