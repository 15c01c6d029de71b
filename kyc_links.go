package fiatramp

import (
	"context"

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

// requireWebURL refuses what checkWebURL refuses.
func requireWebURL(field, raw string) error {
	_, err := checkWebURL(field, raw)
	return err
}
