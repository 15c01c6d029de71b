package main

// fiatramp payouts get | get-balance | create

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"sort"

	"github.com/google/uuid"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// payoutFields are the rows of a payout's table.
func payoutFields() []field {
	return []field{
		f("id"), f("status"), f("client_reference_id"), f("quotation_id"), f("customer_id"), f("bank_id"),
		f("asset"), f("fiat"), f("rate"), f("sending_amount"),
		f("receiving_amount", "receiving_amount", "receiveing_amount"),
		f("exchange_order_id"), f("utr"), f("failure_reason"), f("created_at"), f("updated_at"),
	}
}

func payoutsGetCommand() *command {
	c := &command{
		name:    "payouts get",
		op:      "Payouts.Get",
		args:    "PAYOUT_ID",
		summary: "fetch a payout",
		about: `Fetch a payout (GET /pos/api/v1/payout/PAYOUT_ID) and print it: the
response data as JSON, or a table with -o table.`,
		example: `fiatramp payouts get 3f0c1a52-8f43-4bd4-9a51-0d5e4c7e2b11 | jq -r .status`,
	}
	return withID(c, payoutFields(), func(ctx context.Context, cl *fiatramp.Client, id uuid.UUID) (any, error) {
		return cl.Payouts.Get(ctx, id)
	})
}

// balancePath is the path of the prefunded balance operation,
// GET /pos/api/v1/payout/balance, as the service's public documentation
// gives it.
const balancePath = "/pos/api/v1/payout/balance"

func payoutsGetBalanceCommand() *command {
	c := &command{
		name:    "payouts get-balance",
		op:      "Payouts.GetBalance",
		summary: "the prefunded balance per asset",
		about: `Fetch the organization's prefunded balance (GET ` + balancePath + `) and
print it: the response data as JSON ({"available_balance": {"USDT": "1000"}},
amounts exactly as sent), or a table with -o table. Organizations without a
prefunded wallet are refused (ErrNotEntitled).`,
		example: `fiatramp payouts get-balance -o table`,
	}
	var cf callFlags
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, nil, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				// Decoded to check the shape (every amount a decimal);
				// printed from the JSON as sent.
				b, err := cl.Payouts.GetBalance(ctx)
				if err != nil {
					return nil, err
				}
				if b.AvailableBalance == nil {
					return nil, fmt.Errorf("balance response: want data {\"available_balance\": {ASSET: amount}}, got %s", excerpt(b.Raw))
				}
				return printer(func(s streams, output string) error { return printBalance(s, output, b.Raw) }), nil
			})
		}
	}
	return c
}

// printBalance prints a balance's JSON as sent, or with -o table a row
// per asset.
func printBalance(s streams, output string, raw json.RawMessage) error {
	if output != "table" {
		return writeJSON(s.out, raw)
	}
	amounts := objectOf(objectOf(raw)["available_balance"])
	assets := make([]string, 0, len(amounts))
	for a := range amounts {
		assets = append(assets, a)
	}
	sort.Strings(assets)
	rows := make([][]string, 0, len(assets))
	for _, a := range assets {
		rows = append(rows, []string{printable(a), amounts.text(a)})
	}
	return table(s.out, []string{"ASSET", "AVAILABLE"}, rows)
}

// excerpt is the start of raw, for a message.
func excerpt(raw []byte) string {
	const max = 200
	if len(raw) > max {
		return printable(string(raw[:max])) + "..."
	}
	return printable(string(raw))
}

func payoutsCreateCommand() *command {
	c := &command{
		name:    "payouts create",
		op:      "Payouts.Create",
		summary: "create a standard payout (asks first)",
		about: `Create a standard payout (POST /pos/api/v1/payout/initiate) against a
quotation, paid to the quotation's bank account, and print it.

This moves money: the command asks for confirmation on a terminal, and
without one it refuses unless --yes is given. Every create carries a
client_reference_id (-reference, or a generated one). If the outcome is
unknown (exit status 3: the connection broke, the service answered 5xx)
the payout may exist: repeat the same command with the printed reference,
which cannot pay twice.`,
		example: `fiatramp payouts create -quotation $QUOTATION -customer $CUSTOMER -reference order-1 --yes`,
	}
	var (
		cf                                   callFlags
		quotation, customer, ref, exchangeID string
		yes                                  bool
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&quotation, "quotation", "", "quotation_id (required)")
		fs.StringVar(&customer, "customer", "", "customer_id, the quotation's customer (required)")
		fs.StringVar(&ref, "reference", "", "client_reference_id, unique per organization (default: generated)")
		fs.StringVar(&exchangeID, "exchange-order", "", "exchange_order_id")
		fs.BoolVar(&yes, "yes", false, "create without asking")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			if err := cf.check(s, c); err != nil {
				return err
			}
			if quotation == "" || customer == "" {
				return misuse(s, c, "-quotation and -customer are required")
			}
			qid, err := parseID(s, c, "-quotation", quotation)
			if err != nil {
				return err
			}
			cid, err := parseID(s, c, "-customer", customer)
			if err != nil {
				return err
			}
			if ref == "" {
				// Generated here rather than by the library, so that the
				// confirmation and a reconciliation can name it.
				ref = newReference()
			}
			req := types.CreatePayoutRequest{QuotationID: qid, CustomerID: cid, ClientReferenceID: ref, ExchangeOrderID: exchangeID}
			question := func(base string) string {
				return fmt.Sprintf("Create a payout of quotation %s for customer %s (client_reference_id %s) at %s?",
					qid, cid, printable(ref), base)
			}
			return cf.confirmAndCall(ctx, s, c, !yes, question, payoutFields(), func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.Payouts.Create(ctx, req)
			})
		}
	}
	return c
}

// newReference is a client_reference_id for a create given none.
func newReference() string { return "cli-" + uuid.NewString() }
