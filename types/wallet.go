package types

import (
	"encoding/json"

	"github.com/google/uuid"
)

// AddWalletRequest is the body of add wallet, POST /cms/api/v1/wallet/add.
type AddWalletRequest struct {
	// CustomerID is the customer who owns the wallet (required).
	CustomerID uuid.UUID `json:"customer_id"`
	// WalletAddress is the crypto address (required). A deposit to a wrong
	// address is lost.
	WalletAddress string `json:"wallet_address"`
}

// Wallet is a customer's crypto wallet address, the deposit source of
// on-ramp transactions: the data of POST /cms/api/v1/wallet/add.
type Wallet struct {
	// ID is the wallet's id.
	ID uuid.UUID `json:"id"`
	// CustomerID is the customer who owns the wallet.
	CustomerID uuid.UUID `json:"customer_id"`
	// WalletAddress is the crypto address, as sent.
	WalletAddress string `json:"wallet_address"`
	// WalletStatus is the wallet's status (ACTIVE appears).
	WalletStatus WalletStatus `json:"wallet_status"`
	// FailureReason says why the wallet is not usable; nil when null or
	// absent.
	FailureReason *string `json:"failure_reason"`
	// Raw is a copy of the exact JSON object this wallet was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var walletPlan = compilePlan[Wallet]()

// UnmarshalJSON decodes a wallet object and
// keeps a copy of data in Raw. null leaves w unchanged; on error w is
// unchanged.
func (w *Wallet) UnmarshalJSON(data []byte) error { return decode(w, data) }

func (*Wallet) plan() *plan { return walletPlan }
