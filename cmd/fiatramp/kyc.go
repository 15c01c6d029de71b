package main

// fiatramp kyc get-configuration

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

func kycGetConfigurationCommand() *command {
	c := &command{
		name:    "kyc get-configuration",
		op:      "KYC.GetConfiguration",
		args:    "CUSTOMER_ID",
		summary: "a customer's KYC configuration",
		about: `Fetch a customer's KYC configuration (GET /cms/api/v1/kyc/configuration/CUSTOMER_ID):
the document types accepted and the additional information required.`,
		example: `fiatramp kyc get-configuration $CUSTOMER | jq -r '.supported_document_types[]'`,
	}
	return withID(c, []field{
		f("supported_document_types"),
		f("options", "additional_info_required.options"),
		f("rules", "additional_info_required.rules"),
		f("income_range", "additional_info_required.income_range"),
		f("profession", "additional_info_required.profession"),
	}, func(ctx context.Context, cl *fiatramp.Client, id uuid.UUID) (any, error) {
		return cl.KYC.GetConfiguration(ctx, id)
	})
}

// fiatramp kyc add-data | update-tax | update-document | update-selfie |
// update-additional | reset

// infoFlags collects repeated -info KEY=VALUE flags.
type infoFlags map[string]string

func (m infoFlags) String() string { return "" }
func (m infoFlags) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	m[k] = val
	return nil
}
