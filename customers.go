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

// CustomersService creates, fetches and lists customers (POST
// /cms/api/v1/customer/create, GET /cms/api/v1/customer/{customer_id},
// GET /cms/api/v1/customer/list), manages a customer's crypto wallets and
// reads their bank accounts: POST /cms/api/v1/wallet/add, GET
// /cms/api/v1/bank/{customer_id}/{bank_id} and GET
// /cms/api/v1/bank/list/{customer_id}. A customer that does not exist or
// belongs to another organization is refused with ErrCustomerNotFound.
type CustomersService struct{ client *Client }
