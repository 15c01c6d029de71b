package fiatramp

// The customers themselves (the service's own resource): create, fetch
// and list. The file is named for the customer's profile, since
// customers.go holds the service and its interface.

import (
	"context"
	"iter"
	"net/url"
	"strings"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

var createCustomerBody = compileBody[types.CreateCustomerRequest]()

// Create creates a customer, UNVERIFIED until KYC: POST
// /cms/api/v1/customer/create with {"alpha_3_country_code", "email",
// "full_name", "non_residence_status", "phone"} and, when set,
// "client_reference_id" and "residence_alpha_3_country_code". Refused
// before sending (ErrInvalidRequest, naming the field): an empty
// full_name or phone, an email without "@" (or with blanks), a country
// code that is not three letters. The service refuses a duplicate email,
// phone or client_reference_id ("Email already in use", "Phone already in
// use", "Client Reference ID already exists") and an unknown country
// ("Invalid country code"). A create is sent once: when an attempt may
// have reached the service and none answered, the call ends in an
// *OutcomeUnknownError (a repeat would be refused as a duplicate).
func (s *CustomersService) Create(ctx context.Context, req types.CreateCustomerRequest, opts ...RequestOption) (*types.Customer, error) {
	if err := checkCreateCustomer(&req); err != nil {
		return nil, err
	}
	return call[types.Customer](ctx, s.client, opCustomersCreate.op().with(createCustomerBody(req)), opts)
}

// checkCreateCustomer refuses the bad input of a customer create.
func checkCreateCustomer(req *types.CreateCustomerRequest) error {
	if err := requireText("full_name", req.FullName); err != nil {
		return err
	}
	if err := checkEmail("email", req.Email); err != nil {
		return err
	}
	if err := requireText("phone", req.Phone); err != nil {
		return err
	}
	if err := checkCountry("alpha_3_country_code", req.Alpha3CountryCode, true); err != nil {
		return err
	}
	return checkCountry("residence_alpha_3_country_code", req.ResidenceAlpha3CountryCode, false)
}

// checkEmail refuses an address without "@" between a local part and a
// domain, or with white space.
func checkEmail(field, email string) error {
	at := strings.LastIndexByte(email, '@')
	if at <= 0 || at == len(email)-1 || strings.ContainsAny(email, " \t\r\n") {
		return invalid(field, "want an e-mail address like name@example.com, got "+quote(email))
	}
	return nil
}

// checkCountry refuses a country code that is not three ASCII letters
// (an optional one may be empty).
func checkCountry(field, code string, required bool) error {
	if code == "" && !required {
		return nil
	}
	ok := len(code) == 3
	for i := 0; ok && i < 3; i++ {
		c := code[i] | 0x20
		ok = c >= 'a' && c <= 'z'
	}
	if !ok {
		return invalid(field, "want a three-letter country code (ISO 3166-1 alpha-3, e.g. IND), got "+quote(code))
	}
	return nil
}

// Get fetches a customer: GET /cms/api/v1/customer/{customer_id}, no body.
// A nil customerID is refused before sending (ErrInvalidRequest); the
// service refuses an absent or foreign customer with ErrCustomerNotFound.
func (s *CustomersService) Get(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.Customer, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	return call[types.Customer](ctx, s.client, opCustomersGet.op(customerID.String()), opts)
}

// customerList is the customer list, read by List (one page), All (every
// item) and ListPage (the page of a link), with the filter's query.
func (s *CustomersService) customerList(f types.CustomerListFilter) (listing[types.Customer], error) {
	op := opCustomersList.op()
	q, err := customerListQuery(f)
	if err != nil {
		return listing[types.Customer]{}, err
	}
	if q != "" {
		op.path += "?" + q
	}
	return listing[types.Customer]{client: s.client, first: op}, nil
}

// customerListQuery writes the filter's query: nothing for the zero
// filter, else From and To (DD-MM-YYYY) under their parameter names.
func customerListQuery(f types.CustomerListFilter) (string, error) {
	if f.From == "" && f.To == "" {
		return "", nil
	}
	fromParam, toParam := f.FromParam, f.ToParam
	if fromParam == "" {
		fromParam = types.DefaultCustomerListFromParam
	}
	if toParam == "" {
		toParam = types.DefaultCustomerListToParam
	}
	if fromParam == toParam {
		return "", invalid("ToParam", "the same parameter name as FromParam: "+quote(toParam))
	}
	q := url.Values{}
	if f.From != "" {
		if err := checkDate("From", f.From, true); err != nil {
			return "", err
		}
		q.Set(fromParam, f.From)
	}
	if f.To != "" {
		if err := checkDate("To", f.To, true); err != nil {
			return "", err
		}
		q.Set(toParam, f.To)
	}
	return q.Encode(), nil
}

// List fetches the first page of the organization's customers: GET
// /cms/api/v1/customer/list, no body. The zero filter sends no query (the
// whole list); a filter's From and To (DD-MM-YYYY) go as the query
// parameters it names, by default start_date and end_date. All walks
// every page; ListPage fetches the page of a stored next link. A date not
// in DD-MM-YYYY is refused before sending (ErrInvalidRequest).
func (s *CustomersService) List(ctx context.Context, filter types.CustomerListFilter, opts ...RequestOption) (*types.CustomerPage, error) {
	l, err := s.customerList(filter)
	if err != nil {
		return nil, err
	}
	return l.page(ctx, opts)
}

// All yields every customer of the organization, following each page's
// next link, starting from GET /cms/api/v1/customer/list with the filter's
// query. It stops at the first error, which it yields, at a page whose
// results are empty, or when next is null. A next link that leaves the
// base address or repeats an earlier one, or a page beyond the cap of
// WithMaxPages, is not followed: it yields an error matching
// ErrPagination.
func (s *CustomersService) All(ctx context.Context, filter types.CustomerListFilter, opts ...RequestOption) iter.Seq2[types.Customer, error] {
	l, err := s.customerList(filter)
	if err != nil {
		return failedList[types.Customer](err)
	}
	return l.all(ctx, opts)
}

// ListPage fetches the page of the customer list that next, the Next link
// of an earlier page, points to: GET /cms/api/v1/customer/list with the
// link's query (its filter included). The link is checked as All checks
// every link: it must stay under the base address and lead to the
// customer list; otherwise it is not sent and the error matches
// ErrPagination.
func (s *CustomersService) ListPage(ctx context.Context, next string, opts ...RequestOption) (*types.CustomerPage, error) {
	l, _ := s.customerList(types.CustomerListFilter{})
	return l.pageAt(ctx, next, opts)
}
