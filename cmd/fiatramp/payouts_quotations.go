package main

// fiatramp payouts create-quotation | get-quotation | link-transfer

import (
	"context"
	"flag"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// payoutQuotationFields are the rows of a payout quotation's table.
func payoutQuotationFields() []field {
	return []field{
		f("id"), f("status"), f("order_id"), f("customer_id"), f("bank_id"),
		f("asset"), f("fiat"), f("network"), f("wallet_address"), f("sending_amount"), f("rate"),
		f("receiving_amount", "receiving_amount", "receiveing_amount"),
		f("created_at"), f("expiry_time"),
	}
}

func payoutsCreateQuotationCommand() *command {
	c := &command{
		name:    "payouts create-quotation",
		op:      "Payouts.CreateQuotation",
		summary: "create a payout quotation",
		about: `Create a payout quotation (POST /pos/api/v1/payout/quotation): lock a rate
for paying -amount of -asset out as -fiat to one of the customer's verified
bank accounts (-bank; not a UPI id), and print the quotation with its
amounts, fees and expiry (5 minutes in the service's examples). -amount is
sent exactly as written, as a decimal string. -network (the on-chain model)
asks for a deposit address. Create the payout with "payouts create
-quotation ID" before the expiry.`,
		example: `fiatramp payouts create-quotation -customer $CUSTOMER -bank $BANK -asset USDT -fiat INR -amount 10.5 | jq -r .id`,
	}
	var (
		cf                                           callFlags
		customer, bank, amount, asset, fiat, network string
		ip, device                                   string
		suspicious, lawEnforcement                   bool
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&customer, "customer", "", "customer_id, the receiving customer (required)")
		fs.StringVar(&bank, "bank", "", "bank_id of the customer's bank account paid to (required)")
		fs.StringVar(&amount, "amount", "", "sending_amount in crypto, a decimal such as 10.5 (required)")
		fs.StringVar(&asset, "asset", "USDT", "asset code")
		fs.StringVar(&fiat, "fiat", "INR", "fiat currency code")
		fs.StringVar(&network, "network", "", "network of the deposit (on-chain model), e.g. TRON")
		fs.StringVar(&ip, "ip", "", "risk_parameters.ip_address")
		fs.StringVar(&device, "device", "", "risk_parameters.device_id")
		fs.BoolVar(&suspicious, "suspicious-activity-report", false, "risk_parameters.suspicious_activity_report")
		fs.BoolVar(&lawEnforcement, "law-enforcement-report", false, "risk_parameters.law_enforcement_agency_report")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			if err := cf.check(s, c); err != nil {
				return err
			}
			if customer == "" || bank == "" || amount == "" {
				return misuse(s, c, "-customer, -bank and -amount are required")
			}
			cid, err := parseID(s, c, "-customer", customer)
			if err != nil {
				return err
			}
			bid, err := parseID(s, c, "-bank", bank)
			if err != nil {
				return err
			}
			amt, err := decimal.NewFromString(amount)
			if err != nil || strings.ContainsAny(amount, "eE") {
				return misuse(s, c, "-amount %q: want a decimal number such as 10.5", amount)
			}
			req := types.CreatePayoutQuotationRequest{
				Asset: asset, Fiat: fiat, SendingAmount: amt, CustomerID: cid, BankID: bid, Network: network,
				RiskParameters: types.RiskParameters{
					IPAddress: ip, DeviceID: device,
					SuspiciousActivityReport: suspicious, LawEnforcementAgencyReport: lawEnforcement,
				},
			}
			return cf.callAndPrint(ctx, s, c, payoutQuotationFields(), func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.Payouts.CreateQuotation(ctx, req)
			})
		}
	}
	return c
}

func payoutsGetQuotationCommand() *command {
	c := &command{
		name:    "payouts get-quotation",
		op:      "Payouts.GetQuotation",
		args:    "QUOTATION_ID",
		summary: "fetch a payout quotation and its status",
		about: `Fetch a payout quotation with its order id and status
(GET /pos/api/v1/payout/quotation/QUOTATION_ID): UNLINKED until a payout is
created on it, then LINKED, or EXPIRED once it expired unused.`,
		example: `fiatramp payouts get-quotation $QUOTATION | jq -r .status`,
	}
	return withID(c, payoutQuotationFields(), func(ctx context.Context, cl *fiatramp.Client, id uuid.UUID) (any, error) {
		return cl.Payouts.GetQuotation(ctx, id)
	})
}

func payoutsLinkTransferCommand() *command {
	c := &command{
		name:    "payouts link-transfer",
		op:      "Payouts.LinkTransfer",
		summary: "record a payout's exchange transfer id",
		about: `Record on the payout of an exchange order the id of the exchange transfer
that funds it (PATCH /pos/api/v1/payout/update-transfer-id) and print the
two ids. The fetched payout shows the transfer id from then on. Repeating
the command sets the same value again.`,
		example: `fiatramp payouts link-transfer -exchange-order EXO-2026-0001 -transfer 770011223344`,
	}
	var (
		cf              callFlags
		order, transfer string
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&order, "exchange-order", "", "exchange_order_id the payout was created with (required)")
		fs.StringVar(&transfer, "transfer", "", "exchange_transfer_id (required)")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			if err := cf.check(s, c); err != nil {
				return err
			}
			if strings.TrimSpace(order) == "" || strings.TrimSpace(transfer) == "" {
				return misuse(s, c, "-exchange-order and -transfer are required")
			}
			return cf.callAndPrint(ctx, s, c, []field{f("exchange_order_id"), f("exchange_transfer_id")}, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.Payouts.LinkTransfer(ctx, types.LinkTransferRequest{ExchangeOrderID: order, ExchangeTransferID: transfer})
			})
		}
	}
	return c
}
