package main

// fiatramp payins get-configuration

import (
	"context"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func payinsGetConfigurationCommand() *command {
	return configCommand("payins", "/pis/api/v1/payin/configuration",
		func(ctx context.Context, cl *fiatramp.Client) (*types.Configuration, error) {
			return cl.Payins.GetConfiguration(ctx)
		})
}
