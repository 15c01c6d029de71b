package sandbox

// Wallets: POST /cms/api/v1/wallet/add.

import (
	"net/http"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// walletData is the wallet object: id, customer_id, wallet_address,
// wallet_status, failure_reason.
type walletData struct {
	ID            uuid.UUID          `json:"id"`
	CustomerID    uuid.UUID          `json:"customer_id"`
	WalletAddress string             `json:"wallet_address"`
	WalletStatus  types.WalletStatus `json:"wallet_status"`
	FailureReason *string            `json:"failure_reason"`
}

func newWalletData(w *Wallet) walletData {
	return walletData{
		ID: w.ID, CustomerID: w.CustomerID, WalletAddress: w.WalletAddress,
		WalletStatus: w.Status, FailureReason: w.FailureReason,
	}
}

// addWalletOp is POST /cms/api/v1/wallet/add with {customer_id,
// wallet_address}. Adding an address the customer already has answers that
// wallet ("Wallet already added") instead of storing a second one (the
// service does not say; the sandbox's choice). Both answer 200: only the
// initiates answer 201.
func (s *Sandbox) addWalletOp(rq *request) reply {
	f := rq.body
	customerID := f.uuid("customer_id")
	address, _ := f.str("wallet_address", true)
	if rep := f.refused(); rep != nil {
		return *rep
	}
	c := s.orgCustomer(rq, customerID)
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	for _, w := range c.wallets {
		if w.WalletAddress == address {
			return success(http.StatusOK, "Wallet already added", newWalletData(w))
		}
	}
	w := s.addWallet(rq.org, c, Wallet{CustomerID: c.ID, WalletAddress: address})
	return success(http.StatusOK, "Wallet added successfully", newWalletData(&w))
}
