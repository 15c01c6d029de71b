package main

// fiatramp payouts get-limits

import (
	"context"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/google/uuid"
)

func payoutsGetLimitsCommand() *command {
	c := &command{
		name:    "payouts get-limits",
		op:      "Payouts.GetLimits",
		args:    "CUSTOMER_ID",
		summary: "what a customer may still be paid today",
		about: `Fetch a customer's payout limits (GET /ren/api/v1/payout/limits/CUSTOMER_ID)
and print them: the response data as JSON, or a table with -o table. When
is_edd_required is true, "fiatramp payouts save-edd" saves the enhanced due
diligence that lifts them.`,
		example: `fiatramp payouts get-limits 0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01 | jq .available_limit`,
	}
	return withID(c, limitsFields(), func(ctx context.Context, cl *fiatramp.Client, id uuid.UUID) (any, error) {
		return cl.Payouts.GetLimits(ctx, id)
	})
}
