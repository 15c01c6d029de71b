package fiatramp

import (
	"context"

	"github.com/fiatramp/fiatramp-go/types"
)

var addWalletBody = compileBody[types.AddWalletRequest]()

// AddWallet adds a crypto wallet address to a customer; wallets are the
// deposit source of on-ramp transactions: POST /cms/api/v1/wallet/add with
// {"customer_id", "wallet_address"}. A nil CustomerID or a blank
// WalletAddress is refused before sending (ErrInvalidRequest); a field the
// service finds missing is refused with ErrFieldMissing. Deposits of an
// unsupported asset/blockchain pair, or to a wrong address, are lost.
func (s *CustomersService) AddWallet(ctx context.Context, req types.AddWalletRequest, opts ...RequestOption) (*types.Wallet, error) {
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	if err := requireText("wallet_address", req.WalletAddress); err != nil {
		return nil, err
	}
	return call[types.Wallet](ctx, s.client, opCustomersAddWallet.op().with(addWalletBody(req)), opts)
}
