package sandbox

// Customers: finding the customer a request names, within the request's
// organization, the customer's place in its organization's table (whose
// indexes keep email, phone, client_reference_id, tax number and document
// number unique within the organization, and the list in creation order,
// so that a fetch is a map lookup and a page a slice of the list), and
// the coded refusals of the customer and KYC operations.

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"
)

// msgCustomerNotFound refuses a customer that is absent or another
// organization's, as the service words it (without a full stop).
const msgCustomerNotFound = "Customer not found or access denied"

// idFromPath parses a path parameter as a uuid in its canonical 36
// character form; anything else is malformed.
func idFromPath(s string) (uuid.UUID, bool) {
	if len(s) != 36 {
		return uuid.Nil, false
	}
	id, err := uuid.Parse(s)
	if err != nil {
		return uuid.Nil, false
	}
	return id, true
}

// orgCustomer returns customer id of the request's organization, or nil
// when it is absent or another organization's (treated alike).
func (s *Sandbox) orgCustomer(rq *request, id uuid.UUID) *customer {
	return rq.org.customers.byID[id]
}

// pathCustomer is orgCustomer for a path parameter: a malformed id is
// absent too.
func (s *Sandbox) pathCustomer(rq *request, param string) *customer {
	id, ok := idFromPath(param)
	if !ok {
		return nil
	}
	return s.orgCustomer(rq, id)
}

// The err_codes the service documents for the customer and KYC refusals
// that have one.
const (
	CodeDuplicateContact  = "USR_DUPLICATE_CONTACT"
	CodeInvalidCountry    = "REQ_INVALID_COUNTRY"
	CodeInvalidDateFormat = "INPUT_INVALID_DATE_FORMAT"
	CodeInvalidDocType    = "KYC_INVALID_DOC_TYPE"
	CodeKYCInUse          = "KYC_IN_USE"
)

// coded answers a refused rule with its documented err_code.
func coded(code, message string) reply {
	return refusal(http.StatusBadRequest, code, message, nil)
}

// onlyErrors reports whether every field error of f is one that ok
// accepts.
func onlyErrors(f *fields, ok func(name, msg string) bool) bool {
	for name, msgs := range f.errs {
		for _, m := range msgs {
			if !ok(name, m) {
				return false
			}
		}
	}
	return true
}

// codedFieldRefusal answers the field errors of f with code instead of
// REQ_FIELD_MISSING (the message is the first field's first message).
func codedFieldRefusal(code string, f *fields) reply {
	rep := fieldRefusal(f.errs)
	var env envelope
	_ = json.Unmarshal(rep.body, &env)
	return refusal(http.StatusBadRequest, code, env.Message, f.errs)
}

// profile is what a customer created through the API holds besides the
// fixture's fields (a fixture customer has the zero profile).
type profile struct {
	email, phone, ref, country, residence string
	nonResident                           bool
	created                               time.Time
	kyc                                   kycRecord
}

// addCustomer files c in o's customer table at time now; s.mu is held.
func addCustomer(o *org, c *customer, now time.Time) {
	c.profile.created = now
	o.customers.add(c.ID, c, customerCreated)
}

// customerCreated is when c was created, the order of the customer list.
func customerCreated(c *customer) time.Time { return c.profile.created }
