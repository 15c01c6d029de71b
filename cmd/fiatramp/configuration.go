package main

// What "fiatramp payouts get-configuration" and "payins get-configuration"
// share: the command and its table of limits per fiat, asset and method.

import (
	"context"
	"flag"
	"sort"
	"strings"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// configCommand is "fiatramp SERVICE get-configuration", fetching path through get.
func configCommand(service, path string, get func(context.Context, *fiatramp.Client) (*types.Configuration, error)) *command {
	c := &command{
		name:    service + " get-configuration",
		op:      serviceOf(service) + ".GetConfiguration",
		summary: "what " + service + " support: assets and limits per fiat",
		about: `Fetch the ` + strings.TrimSuffix(service, "s") + ` configuration (GET ` + path + `) and print it:
the response data as JSON (keyed by fiat, or flat from an older deployment),
or with -o table one row per fiat, asset and payment method with the least
and the most one transaction may carry, in units of the asset.`,
		example: `fiatramp ` + service + ` get-configuration -o table`,
	}
	var cf callFlags
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, nil, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				cfg, err := get(ctx, cl)
				if err != nil {
					return nil, err
				}
				return printer(func(s streams, output string) error {
					if output != "table" {
						return writeJSON(s.out, cfg.Raw)
					}
					return table(s.out, []string{"FIAT", "ASSET", "METHOD", "MIN", "MAX"}, configurationRows(cfg))
				}), nil
			})
		}
	}
	return c
}

// configurationRows are the rows of a configuration's table, sorted: one
// per fiat, asset and method (method "*" for limits of every method, and
// min and max "-" for an asset without limits).
func configurationRows(cfg *types.Configuration) [][]string {
	fiats := make([]string, 0, len(cfg.Fiats)+1)
	for code := range cfg.Fiats {
		fiats = append(fiats, code)
	}
	byFiat := cfg.Fiats
	if len(fiats) == 0 {
		// The flat edition: its assets and limits hold for every fiat it
		// names ("*" when it names none).
		flat := types.FiatConfiguration{SupportedAssets: cfg.SupportedAssets, CoinLimits: cfg.CoinLimits}
		codes := cfg.SupportedFiats
		if len(codes) == 0 {
			codes = []string{"*"}
		}
		byFiat = map[string]types.FiatConfiguration{}
		for _, code := range codes {
			byFiat[code] = flat
			fiats = append(fiats, code)
		}
	}
	sort.Strings(fiats)
	var rows [][]string
	for _, fiat := range fiats {
		fc := byFiat[fiat]
		assets := append([]string(nil), fc.SupportedAssets...)
		for a := range fc.CoinLimits {
			if !containsString(assets, a) {
				assets = append(assets, a)
			}
		}
		sort.Strings(assets)
		for _, asset := range assets {
			l, ok := fc.CoinLimits[asset]
			switch {
			case !ok:
				rows = append(rows, []string{printable(fiat), printable(asset), "*", "-", "-"})
			case len(l.ByMethod) == 0:
				rows = append(rows, []string{printable(fiat), printable(asset), "*", l.Min.String(), l.Max.String()})
			default:
				methods := make([]string, 0, len(l.ByMethod))
				for m := range l.ByMethod {
					methods = append(methods, m)
				}
				sort.Strings(methods)
				for _, m := range methods {
					r := l.ByMethod[m]
					rows = append(rows, []string{printable(fiat), printable(asset), printable(m), r.Min.String(), r.Max.String()})
				}
			}
		}
	}
	return rows
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
