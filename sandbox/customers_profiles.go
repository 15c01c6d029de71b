package sandbox

// The customer operations: create (POST /cms/api/v1/customer/create),
// fetch (GET /cms/api/v1/customer/{customer_id}) and list (GET
// /cms/api/v1/customer/list). Finding the customer a request names is
// customers.go; the operations on a customer's wallets, bank accounts and
// KYC are customers_wallets.go, customers_bank_accounts.go and kyc*.go.

import (
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// Messages of the customer operations, in the service's words.
const (
	msgEmailInUse      = "Email already in use"
	msgPhoneInUse      = "Phone already in use"
	msgReferenceExists = "Client Reference ID already exists"
	msgInvalidCountry  = "Invalid country code"
	// msgInvalidEmail is the REST framework's EmailField refusal.
	msgInvalidEmail = "Enter a valid email address."
)

// threeLetters reports whether code is three ASCII letters.
func threeLetters(code string) bool {
	if len(code) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if c := code[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// validEmail is the sandbox's own, loose e-mail rule: one "@" with text on
// both sides, a dot in the domain, no white space.
func validEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	return ok && local != "" && strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") &&
		!strings.HasSuffix(domain, ".") && !strings.ContainsAny(s, " \t\r\n") && !strings.Contains(domain, "@")
}

// createCustomer is POST /cms/api/v1/customer/create: full_name, email,
// phone and alpha_3_country_code required, client_reference_id,
// non_residence_status and residence_alpha_3_country_code optional. Email,
// phone and client_reference_id are unique within the organization. The
// customer starts UNVERIFIED; no webhook is sent.
func (s *Sandbox) createCustomer(rq *request) reply {
	f := rq.body
	name, _ := f.str("full_name", true)
	email, ok := f.str("email", true)
	if ok && !validEmail(email) {
		f.fail("email", msgInvalidEmail)
	}
	phone, _ := f.str("phone", true)
	country, countryOK := f.str("alpha_3_country_code", true)
	ref, hasRef := f.str("client_reference_id", false)
	nonResident := f.boolean("non_residence_status")
	residence, hasResidence := f.str("residence_alpha_3_country_code", false)
	if rep := f.refused(); rep != nil {
		return *rep
	}
	if countryOK && !threeLetters(country) || hasResidence && !threeLetters(residence) {
		return coded(CodeInvalidCountry, msgInvalidCountry)
	}
	o := rq.org
	switch {
	case o.emails[strings.ToLower(email)] != uuid.Nil:
		return coded(CodeDuplicateContact, msgEmailInUse)
	case o.phones[phone] != uuid.Nil:
		return coded(CodeDuplicateContact, msgPhoneInUse)
	case hasRef && o.customerRefs[ref] != uuid.Nil:
		return rule(msgReferenceExists)
	}
	c := &customer{Customer: Customer{ID: uuid.New(), OrganizationID: rq.org.ID, Name: name, Email: email, Phone: phone, KYCStatus: types.KYCUnverified}}
	c.profile = profile{
		email: email, phone: phone, ref: ref, country: strings.ToUpper(country),
		residence: strings.ToUpper(residence), nonResident: nonResident,
	}
	addCustomer(o, c, rq.now)
	o.emails[strings.ToLower(email)], o.phones[phone] = c.ID, c.ID
	if hasRef {
		o.customerRefs[ref] = c.ID
	}
	return success(http.StatusOK, "Customer created successfully", newCustomerJSON(c))
}

// customerJSON is a customer as create answers it; customerFetchJSON adds
// what a fetch and the list show.
type customerJSON struct {
	ID                uuid.UUID       `json:"id"`
	ClientReferenceID *string         `json:"client_reference_id"`
	FullName          string          `json:"full_name"`
	Email             *string         `json:"email"`
	Phone             *string         `json:"phone"`
	Country           *string         `json:"country"`
	Type              string          `json:"type"`
	Status            types.KYCStatus `json:"status"`
	FailureReason     *string         `json:"failure_reason"`
	DocumentType      *string         `json:"document_type"`
}

type customerFetchJSON struct {
	customerJSON
	NonResidenceStatus         bool    `json:"non_residence_status"`
	ResidenceAlpha3CountryCode *string `json:"residence_alpha_3_country_code"`
}

// newCustomerJSON shows c. A status the KYC simulation set to
// TAX_VERIFICATION_FAILED or DOCUMENT_VERIFICATION_FAILED shows as FAILED
// with that failure_reason, as the service shows a failed customer.
func newCustomerJSON(c *customer) customerJSON {
	p := &c.profile
	out := customerJSON{
		ID: c.ID, ClientReferenceID: nullable(p.ref), FullName: c.Name,
		Email: nullable(p.email), Phone: nullable(p.phone), Country: nullable(p.country),
		Type: "INDIVIDUAL", Status: c.KYCStatus, DocumentType: nullable(p.kyc.docType),
	}
	if out.Country == nil {
		ind := "IND"
		out.Country = &ind
	}
	switch c.KYCStatus {
	case types.KYCTaxVerificationFailed, types.KYCDocumentVerificationFailed:
		out.Status, out.FailureReason = types.KYCFailed, nullable(string(c.KYCStatus))
	case types.KYCFailed:
		out.FailureReason = nullable(string(p.kyc.failure))
	}
	return out
}

func newCustomerFetchJSON(c *customer) customerFetchJSON {
	return customerFetchJSON{newCustomerJSON(c), c.profile.nonResident, nullable(c.profile.residence)}
}

// getCustomer is GET /cms/api/v1/customer/{customer_id}; an absent or
// foreign customer is refused "Customer not found or access denied".
func (s *Sandbox) getCustomer(rq *request) reply {
	c := s.pathCustomer(rq, rq.params[0])
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	return success(http.StatusOK, "Customer fetched successfully", newCustomerFetchJSON(c))
}

// Query parameters of the customer list: the page (1-based, as the bank
// list) and the date filter, whose names the service does not document;
// the sandbox reads the names the client sends by default.
const (
	customerListFrom = "start_date"
	customerListTo   = "end_date"
)

// listCustomers is GET /cms/api/v1/customer/list: the organization's
// customers in creation order, Settings.PageSize a page, `page` 1-based.
// start_date and end_date (DD-MM-YYYY, both optional) keep the customers
// created on those days and between them (sandbox clock, UTC); a date in
// another form is a field error. Finding a page costs the same whatever
// the number of customers: the list is kept in creation order, so the
// date bounds are found by binary search and the page is a slice of it.
func (s *Sandbox) listCustomers(rq *request) reply {
	q := rq.r.URL.Query()
	page, ok := pageParam(q)
	if !ok {
		return invalidPage()
	}
	order := rq.org.customers.order
	errs := map[string][]string{}
	if v := q.Get(customerListFrom); v != "" {
		day, err := time.Parse(dateLayout, v)
		if err != nil {
			errs[customerListFrom] = []string{msgDateFormat}
		}
		i := sort.Search(len(order), func(k int) bool { return !order[k].profile.created.UTC().Before(day) })
		order = order[i:]
	}
	if v := q.Get(customerListTo); v != "" {
		day, err := time.Parse(dateLayout, v)
		if err != nil {
			errs[customerListTo] = []string{msgDateFormat}
		}
		end := day.AddDate(0, 0, 1)
		i := sort.Search(len(order), func(k int) bool { return !order[k].profile.created.UTC().Before(end) })
		order = order[:i]
	}
	if len(errs) > 0 {
		return fieldRefusal(errs)
	}
	return listReply(s, rq.r, q, page, order, newCustomerFetchJSON, "Customers fetched successfully")
}
