package main

// fiatramp kyc generate-link

import (
	"context"
	"flag"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func kycGenerateLinkCommand() *command {
	c := &command{
		name:    "kyc generate-link",
		op:      "KYC.GenerateLink",
		args:    "CUSTOMER_ID",
		summary: "a hosted KYC page link for a customer",
		about: `Create a link to the hosted KYC page (POST /cms/api/v1/kyc/generate-link), where
the customer completes KYC and is then sent to -redirect, an absolute http
or https URL. The sandbox's link opens its own page, where a tester approves
or declines the customer.`,
		example: `fiatramp kyc generate-link -redirect https://shop.example/kyc-done $CUSTOMER | jq -r .url`,
	}
	var (
		cf       callFlags
		redirect string
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&redirect, "redirect", "", "redirect_url: where the page sends the customer when done (required)")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 1, 1); err != nil {
				return err
			}
			if err := cf.check(s, c); err != nil {
				return err
			}
			id, err := parseID(s, c, c.args, args[0])
			if err != nil {
				return err
			}
			if redirect == "" {
				return misuse(s, c, "-redirect is required")
			}
			return cf.callAndPrint(ctx, s, c, []field{f("customer_id"), f("url")}, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.KYC.GenerateLink(ctx, types.KYCLinkRequest{CustomerID: id, RedirectURL: redirect})
			})
		}
	}
	return c
}
