package fiatramp

import (
	"context"
	"iter"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// CustomersAPI is the method set of CustomersService, for substituting a fake.
// Methods may be added in minor versions: embed CustomersAPI in the fake's
// struct so that it keeps compiling.
type CustomersAPI interface {
	AddWallet(ctx context.Context, req types.AddWalletRequest, opts ...RequestOption) (*types.Wallet, error)
	GetBankAccount(ctx context.Context, customerID, bankID uuid.UUID, opts ...RequestOption) (*types.BankAccount, error)
	ListBankAccounts(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.BankAccountPage, error)
	ListBankAccountsPage(ctx context.Context, customerID uuid.UUID, next string, opts ...RequestOption) (*types.BankAccountPage, error)
	BankAccounts(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) iter.Seq2[types.BankAccountListItem, error]
	SimulateBankVerification(ctx context.Context, customerID, bankID uuid.UUID, status types.BankAccountStatus, opts ...RequestOption) (*types.BankVerificationSimulation, error)
	// Bank accounts.
	AddBankAccount(ctx context.Context, req types.AddBankAccountRequest, opts ...RequestOption) (*types.BankAccount, error)
}

var _ CustomersAPI = (*CustomersService)(nil)

// CustomersService manages a customer's crypto wallets and reads their
// bank accounts: POST /cms/api/v1/wallet/add, GET
// /cms/api/v1/bank/{customer_id}/{bank_id} and GET
// /cms/api/v1/bank/list/{customer_id}. A customer that does not exist or
// belongs to another organization is refused with ErrCustomerNotFound.
type CustomersService struct{ client *Client }
