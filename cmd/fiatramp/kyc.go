package main

// fiatramp kyc config

import (
	"context"
	"flag"
)

func kycConfigCommand() *command {
	c := &command{
		name:    "kyc config",
		args:    "CUSTOMER_ID",
		summary: "a customer's KYC configuration",
		about: `Fetch a customer's KYC configuration (GET /cms/api/v1/kyc/configuration/CUSTOMER_ID):
the document types accepted and the additional information required.`,
		example: `fiatramp kyc config $CUSTOMER | jq -r '.supported_document_types[]'`,
	}
	var cf callFlags
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 1, 1); err != nil {
				return err
			}
			id, err := parseID(s, c, "CUSTOMER_ID", args[0])
			if err != nil {
				return err
			}
			cl, ctx, cancel, err := cf.client(ctx, s, c)
			if err != nil {
				return err
			}
			defer cancel()
			cfg, err := cl.KYC.GetConfiguration(ctx, id)
			if err != nil {
				return err
			}
			return cf.print(s, cfg.Raw, []field{
				f("supported_document_types"),
				f("options", "additional_info_required.options"),
				f("rules", "additional_info_required.rules"),
				f("income_range", "additional_info_required.income_range"),
				f("profession", "additional_info_required.profession"),
			})
		}
	}
	return c
}
