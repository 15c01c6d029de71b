package fiatramp

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// PayoutsAPI is the method set of PayoutsService, for substituting a fake.
type PayoutsAPI interface {
	Create(ctx context.Context, req types.CreatePayoutRequest, opts ...RequestOption) (*types.Payout, error)
	CreatePrefunded(ctx context.Context, req types.CreatePrefundedPayoutRequest, opts ...RequestOption) (*types.PrefundedPayout, error)
	CreateRemittance(ctx context.Context, req types.CreateRemittancePayoutRequest, opts ...RequestOption) (*types.RemittancePayout, error)
	Get(ctx context.Context, payoutID uuid.UUID, opts ...RequestOption) (*types.Payout, error)
	SimulateStatus(ctx context.Context, payoutID uuid.UUID, status types.PayoutStatus, opts ...RequestOption) (*types.PayoutStatusSimulation, error)
}

var _ PayoutsAPI = (*PayoutsService)(nil)

// PayoutsService pays fiat to a customer's bank account against a quotation
// (interface.md §4.1–4.5).
type PayoutsService struct{ client *Client }

// Create initiates a standard payout against a valid, unexpired quotation:
// POST /pos/api/v1/payout/initiate (interface.md §4.2). The payout is paid to
// the bank account attached to the quotation.
func (s *PayoutsService) Create(ctx context.Context, req types.CreatePayoutRequest, opts ...RequestOption) (*types.Payout, error) {
	if err := requireID("quotation_id", req.QuotationID); err != nil {
		return nil, err
	}
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	return call[types.Payout](ctx, s.client, http.MethodPost, posBase+"/payout/initiate", req, opts)
}

// CreatePrefunded creates a payout funded from the organization's prefunded
// balance, which reserves the amount: POST /pos/api/v1/prefunded/payout/initiate
// (interface.md §4.1). Organizations without a prefunded wallet are refused
// with ErrNotEntitled.
func (s *PayoutsService) CreatePrefunded(ctx context.Context, req types.CreatePrefundedPayoutRequest, opts ...RequestOption) (*types.PrefundedPayout, error) {
	if err := requireID("quotation_id", req.QuotationID); err != nil {
		return nil, err
	}
	if err := requireID("customer.sender.id", req.Customer.Sender.ID); err != nil {
		return nil, err
	}
	if err := requireID("customer.receiver.id", req.Customer.Receiver.ID); err != nil {
		return nil, err
	}
	return call[types.PrefundedPayout](ctx, s.client, http.MethodPost, posBase+"/prefunded/payout/initiate", req, opts)
}

// CreateRemittance creates a remittance payout: POST to the remittance payout
// path, DefaultRemittancePayoutPath unless WithRemittancePayoutPath says
// otherwise (interface.md §4.3). TransactionHash is required outside the
// prefunding flow; the service decides, so it is sent only when set.
func (s *PayoutsService) CreateRemittance(ctx context.Context, req types.CreateRemittancePayoutRequest, opts ...RequestOption) (*types.RemittancePayout, error) {
	if err := requireID("quotation_id", req.QuotationID); err != nil {
		return nil, err
	}
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	if err := requireID("remitter_id", req.RemitterID); err != nil {
		return nil, err
	}
	return call[types.RemittancePayout](ctx, s.client, http.MethodPost, s.client.cfg.remittancePath, req, opts)
}

// Get fetches a payout: GET /pos/api/v1/payout/{payout_id} (interface.md §4.4).
func (s *PayoutsService) Get(ctx context.Context, payoutID uuid.UUID, opts ...RequestOption) (*types.Payout, error) {
	if err := requireID("payout_id", payoutID); err != nil {
		return nil, err
	}
	return call[types.Payout](ctx, s.client, http.MethodGet, posBase+"/payout/"+payoutID.String(), nil, opts)
}

// SimulateStatus moves a PROCESSING payout to status, in the sandbox only:
// PATCH /pos/api/v1/payout/mock-payout-status (interface.md §4.5). Payouts in
// any other state are not affected.
func (s *PayoutsService) SimulateStatus(ctx context.Context, payoutID uuid.UUID, status types.PayoutStatus, opts ...RequestOption) (*types.PayoutStatusSimulation, error) {
	if err := requireID("payout_id", payoutID); err != nil {
		return nil, err
	}
	if !status.IsKnown() {
		return nil, invalid("payout_status", "unknown payout status "+quote(string(status)))
	}
	body := struct {
		PayoutID     uuid.UUID          `json:"payout_id"`
		PayoutStatus types.PayoutStatus `json:"payout_status"`
	}{payoutID, status}
	return call[types.PayoutStatusSimulation](ctx, s.client, http.MethodPatch, posBase+"/payout/mock-payout-status", body, opts)
}
