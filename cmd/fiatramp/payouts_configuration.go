package main

// fiatramp payouts get-configuration

import (
	"context"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func payoutsGetConfigurationCommand() *command {
	return configCommand("payouts", "/pos/api/v1/payout/configuration",
		func(ctx context.Context, cl *fiatramp.Client) (*types.Configuration, error) {
			return cl.Payouts.GetConfiguration(ctx)
		})
}
