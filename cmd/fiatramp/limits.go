package main

// fiatramp payouts get-limits | payins get-limits

import (
	"context"

	"github.com/google/uuid"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// limitsFields are the rows of a limits table.
func limitsFields() []field {
	return []field{
		f("daily_limit", "daily_limit", "maximum_daily_limit"),
		f("available_limit", "available_limit", "available_daily_limit"),
		f("payment_method_limits"),
		f("full_limit_reset_timestamp"), f("is_edd_required"), f("is_limit_increase_available"),
	}
}

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

func payinsGetLimitsCommand() *command {
	c := &command{
		name:    "payins get-limits",
		op:      "Payins.GetLimits",
		args:    "CUSTOMER_ID",
		summary: "what a customer may still pay in today",
		about: `Fetch a customer's payin limits (GET /ren/api/v1/payin/limits/CUSTOMER_ID)
and print them: the response data as JSON, or a table with -o table. When
is_edd_required is true, "fiatramp payins save-edd" saves the enhanced due
diligence that lifts them.`,
		example: `fiatramp payins get-limits 0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01 -o table`,
	}
	return withID(c, limitsFields(), func(ctx context.Context, cl *fiatramp.Client, id uuid.UUID) (any, error) {
		return cl.Payins.GetLimits(ctx, id)
	})
}
