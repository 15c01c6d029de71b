package fiatramp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

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
	Balance(ctx context.Context, opts ...RequestOption) (*types.Balance, error)
	Wait(ctx context.Context, payoutID uuid.UUID, opts ...WaitOption) (*types.Payout, error)
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
	ref, err := s.client.reference(&req.ClientReferenceID)
	if err != nil {
		return nil, err
	}
	p, err := callOp[types.Payout](ctx, s.client, payoutCreate(posBase+"/payout/initiate", createPayoutBody(req), ref, req.QuotationID), opts)
	if err != nil {
		return nil, err
	}
	fillReference(&p.ClientReferenceID, ref)
	return p, nil
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
	ref, err := s.client.reference(&req.ClientReferenceID)
	if err != nil {
		return nil, err
	}
	p, err := callOp[types.PrefundedPayout](ctx, s.client, payoutCreate(posBase+"/prefunded/payout/initiate", createPrefundedPayoutBody(req), ref, req.QuotationID), opts)
	if err != nil {
		return nil, err
	}
	fillReference(&p.ClientReferenceID, ref)
	return p, nil
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
	ref, err := s.client.reference(&req.ClientReferenceID)
	if err != nil {
		return nil, err
	}
	p, err := callOp[types.RemittancePayout](ctx, s.client, payoutCreate(s.client.cfg.remittancePath, createRemittancePayoutBody(req), ref, req.QuotationID), opts)
	if err != nil {
		return nil, err
	}
	fillReference(&p.ClientReferenceID, ref)
	return p, nil
}

// reference gives a payout create its client_reference_id: the caller's
// (*ref), else a generated one written into *ref, else "" when generation
// is off.
func (c *Client) reference(ref *string) (string, error) {
	if *ref != "" || c.cfg.newReference == nil {
		return *ref, nil
	}
	gen, err := c.cfg.newReference()
	if err != nil {
		return "", fmt.Errorf("fiatramp: generating client_reference_id: %w", err)
	}
	if strings.TrimSpace(gen) == "" {
		return "", errors.New("fiatramp: generating client_reference_id: the generator returned an empty reference")
	}
	*ref = gen
	return gen, nil
}

// payoutCreate describes a payout create: guarded by its reference when it
// has one, else never repeated once an attempt may have reached the
// service.
func payoutCreate(path string, payload []byte, ref string, quotationID uuid.UUID) operation {
	op := operation{method: http.MethodPost, path: path, payload: payload, safety: guarded, reference: ref, quotationID: quotationID}
	if ref == "" {
		op.safety = oneShot
	}
	return op
}

// fillReference sets a result's client_reference_id to the one sent when
// the response left it out.
func fillReference(dst **string, ref string) {
	if *dst == nil && ref != "" {
		*dst = &ref
	}
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
	body := idStatusBody("payout_id", payoutID, "payout_status", string(status))
	return call[types.PayoutStatusSimulation](ctx, s.client, http.MethodPatch, posBase+"/payout/mock-payout-status", body, opts)
}

// Balance fetches the organization's prefunded balance, the amount
// available per asset: GET /pos/api/v1/payout/balance. Amounts are
// decimals, exactly as sent. Organizations without a prefunded wallet are
// refused with ErrNotEntitled. An answer without available_balance (absent
// or null) is refused with an error matching ErrMalformedResponse: an
// unknown balance is not zero, which a nil map would read as.
func (s *PayoutsService) Balance(ctx context.Context, opts ...RequestOption) (*types.Balance, error) {
	b, err := call[balanceData](ctx, s.client, http.MethodGet, posBase+"/payout/balance", nil, opts)
	if err != nil {
		return nil, err
	}
	return &b.Balance, nil
}

// balanceData decodes the balance's data as types.Balance does, and also
// requires available_balance.
type balanceData struct{ types.Balance }

func (b *balanceData) UnmarshalJSON(data []byte) error {
	var out types.Balance
	if err := out.UnmarshalJSON(data); err != nil {
		return err
	}
	if out.AvailableBalance == nil {
		return errors.New("types.Balance: available_balance is absent or null (an unknown balance is not zero)")
	}
	b.Balance = out
	return nil
}
