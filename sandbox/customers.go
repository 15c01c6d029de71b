package sandbox

// Customers: finding the customer a request names, within the request's
// organization. The operations on a customer's wallets, KYC and bank
// accounts are in wallets.go, kyc.go and banks.go.

import (
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
	c, ok := s.customers[id]
	if !ok || c.OrganizationID != rq.org.ID {
		return nil
	}
	return c
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
