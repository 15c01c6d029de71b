package fiatramp

import (
	"context"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// renBase is the path prefix of limits and enhanced due diligence.
const renBase = "/ren/api/v1"

// GetLimits fetches a customer's payout limits: GET
// /ren/api/v1/payout/limits/{customer_id}, no body. The answer says what
// is left of the daily limit (AvailableLimit, overall and per payment
// method), when it resets, and whether an enhanced due diligence is
// required (IsEDDRequired: see SaveEDD) or would raise it.
//
// A nil customerID is refused before sending (ErrInvalidRequest). The
// service refuses a customer that is absent or another organization's
// ("Customer not found or access denied", ErrCustomerNotFound). An answer
// without available_limit (in either spelling) is refused with an error
// matching ErrMalformedResponse: an unknown limit is not zero.
func (s *PayoutsService) GetLimits(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.Limits, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	return call[types.Limits](ctx, s.client, opPayoutsGetLimits.op(customerID.String()), opts)
}

// limitsKnownBy is what limits are known by: what is available.
func limitsKnownBy() resultRule {
	return requires(need("available_limit", func(l *types.Limits) bool { return l.AvailableLimit == nil }))
}
