package main

// fiatramp widget initialize

import (
	"context"
	"flag"
	"strings"

	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func widgetInitializeCommand() *command {
	c := &command{
		name:    "widget initialize",
		op:      "Widget.Initialize",
		summary: "open a hosted widget session for an order",
		about: `Open a hosted widget session (POST /widget/initialize) for an order and print its
link, which carries a token valid 30 minutes. -amount is sent exactly as
written, as a decimal string. The sandbox's link opens its own page, where a
tester completes or abandons the order.`,
		example: `fiatramp widget initialize -amount 2600.50 -network TRON -method UPI -wallet TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE | jq -r .widget_link`,
	}
	var (
		cf                                 callFlags
		asset, amount, fiat, flow, network string
		method, wallet                     string
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&asset, "asset", "USDT", "asset_code")
		fs.StringVar(&amount, "amount", "", "fiat_amount, a decimal such as 2600.50 (required)")
		fs.StringVar(&fiat, "fiat", "INR", "fiat_currency")
		fs.StringVar(&flow, "flow", "buy", "flow_type")
		fs.StringVar(&network, "network", "", "network_code of the wallet, e.g. TRON (required)")
		fs.StringVar(&method, "method", "", "payment_method, e.g. UPI or IMPS (required)")
		fs.StringVar(&wallet, "wallet", "", "wallet_address that receives the asset (required)")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			if err := cf.check(s, c); err != nil {
				return err
			}
			if amount == "" || network == "" || method == "" || wallet == "" {
				return misuse(s, c, "-amount, -network, -method and -wallet are required")
			}
			amt, err := decimal.NewFromString(amount)
			if err != nil || strings.ContainsAny(amount, "eE") {
				return misuse(s, c, "-amount %q: want a decimal number such as 2600.50", amount)
			}
			req := types.WidgetRequest{
				AssetCode: asset, FiatAmount: amt, FiatCurrency: fiat, FlowType: types.WidgetFlowType(flow),
				NetworkCode: network, PaymentMethod: types.PaymentMethod(strings.ToUpper(method)), WalletAddress: wallet,
			}
			return cf.callAndPrint(ctx, s, c, []field{f("widget_link")}, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.Widget.Initialize(ctx, req)
			})
		}
	}
	return c
}
