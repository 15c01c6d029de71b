package fiatramp

import (
	"context"
	"net/url"
	"strings"

	"github.com/fiatramp/fiatramp-go/types"
)

var generateKYCLinkBody = compileBody[types.KYCLinkRequest]()

// GenerateLink creates a link to the service's hosted KYC page, where the
// customer completes KYC themselves and is then sent to req.RedirectURL:
// POST /cms/api/v1/kyc/generate-link with {"customer_id", "redirect_url"},
// answering {customer_id, url}. A nil CustomerID, or a RedirectURL that
// is not an absolute http or https URL with a host, is refused before
// sending (ErrInvalidRequest). The customer's KYC status then moves as
// with submitted KYC data, and a CUSTOMER webhook says how it ended.
func (s *KYCService) GenerateLink(ctx context.Context, req types.KYCLinkRequest, opts ...RequestOption) (*types.KYCLink, error) {
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	if err := requireWebURL("redirect_url", req.RedirectURL); err != nil {
		return nil, err
	}
	return call[types.KYCLink](ctx, s.client, opKYCGenerateLink.op().with(generateKYCLinkBody(req)), opts)
}

// requireWebURL refuses anything but an absolute http or https URL with a
// host, without white space or control characters.
func requireWebURL(field, raw string) error {
	if strings.TrimSpace(raw) == "" {
		return invalid(field, "is required")
	}
	if strings.IndexFunc(raw, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return invalid(field, "contains white space or a control character")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return invalid(field, "must be an absolute http or https URL, got "+quote(raw))
	}
	return nil
}
