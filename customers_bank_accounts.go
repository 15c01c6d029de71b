package fiatramp

import (
	"context"
	"iter"
	"strings"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// GetBankAccount fetches one bank account of a customer:
// GET /cms/api/v1/bank/{customer_id}/{bank_id}, no body. A nil id is
// refused before sending (ErrInvalidRequest). The service refuses with
// ErrCustomerNotFound ("Customer not found or access denied") or
// ErrBankNotFound ("Bank not found or access denied": absent or not the
// customer's).
func (s *CustomersService) GetBankAccount(ctx context.Context, customerID, bankID uuid.UUID, opts ...RequestOption) (*types.BankAccount, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	if err := requireID("bank_id", bankID); err != nil {
		return nil, err
	}
	return call[types.BankAccount](ctx, s.client, opCustomersGetBankAccount.op(customerID.String(), bankID.String()), opts)
}

// bankAccountList is the list of a customer's bank accounts, read by
// ListBankAccounts (one page), BankAccounts (every item) and
// ListBankAccountsPage (the page of a link).
func (s *CustomersService) bankAccountList(customerID uuid.UUID) listing[types.BankAccountListItem] {
	return listing[types.BankAccountListItem]{client: s.client, first: opCustomersListBankAccounts.op(customerID.String())}
}

// ListBankAccounts fetches the first page of a customer's bank accounts:
// GET /cms/api/v1/bank/list/{customer_id}, no body. The page holds count,
// the next and previous links (nil at either end) and the results.
// BankAccounts walks every page. A nil customerID is refused before
// sending (ErrInvalidRequest); the service refuses an unknown or foreign
// customer with ErrCustomerNotFound.
func (s *CustomersService) ListBankAccounts(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.BankAccountPage, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	return s.bankAccountList(customerID).page(ctx, opts)
}

// BankAccounts yields every bank account of a customer, following each
// page's next link, starting from GET /cms/api/v1/bank/list/{customer_id}.
// It stops at the first error, which it yields, at a page whose results
// are empty ([]; a page without results is an error matching
// ErrMalformedResponse), or when next is null. A next link that leaves the
// base address (scheme, host or path) or repeats an earlier one, or a page
// beyond the cap of WithMaxPages (DefaultMaxPages), is not followed: it
// yields an error matching ErrPagination, since the credentials must not
// go elsewhere and the listing would never end.
func (s *CustomersService) BankAccounts(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) iter.Seq2[types.BankAccountListItem, error] {
	if err := requireID("customer_id", customerID); err != nil {
		return failedList[types.BankAccountListItem](err)
	}
	return s.bankAccountList(customerID).all(ctx, opts)
}

// ListBankAccountsPage fetches the page of a customer's bank accounts that
// next, the Next link of an earlier page, points to: GET
// /cms/api/v1/bank/list/{customer_id} with the link's query (e.g.
// "?page=3"). It resumes a listing where a stored link left it. The link
// is checked as BankAccounts checks every link it follows: it must stay
// under the base address (scheme, host and path, with no escaped separator
// or dot segment in its path), and it must lead to this customer's list;
// otherwise it is not sent and the error matches ErrPagination.
func (s *CustomersService) ListBankAccountsPage(ctx context.Context, customerID uuid.UUID, next string, opts ...RequestOption) (*types.BankAccountPage, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	return s.bankAccountList(customerID).pageAt(ctx, next, opts)
}

// bankVerificationRequest is the body of the sandbox bank verification
// simulation.
type bankVerificationRequest struct {
	CustomerID        uuid.UUID               `json:"customer_id"`
	BankID            uuid.UUID               `json:"bank_id"`
	BankAccountStatus types.BankAccountStatus `json:"bank_account_status"`
}

var bankStatusBody = compileBody[bankVerificationRequest]()

// SimulateBankVerification sets the verification outcome of a customer's
// bank account, in the sandbox only: POST
// /cms/api/v1/bank/mock-bank-verification with {"bank_account_status",
// "bank_id", "customer_id"}. The sandbox allows PROCESSING -> VERIFIED or
// FAILED and refuses every other move. A nil id or an empty status is
// refused before sending (ErrInvalidRequest); a status not among the
// BankAccountStatus constants is sent as given (the enum is open).
func (s *CustomersService) SimulateBankVerification(ctx context.Context, customerID, bankID uuid.UUID, status types.BankAccountStatus, opts ...RequestOption) (*types.BankVerificationSimulation, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	if err := requireID("bank_id", bankID); err != nil {
		return nil, err
	}
	if strings.TrimSpace(string(status)) == "" {
		return nil, invalid("bank_account_status", "must not be empty")
	}
	body := bankStatusBody(bankVerificationRequest{CustomerID: customerID, BankID: bankID, BankAccountStatus: status})
	return call[types.BankVerificationSimulation](ctx, s.client, opCustomersSimulateBankVerification.op().with(body), opts)
}

var addBankAccountBody = compileBody[types.AddBankAccountRequest]()

// AddBankAccount adds a bank account or a UPI address to a VERIFIED
// customer: POST /cms/api/v1/bank/create with {"customer_id"} and either
// {"account_number", "ifsc"} (with "account_name" when AccountName is not
// empty) or {"vpa"}. The account
// starts PROCESSING; a BANK webhook (or GetBankAccount) tells when it is
// VERIFIED or FAILED, with a failure_reason such as NAME_MISMATCH.
//
// Refused before sending (ErrInvalidRequest, naming the field): a nil
// CustomerID; neither an account nor a VPA, or both; an account missing
// its number or IFSC; a blank (white space only) AccountName. The service refuses with ErrCustomerNotFound,
// ErrCustomerUnverified ("Customer is unverified"), ErrAccountNumberInUse
// and ErrVPAInUse (held by this or another customer), ErrBankAccountLimit
// ("Maximum 3 bank account details allowed", "Maximum 3 UPI IDs allowed")
// and ErrKYCInUse.
//
// A customer cannot hold the same account twice, so a retry cannot add a
// second one, and the call is retried; but a retry after an answer that
// was lost reads as "already in use". So once an attempt may have reached
// the service, a call that does not succeed ends in an
// *OutcomeUnknownError (ErrOutcomeUnknown) rather than in that refusal:
// list the customer's accounts (BankAccounts): an account with the same
// number and IFSC, or the same VPA, is the one this call added; none
// means nothing was added. ErrAccountNumberInUse or ErrVPAInUse on their
// own mean no attempt of this call added it.
func (s *CustomersService) AddBankAccount(ctx context.Context, req types.AddBankAccountRequest, opts ...RequestOption) (*types.BankAccount, error) {
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	if err := checkBankShape(req); err != nil {
		return nil, err
	}
	op := opCustomersAddBankAccount.op().with(addBankAccountBody(req))
	// The service takes an account number or VPA once: a repeat cannot
	// add a second account.
	op.safety = guarded
	return call[types.BankAccount](ctx, s.client, op, opts)
}

// checkBankShape refuses a request that names neither an account nor a
// VPA, or both, or an account without its number or IFSC. The holder's
// name is the account's, not the request's to require: the service's
// examples add accounts without it.
func checkBankShape(req types.AddBankAccountRequest) error {
	account := strings.TrimSpace(req.AccountNumber) != "" || strings.TrimSpace(req.IFSC) != "" || strings.TrimSpace(req.AccountName) != ""
	vpa := strings.TrimSpace(req.VPA) != ""
	switch {
	case account && vpa:
		return invalid("vpa", "give either an account (account_number, ifsc, account_name) or a vpa, not both")
	case !account && !vpa:
		return invalid("account_number", "give either an account (account_number, ifsc, account_name) or a vpa")
	case vpa:
		return nil
	}
	if err := requireText("account_number", req.AccountNumber); err != nil {
		return err
	}
	if err := requireText("ifsc", req.IFSC); err != nil {
		return err
	}
	if req.AccountName != "" && strings.TrimSpace(req.AccountName) == "" {
		return invalid("account_name", "is blank: leave it empty to send none")
	}
	return nil
}
