package main

// What "fiatramp payouts get-rate" and "payins get-rate" share.

import (
	"context"
	"flag"
	"strings"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// rateCommand is "fiatramp SERVICE get-rate", fetching path through get.
func rateCommand(service, path string, get func(context.Context, *fiatramp.Client, types.RateRequest) (*types.Rate, error)) *command {
	c := &command{
		name:    service + " get-rate",
		op:      serviceOf(service) + ".GetRate",
		summary: "the indicative exchange rate of a " + strings.TrimSuffix(service, "s"),
		about: `Fetch the exchange rate, fiat per unit of asset (GET ` + path + `?asset=&fiat=,
with network= when -network is given), and print it: the response data as
JSON, or a table with -o table. The rate a ` + strings.TrimSuffix(service, "s") + ` is made at is the one
its quotation locks.`,
		example: `fiatramp ` + service + ` get-rate -asset USDT -fiat INR | jq -r .rate`,
	}
	var (
		cf                   callFlags
		asset, fiat, network string
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&asset, "asset", "", "asset code, e.g. USDT (required)")
		fs.StringVar(&fiat, "fiat", "", "fiat currency code, e.g. INR (required)")
		fs.StringVar(&network, "network", "", "the asset's network (on-chain deployments)")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			if strings.TrimSpace(asset) == "" || strings.TrimSpace(fiat) == "" {
				return misuse(s, c, "-asset and -fiat are required")
			}
			return cf.callAndPrint(ctx, s, c, []field{f("asset"), f("fiat"), f("rate"), f("network")}, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return get(ctx, cl, types.RateRequest{Asset: asset, Fiat: fiat, Network: network})
			})
		}
	}
	return c
}
