package fiatramp

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// KYCAPI is the method set of KYCService, for substituting a fake.
// Methods may be added in minor versions: embed KYCAPI in the fake's
// struct so that it keeps compiling.
type KYCAPI interface {
	AddData(ctx context.Context, req types.AddKYCDataRequest, opts ...RequestOption) (*types.KYCResult, error)
	GetConfiguration(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.KYCConfiguration, error)
	GenerateLink(ctx context.Context, req types.KYCLinkRequest, opts ...RequestOption) (*types.KYCLink, error)
	SimulateStatus(ctx context.Context, customerID uuid.UUID, status types.KYCStatus, opts ...RequestOption) (*types.KYCStatusSimulation, error)
	Reset(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.KYCResult, error)
	UpdateAdditionalInfo(ctx context.Context, req types.UpdateAdditionalInfoRequest, opts ...RequestOption) (*types.KYCResult, error)
	UpdateDocumentInfo(ctx context.Context, req types.UpdateDocumentInfoRequest, opts ...RequestOption) (*types.KYCResult, error)
	UpdateSelfie(ctx context.Context, req types.UpdateSelfieRequest, opts ...RequestOption) (*types.KYCResult, error)
	UpdateTaxInfo(ctx context.Context, req types.UpdateTaxInfoRequest, opts ...RequestOption) (*types.KYCResult, error)
}

var _ KYCAPI = (*KYCService)(nil)

// KYCService takes a customer through KYC: what it requires, the
// submission and its updates, the hosted KYC page and, in the sandbox, the
// outcome. Each method's doc names the HTTP call it makes; Operations lists
// them all.
type KYCService struct{ client *Client }

// GetConfiguration fetches the documents and additional information a
// customer's KYC needs: GET /cms/api/v1/kyc/configuration/{customer_id},
// no body. A nil customerID is refused before sending (ErrInvalidRequest).
// A customer that does not exist or belongs to another organization is
// refused with ErrCustomerNotFound ("Customer not found or access denied").
func (s *KYCService) GetConfiguration(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.KYCConfiguration, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	return call[types.KYCConfiguration](ctx, s.client, opKYCGetConfiguration.op(customerID.String()), opts)
}

// kycStatusRequest is the body of the sandbox KYC status simulation.
type kycStatusRequest struct {
	CustomerID uuid.UUID       `json:"customer_id"`
	KYCStatus  types.KYCStatus `json:"kyc_status"`
}

var kycStatusBody = compileBody[kycStatusRequest]()

// SimulateStatus sets a customer's KYC status, in the sandbox only:
// PATCH /cms/api/v1/kyc/mock-kyc-status with {"customer_id", "kyc_status"}.
// A nil customerID or an empty status is refused before sending
// (ErrInvalidRequest); a status not among the KYCStatus constants is sent
// as given (the enum is open: the service decides). The service allows only
// these moves: PROCESSING to VERIFIED, UNVERIFIED,
// TAX_VERIFICATION_FAILED or DOCUMENT_VERIFICATION_FAILED; VERIFIED or
// FAILED back to UNVERIFIED; none out of UNVERIFIED.
func (s *KYCService) SimulateStatus(ctx context.Context, customerID uuid.UUID, status types.KYCStatus, opts ...RequestOption) (*types.KYCStatusSimulation, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	if strings.TrimSpace(string(status)) == "" {
		return nil, invalid("kyc_status", "must not be empty")
	}
	body := kycStatusBody(kycStatusRequest{CustomerID: customerID, KYCStatus: status})
	return call[types.KYCStatusSimulation](ctx, s.client, opKYCSimulateStatus.op().with(body), opts)
}
