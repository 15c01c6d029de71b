package types_test

import (
	"encoding/json"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

func TestWallet(t *testing.T) {
	body := `{"id":"5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b","customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","wallet_address":"0x52908400098527886E0F7030069857D2E4169EE7","wallet_status":"ACTIVE","failure_reason":null}`
	var w types.Wallet
	require.NoError(t, json.Unmarshal([]byte(body), &w))
	require.Equal(t, types.Wallet{
		ID:            idWallet,
		CustomerID:    idCustomer,
		WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
		WalletStatus:  types.WalletActive,
		FailureReason: nil,
		Raw:           json.RawMessage(body),
	}, w)

	require.NoError(t, json.Unmarshal([]byte(`{"wallet_status":"BLOCKED","failure_reason":"sanctioned address"}`), &w))
	require.Equal(t, types.WalletStatus("BLOCKED"), w.WalletStatus)
	require.False(t, w.WalletStatus.IsKnown())
	require.Equal(t, strPtr("sanctioned address"), w.FailureReason)
	require.Equal(t, uuid.Nil, w.ID, "a second decode replaces the whole value")
}

func TestAddWalletRequestJSON(t *testing.T) {
	require.Equal(t, compact(t, `{
	  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
	  "wallet_address": "0x52908400098527886E0F7030069857D2E4169EE7"
	}`), marshal(t, types.AddWalletRequest{CustomerID: idCustomer, WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7"}))
	// wallet_address is not optional: an empty one is still sent.
	require.Equal(t, `{"customer_id":"`+uuid.Nil.String()+`","wallet_address":""}`, marshal(t, types.AddWalletRequest{}))
}

func FuzzWallet(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.Wallet]{prior: fuzzWalletJSON, hasRaw: true})
}
