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
	AddBankAccount(ctx context.Context, req types.AddBankAccountRequest, opts ...RequestOption) (*types.BankAccount, error)
	ListBankAccounts(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.BankAccountPage, error)
	BankAccounts(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) iter.Seq2[types.BankAccountListItem, error]
	ListBankAccountsPage(ctx context.Context, customerID uuid.UUID, next string, opts ...RequestOption) (*types.BankAccountPage, error)
	SimulateBankVerification(ctx context.Context, customerID, bankID uuid.UUID, status types.BankAccountStatus, opts ...RequestOption) (*types.BankVerificationSimulation, error)
	GetBankAccount(ctx context.Context, customerID, bankID uuid.UUID, opts ...RequestOption) (*types.BankAccount, error)
	Create(ctx context.Context, req types.CreateCustomerRequest, opts ...RequestOption) (*types.Customer, error)
	List(ctx context.Context, filter types.CustomerListFilter, opts ...RequestOption) (*types.CustomerPage, error)
	All(ctx context.Context, filter types.CustomerListFilter, opts ...RequestOption) iter.Seq2[types.Customer, error]
	ListPage(ctx context.Context, next string, opts ...RequestOption) (*types.CustomerPage, error)
	Get(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.Customer, error)
	AddWallet(ctx context.Context, req types.AddWalletRequest, opts ...RequestOption) (*types.Wallet, error)
}

var _ CustomersAPI = (*CustomersService)(nil)

// CustomersService manages the organization's customers and what each
// holds: bank accounts and crypto wallets. A customer that does not exist
// or belongs to another organization is refused with ErrCustomerNotFound.
// Each method's doc names the HTTP call it makes; Operations lists them
// all.
type CustomersService struct{ client *Client }
