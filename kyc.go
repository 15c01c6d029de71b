package fiatramp

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// KYCAPI is the method set of KYCService, for substituting a fake.
type KYCAPI interface {
	GetConfiguration(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.KYCConfiguration, error)
	SimulateStatus(ctx context.Context, customerID uuid.UUID, status types.KYCStatus, opts ...RequestOption) (*types.KYCStatusSimulation, error)
}

var _ KYCAPI = (*KYCService)(nil)

// KYCService reads a customer's KYC requirements and, in the sandbox,
// simulates KYC outcomes (interface.md §4.7, §4.10).
type KYCService struct{ client *Client }

// GetConfiguration fetches the documents and additional information a
// customer's KYC needs: GET /cms/api/v1/kyc/configuration/{customer_id}
// (interface.md §4.10).
func (s *KYCService) GetConfiguration(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.KYCConfiguration, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	return call[types.KYCConfiguration](ctx, s.client, http.MethodGet, cmsBase+"/kyc/configuration/"+customerID.String(), nil, opts)
}

// SimulateStatus sets a customer's KYC status, in the sandbox only:
// PATCH /cms/api/v1/kyc/mock-kyc-status (interface.md §4.7). The service
// allows only the moves of interface.md §3.2.
func (s *KYCService) SimulateStatus(ctx context.Context, customerID uuid.UUID, status types.KYCStatus, opts ...RequestOption) (*types.KYCStatusSimulation, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	if !status.IsKnown() {
		return nil, invalid("kyc_status", "unknown KYC status "+quote(string(status)))
	}
	body := idStatusBody("customer_id", customerID, "kyc_status", string(status))
	return call[types.KYCStatusSimulation](ctx, s.client, http.MethodPatch, cmsBase+"/kyc/mock-kyc-status", body, opts)
}
