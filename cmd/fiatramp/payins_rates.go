package main

// fiatramp payins get-rate

import (
	"context"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func payinsGetRateCommand() *command {
	return rateCommand("payins", "/pis/api/v1/payin/fetch-rate",
		func(ctx context.Context, cl *fiatramp.Client, req types.RateRequest) (*types.Rate, error) {
			return cl.Payins.GetRate(ctx, req)
		})
}
