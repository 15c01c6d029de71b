package types

import (
	"encoding/json"

	"github.com/google/uuid"
)

// KYCLinkRequest is the body of the hosted KYC link,
// POST /cms/api/v1/kyc/generate-link.
type KYCLinkRequest struct {
	// CustomerID is the customer who completes KYC on the hosted page
	// (required).
	CustomerID uuid.UUID `json:"customer_id"`
	// RedirectURL is where the hosted page sends the customer when they
	// are done (required, an absolute http or https URL).
	RedirectURL string `json:"redirect_url"`
}

// KYCLink is the data of the hosted KYC link: {customer_id, url}.
type KYCLink struct {
	// CustomerID is the customer the link is for.
	CustomerID uuid.UUID `json:"customer_id"`
	// URL is the hosted KYC page to send the customer to.
	URL string `json:"url"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var kycLinkPlan = compilePlan[KYCLink]()

// UnmarshalJSON decodes the data of the hosted KYC link and keeps a copy
// of data in Raw. null leaves l unchanged; on error l is unchanged.
func (l *KYCLink) UnmarshalJSON(data []byte) error { return decode(l, data) }

func (*KYCLink) plan() *plan { return kycLinkPlan }
