package types

import (
	"encoding/json"

	"github.com/google/uuid"
)

// CreateCustomerRequest is the body of customer create, POST
// /cms/api/v1/customer/create. The client refuses before sending an empty
// full_name, an email without "@", a phone that is empty and a country
// code that is not three letters.
type CreateCustomerRequest struct {
	// FullName is the customer's full name (required).
	FullName string `json:"full_name"`
	// Email is the customer's e-mail address (required, unique within the
	// organization).
	Email string `json:"email"`
	// Phone is the customer's phone number (required, unique within the
	// organization).
	Phone string `json:"phone"`
	// Alpha3CountryCode is the customer's nationality, three letters
	// (IND).
	Alpha3CountryCode string `json:"alpha_3_country_code"`
	// ClientReferenceID is the caller's own reference (optional, unique
	// within the organization; left out when empty).
	ClientReferenceID string `json:"client_reference_id,omitempty"`
	// NonResidenceStatus is true for a customer who does not reside in the
	// country of Alpha3CountryCode.
	NonResidenceStatus bool `json:"non_residence_status"`
	// ResidenceAlpha3CountryCode is the country of residence, three
	// letters (optional; left out when empty).
	ResidenceAlpha3CountryCode string `json:"residence_alpha_3_country_code,omitempty"`
}

// Customer is a customer as created or fetched: the data of POST
// /cms/api/v1/customer/create and GET /cms/api/v1/customer/{customer_id},
// and an item of the customer list. Strings that come as null decode as
// "".
type Customer struct {
	// ID is the customer's id.
	ID uuid.UUID `json:"id"`
	// ClientReferenceID is the caller's reference; nil when null or absent.
	ClientReferenceID *string `json:"client_reference_id"`
	// FullName is the customer's full name.
	FullName string `json:"full_name"`
	// Email is the customer's e-mail address.
	Email string `json:"email"`
	// Phone is the customer's phone number.
	Phone string `json:"phone"`
	// Country is the customer's nationality, three letters.
	Country string `json:"country"`
	// Type is the kind of customer (INDIVIDUAL).
	Type string `json:"type"`
	// Status is the customer's KYC status: UNVERIFIED on create,
	// PROCESSING once KYC data is in, then VERIFIED or FAILED.
	Status KYCStatus `json:"status"`
	// FailureReason says why KYC failed (see KYCFailureReason); "" when
	// null or absent.
	FailureReason KYCFailureReason `json:"failure_reason"`
	// DocumentType is the identity document KYC used; "" when null.
	DocumentType string `json:"document_type"`
	// NonResidenceStatus is true for a non-resident customer; false when
	// null or absent (a create's answer leaves it out).
	NonResidenceStatus bool `json:"non_residence_status"`
	// ResidenceAlpha3CountryCode is the country of residence; "" when
	// null or absent.
	ResidenceAlpha3CountryCode string `json:"residence_alpha_3_country_code"`
	// IsEDDVerified is sent by older editions of a fetch: whether enhanced
	// due diligence passed; false when null or absent.
	IsEDDVerified bool `json:"is_edd_verified"`
	// Raw is a copy of the exact JSON object this customer was decoded
	// from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var customerPlan = compilePlan[Customer]()

// UnmarshalJSON decodes a customer object and keeps a copy of data in Raw.
// null leaves c unchanged; on error c is unchanged.
func (c *Customer) UnmarshalJSON(data []byte) error { return decode(c, data) }

func (*Customer) plan() *plan { return customerPlan }

// CustomerPage is one page of the customer list, GET
// /cms/api/v1/customer/list.
type CustomerPage = Page[Customer]

// CustomerListFilter narrows the customer list to customers created within
// a range of dates. Its zero value sends no query parameter: the whole
// list. The service's documentation says a date filter exists without
// naming its parameters, so the names are the caller's to set; FromParam
// and ToParam default to DefaultCustomerListFromParam and
// DefaultCustomerListToParam.
type CustomerListFilter struct {
	// From is the first day, DD-MM-YYYY (e.g. 01-02-2026); "" for no lower
	// bound.
	From string
	// To is the last day, DD-MM-YYYY; "" for no upper bound.
	To string
	// FromParam and ToParam are the query parameters From and To are sent
	// as; "" takes the default.
	FromParam string
	ToParam   string
}

// The query parameter names a CustomerListFilter uses unless it sets its
// own.
const (
	DefaultCustomerListFromParam = "start_date"
	DefaultCustomerListToParam   = "end_date"
)
