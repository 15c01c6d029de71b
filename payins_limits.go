package fiatramp

import (
	"context"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// GetLimits fetches a customer's payin limits: GET
// /ren/api/v1/payin/limits/{customer_id}, no body, answered in the payout
// limits' shape. An older deployment served them at GET
// /pis/api/v1/payin/limit/{customer_id} with maximum_daily_limit and
// available_daily_limit; types.Limits reads that answer too, so a caller
// facing such a deployment reaches it through Client.Do with a
// *types.Limits.
//
// A nil customerID is refused before sending (ErrInvalidRequest); the
// service's refusals are those of PayoutsService.GetLimits. An answer without
// available_limit (in either spelling) is refused with an error matching
// ErrMalformedResponse.
func (s *PayinsService) GetLimits(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.Limits, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	return call[types.Limits](ctx, s.client, opPayinsGetLimits.op(customerID.String()), opts)
}
