package main

// fiatramp kyc config

import (
	"context"

	"github.com/google/uuid"

	fiatramp "github.com/fiatramp/fiatramp-go"
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
	return withID(c, func(ctx context.Context, s streams, cf *callFlags, cl *fiatramp.Client, id uuid.UUID) error {
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
	})
}
