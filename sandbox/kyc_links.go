package sandbox

// The hosted KYC link: POST /cms/api/v1/kyc/generate-link. The page it
// links to is hosted_pages.go.

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/google/uuid"
)

// generateKYCLink is POST /cms/api/v1/kyc/generate-link with
// {customer_id, redirect_url}, answering {customer_id, url}: the URL of
// the sandbox's hosted KYC page for the customer, a fresh token each time.
func (s *Sandbox) generateKYCLink(rq *request) reply {
	f := rq.body
	customerID := f.uuid("customer_id")
	redirect, ok := f.str("redirect_url", true)
	if ok && !webURL(redirect) {
		f.fail("redirect_url", "Enter a valid URL.")
	}
	if rep := f.refused(); rep != nil {
		return *rep
	}
	c := s.orgCustomer(rq, customerID)
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	token := newPageToken()
	s.st.index.pages[token] = pageRef{org: rq.org, kyc: &kycLink{customer: c, redirectURL: redirect}}
	return success(http.StatusOK, "KYC link generated successfully", struct {
		CustomerID uuid.UUID `json:"customer_id"`
		URL        string    `json:"url"`
	}{c.ID, s.hostedBase(rq.r) + HostedPrefix + "kyc/" + token})
}

// webURL reports whether raw is an absolute http or https URL with a host.
func webURL(raw string) bool {
	if strings.IndexFunc(raw, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return false
	}
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != ""
}
