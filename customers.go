package fiatramp

import (
	"context"
	"crypto/sha256"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strings"

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
}

var _ CustomersAPI = (*CustomersService)(nil)

// CustomersService manages a customer's crypto wallets and reads their bank
// accounts: POST /cms/api/v1/wallet/add, GET
// /cms/api/v1/bank/{customer_id}/{bank_id} and GET
// /cms/api/v1/bank/list/{customer_id}. A customer that does not exist or
// belongs to another organization is refused with ErrCustomerNotFound.
type CustomersService struct{ client *Client }

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
	return call[types.Wallet](ctx, s.client, http.MethodPost, cmsBase+"/wallet/add", addWalletBody(req), opts)
}

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
	path := cmsBase + "/bank/" + customerID.String() + "/" + bankID.String()
	return call[types.BankAccount](ctx, s.client, http.MethodGet, path, nil, opts)
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
	return call[types.BankAccountPage](ctx, s.client, http.MethodGet, bankListPath(customerID), nil, opts)
}

// DefaultMaxPages is how many pages BankAccounts fetches at most: at ten
// accounts a page, far more than any customer has.
const DefaultMaxPages = 10_000

// WithMaxPages caps how many pages a listing that follows next links
// (BankAccounts) fetches; a listing that would need more ends with an error
// matching ErrPagination, so that a server handing out an endless chain of
// pages cannot keep a call going until its context ends. The default is
// DefaultMaxPages.
func WithMaxPages(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("fiatramp: WithMaxPages: %d is not positive", n)
		}
		c.maxPages = n
		return nil
	}
}

// BankAccounts yields every bank account of a customer, following each page's
// next link, starting from GET /cms/api/v1/bank/list/{customer_id}. It stops at the first error, which it
// yields, at a page whose results are empty ([]; a page without results
// is an error matching ErrMalformedResponse), or when next is null. A next link that
// leaves the base address (scheme, host or path) or repeats an earlier one,
// or a page beyond the cap of WithMaxPages (DefaultMaxPages), is not
// followed: it yields an error matching ErrPagination, since the credentials
// must not go elsewhere and the listing would never end.
func (s *CustomersService) BankAccounts(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) iter.Seq2[types.BankAccountListItem, error] {
	opts = slices.Clone(opts)
	return func(yield func(types.BankAccountListItem, error) bool) {
		if err := requireID("customer_id", customerID); err != nil {
			yield(types.BankAccountListItem{}, err)
			return
		}
		cur, err := s.client.resolve(bankListPath(customerID))
		// Visited links by digest: a link may be nearly as long as a body,
		// and the page cap allows many, so their text is not kept.
		seen := make(map[[sha256.Size]byte]bool)
		for pages := 1; err == nil; pages++ {
			if pages > s.client.cfg.maxPages {
				err = fmt.Errorf("%w: more than %d pages (the cap of WithMaxPages): next link %q not followed",
					ErrPagination, s.client.cfg.maxPages, cur.String())
				break
			}
			seen[sha256.Sum256([]byte(cur.String()))] = true
			page := new(types.BankAccountPage)
			if err = s.client.send(ctx, operation{method: http.MethodGet, url: cur}, page, opts); err != nil {
				break
			}
			for _, item := range page.Results {
				if !yield(item, nil) {
					return
				}
			}
			if page.Next == nil || *page.Next == "" || len(page.Results) == 0 {
				return
			}
			cur, err = s.client.pageURL(cur, *page.Next)
			if err == nil && seen[sha256.Sum256([]byte(cur.String()))] {
				err = fmt.Errorf("%w: next link %q repeats an earlier page", ErrPagination, *page.Next)
			}
		}
		yield(types.BankAccountListItem{}, err)
	}
}

func bankListPath(customerID uuid.UUID) string {
	return cmsBase + "/bank/list/" + customerID.String()
}

// pageURL resolves a pagination link against the current page and checks
// that it stays under the base address as it will be sent, so the signed
// headers never travel to another host or route. The path is checked both
// decoded and escaped (the escaped form is what goes on the wire), and a link
// whose path carries an escaped separator or percent sign (%2F, %5C, %25, in
// any case) or a dot segment (".", "..", plain or escaped, also before a
// ";" parameter) is refused outright: a gateway that routes by raw path, or
// normalises or decodes once more, would read such a path differently.
func (c *Client) pageURL(cur *url.URL, link string) (*url.URL, error) {
	ref, err := url.Parse(link)
	if err != nil {
		return nil, fmt.Errorf("%w: next link %q: %v", ErrPagination, link, err)
	}
	if escapedSeparator(ref.EscapedPath()) || hasDotSegment(ref.Path) {
		return nil, fmt.Errorf("%w: next link %q: escaped separator or dot segment in its path", ErrPagination, link)
	}
	u, base := cur.ResolveReference(ref), c.cfg.baseURL
	if u.Scheme != base.Scheme || u.Host != base.Host || u.User != nil ||
		!strings.HasPrefix(u.Path, base.Path+"/") || !strings.HasPrefix(u.EscapedPath(), base.EscapedPath()+"/") ||
		escapedSeparator(u.EscapedPath()) || hasDotSegment(u.Path) {
		return nil, fmt.Errorf("%w: next link %q leaves the base address %s", ErrPagination, link, base)
	}
	u.Fragment = ""
	return u, nil
}

// escapedSeparator reports whether an escaped path holds an escaped "/",
// "\" or "%", in either case.
func escapedSeparator(escaped string) bool {
	for i := strings.IndexByte(escaped, '%'); i >= 0; i = strings.IndexByte(escaped, '%') {
		if code := strings.ToUpper(escaped[i+1 : min(i+3, len(escaped))]); code == "2F" || code == "5C" || code == "25" {
			return true
		}
		escaped = escaped[i+1:]
	}
	return false
}

// hasDotSegment reports whether a decoded path has a "." or ".." segment,
// also one followed by a ";" parameter ("..;"), which some servers strip.
// ResolveReference removes literal dot segments but not escaped ones
// (%2e%2e), which the request then carries and a server normalising per
// RFC 3986 resolves, out of the base path.
//
// A path decoded once more is checked too, for a gateway that decodes twice
// (%252e%252e).
func hasDotSegment(p string) bool {
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		seg, _, _ = strings.Cut(seg, ";")
		if seg == "." || seg == ".." {
			return true
		}
	}
	if twice, err := url.PathUnescape(p); err == nil && twice != p {
		return hasDotSegment(twice)
	}
	return false
}

// SimulateBankVerification sets the verification outcome of a customer's
// bank account, in the sandbox only: POST
// /cms/api/v1/bank/mock-bank-verification with {"bank_account_status",
// "bank_id", "customer_id"}. The sandbox allows PROCESSING -> VERIFIED or
// FAILED and refuses every other move. An unknown status is refused before
// sending.
func (s *CustomersService) SimulateBankVerification(ctx context.Context, customerID, bankID uuid.UUID, status types.BankAccountStatus, opts ...RequestOption) (*types.BankVerificationSimulation, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	if err := requireID("bank_id", bankID); err != nil {
		return nil, err
	}
	if !status.IsKnown() {
		return nil, invalid("bank_account_status", "unknown bank account status "+quote(string(status)))
	}
	body := bankStatusBody(bankVerificationRequest{CustomerID: customerID, BankID: bankID, BankAccountStatus: status})
	return call[types.BankVerificationSimulation](ctx, s.client, http.MethodPost, cmsBase+"/bank/mock-bank-verification", body, opts)
}
