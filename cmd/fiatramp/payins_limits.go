package main

// fiatramp payins get-limits

import (
	"context"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/google/uuid"
)

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
