package main

// fiatramp payouts get-rate

import (
	"context"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func payoutsGetRateCommand() *command {
	return rateCommand("payouts", "/pos/api/v1/payout/fetch-rate",
		func(ctx context.Context, cl *fiatramp.Client, req types.RateRequest) (*types.Rate, error) {
			return cl.Payouts.GetRate(ctx, req)
		})
}
