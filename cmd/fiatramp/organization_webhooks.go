package main

// fiatramp organization set-webhook-url

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

func organizationSetWebhookURLCommand() *command {
	c := &command{
		name:    "organization set-webhook-url",
		op:      "Organization.SetWebhookURL",
		args:    "URL",
		summary: "register the organization's webhook URL",
		about: `Register URL, an absolute http or https URL, as the one address that receives
the organization's webhooks from now on, replacing any earlier one
(POST /org/api/v1/organizations/api-webhooks with {"webhook_url": URL}), and
print the URL the service registered: a JSON string, or the bare URL with
-o table.`,
		example: `fiatramp organization set-webhook-url http://127.0.0.1:8080/webhooks/fiatramp`,
	}
	var cf callFlags
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 1, 1); err != nil {
				return err
			}
			if err := cf.check(s, c); err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, nil, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				got, err := cl.Organization.SetWebhookURL(ctx, args[0])
				if err != nil {
					return nil, err
				}
				return printer(func(s streams, output string) error {
					if output == "table" {
						_, err := fmt.Fprintln(s.out, printable(got))
						return err
					}
					raw, err := json.Marshal(got)
					if err != nil {
						return err
					}
					return writeJSON(s.out, raw)
				}), nil
			})
		}
	}
	return c
}
