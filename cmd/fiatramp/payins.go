package main

// fiatramp payins quote | get

import (
	"context"
	"flag"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// quotationFields are the rows of a payin quotation's table.
func quotationFields() []field {
	return []field{
		f("id"), f("status"), f("order_id"), f("customer_id"), f("bank_id"), f("payment_method"),
		f("asset"), f("fiat"), f("sending_amount"), f("rate"),
		f("receiving_amount", "receiving_amount", "receiveing_amount"),
		f("pay_to_account", "deposit_instructions.account_number"),
		f("pay_to_ifsc", "deposit_instructions.ifsc"),
		f("pay_to_name", "deposit_instructions.account_name"),
		f("deep_link"), f("created_at"), f("expiry_time"),
	}
}

func payinsQuoteCommand() *command {
	c := &command{
		name:    "payins quote",
		summary: "create a payin quotation",
		about: `Create a payin quotation (POST /pis/api/v1/payin/quotation): lock a rate for a
customer paying fiat from one of their bank accounts (-bank: an account of
type bank_account for IMPS, a vpa for UPI), and print the quotation with its
deposit instructions and expiry. -amount is sent exactly as written, as a
decimal string.`,
		example: `fiatramp payins quote -customer $CUSTOMER -bank $VPA -method UPI -asset USDT -fiat INR -amount 2600.50 -o table`,
	}
	var (
		cf                                  callFlags
		customer, bank, amount, asset, fiat string
		method, ip, device                  string
		suspicious, lawEnforcement          bool
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&customer, "customer", "", "customer_id (required)")
		fs.StringVar(&bank, "bank", "", "bank_id the customer pays from (required)")
		fs.StringVar(&amount, "amount", "", "sending_amount in fiat, a decimal such as 2600.50 (required)")
		fs.StringVar(&asset, "asset", "USDT", "asset code")
		fs.StringVar(&fiat, "fiat", "INR", "fiat currency code")
		fs.StringVar(&method, "method", "", "payment_method: IMPS or UPI (required)")
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
			if customer == "" || bank == "" || amount == "" || method == "" {
				return misuse(s, c, "-customer, -bank, -amount and -method are required")
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
				return misuse(s, c, "-amount %q: want a decimal number such as 2600.50", amount)
			}
			req := types.CreatePayinQuotationRequest{
				Asset: asset, Fiat: fiat, SendingAmount: amt, CustomerID: cid, BankID: bid,
				PaymentMethod: types.PaymentMethod(strings.ToUpper(method)),
				RiskParameters: types.RiskParameters{
					IPAddress: ip, DeviceID: device,
					SuspiciousActivityReport: suspicious, LawEnforcementAgencyReport: lawEnforcement,
				},
			}
			cl, ctx, cancel, err := cf.client(ctx, s, c)
			if err != nil {
				return err
			}
			defer cancel()
			q, err := cl.Payins.CreateQuotation(ctx, req)
			if err != nil {
				return err
			}
			return cf.print(s, q.Raw, quotationFields())
		}
	}
	return c
}

func payinsGetCommand() *command {
	c := &command{
		name:    "payins get",
		args:    "QUOTATION_ID",
		summary: "fetch a payin quotation",
		about: `Fetch a payin quotation with its order id and status
(GET /pis/api/v1/payin/quotation/QUOTATION_ID).`,
		example: `fiatramp payins get $QUOTATION | jq -r .expiry_time`,
	}
	return withID(c, func(ctx context.Context, s streams, cf *callFlags, cl *fiatramp.Client, id uuid.UUID) error {
		q, err := cl.Payins.GetQuotation(ctx, id)
		if err != nil {
			return err
		}
		return cf.print(s, q.Raw, quotationFields())
	})
}
