package main

// fiatramp payins create-quotation | get-quotation | initiate | get |
// link-transfer | simulate-status

import (
	"context"
	"flag"
	"fmt"
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

func payinsCreateQuotationCommand() *command {
	c := &command{
		name:    "payins create-quotation",
		op:      "Payins.CreateQuotation",
		summary: "create a payin quotation",
		about: `Create a payin quotation (POST /pis/api/v1/payin/quotation): lock a rate for a
customer paying fiat from one of their bank accounts (-bank: an account of
type bank_account for IMPS, a vpa for UPI), and print the quotation with its
deposit instructions and expiry. -amount is sent exactly as written, as a
decimal string.`,
		example: `fiatramp payins create-quotation -customer $CUSTOMER -bank $VPA -method UPI -asset USDT -fiat INR -amount 2600.50 -o table`,
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
			return cf.callAndPrint(ctx, s, c, quotationFields(), func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.Payins.CreateQuotation(ctx, req)
			})
		}
	}
	return c
}

func payinsGetQuotationCommand() *command {
	c := &command{
		name:    "payins get-quotation",
		op:      "Payins.GetQuotation",
		args:    "QUOTATION_ID",
		summary: "fetch a payin quotation",
		about: `Fetch a payin quotation with its order id and status
(GET /pis/api/v1/payin/quotation/QUOTATION_ID).`,
		example: `fiatramp payins get-quotation $QUOTATION | jq -r .expiry_time`,
	}
	return withID(c, quotationFields(), func(ctx context.Context, cl *fiatramp.Client, id uuid.UUID) (any, error) {
		return cl.Payins.GetQuotation(ctx, id)
	})
}

// payinFields are the rows of a payin's table.
func payinFields() []field {
	return []field{
		f("id"), f("status"), f("quotation_id"), f("customer_id"), f("client_reference_id"), f("utr"),
		f("asset"), f("fiat"), f("sending_amount"), f("rate"),
		f("receiving_amount", "receiving_amount", "receiveing_amount"),
		f("exchange_transfer_id"), f("failure_reason"), f("refund_reason"), f("created_at"), f("updated_at"),
	}
}

func payinsInitiateCommand() *command {
	c := &command{
		name:    "payins initiate",
		op:      "Payins.Initiate",
		summary: "record a payin by its UTR (asks first)",
		about: `Initiate a payin (POST /pis/api/v1/payin/initiate) once the customer has paid
the quoted amount from their own account: -utr is the bank transfer's
reference (12 characters, used once). Prints the payin with its own id.

This records money received: the command asks for confirmation on a
terminal, and without one it refuses unless --yes is given. Every initiate
carries a client_reference_id (-reference, or a generated one). If the
outcome is unknown (exit status 3) the payin may exist: repeat the same
command with the printed reference and the same UTR, which cannot record
twice, or look for the UTR in "fiatramp payins list -customer ID".`,
		example: `fiatramp payins initiate -quotation $QUOTATION -customer $CUSTOMER -utr 123456789012 -reference order-1 --yes`,
	}
	var (
		cf                            callFlags
		quotation, customer, utr, ref string
		yes                           bool
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&quotation, "quotation", "", "quotation_id of the payin quotation (required)")
		fs.StringVar(&customer, "customer", "", "customer_id, the quotation's customer (required)")
		fs.StringVar(&utr, "utr", "", "utr of the customer's bank transfer (required)")
		fs.StringVar(&ref, "reference", "", "client_reference_id, unique per organization (default: generated)")
		fs.BoolVar(&yes, "yes", false, "initiate without asking")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			if err := cf.check(s, c); err != nil {
				return err
			}
			if quotation == "" || customer == "" || strings.TrimSpace(utr) == "" {
				return misuse(s, c, "-quotation, -customer and -utr are required")
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
				// Generated here, so that the confirmation and a
				// reconciliation can name it.
				ref = newReference()
			}
			question := func(base string) string {
				return fmt.Sprintf("Initiate a payin of quotation %s for customer %s with UTR %s (client_reference_id %s) at %s?",
					qid, cid, printable(utr), printable(ref), base)
			}
			return cf.confirmAndCall(ctx, s, c, !yes, question, payinFields(), func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.Payins.Initiate(ctx, types.InitiatePayinRequest{QuotationID: qid, CustomerID: cid, UTR: utr, ClientReferenceID: ref})
			})
		}
	}
	return c
}

func payinsGetCommand() *command {
	c := &command{
		name:    "payins get",
		op:      "Payins.Get",
		args:    "PAYIN_ID",
		summary: "fetch a payin",
		about: `Fetch a payin by its own id (GET /pis/api/v1/payin/PAYIN_ID): status, UTR,
exchange transfer id, failure and refund reasons.`,
		example: `fiatramp payins get $PAYIN | jq -r .status`,
	}
	return withID(c, payinFields(), func(ctx context.Context, cl *fiatramp.Client, id uuid.UUID) (any, error) {
		return cl.Payins.Get(ctx, id)
	})
}

func payinsLinkTransferCommand() *command {
	c := &command{
		name:    "payins link-transfer",
		op:      "Payins.LinkTransfer",
		summary: "store a payin's exchange transfer id",
		about: `Store the exchange transfer that delivered a payin's asset
(PATCH /pis/api/v1/payin/update-transfer-id) and print the link. A repeat
sets the same value again.`,
		example: `fiatramp payins link-transfer -payin $PAYIN -transfer 778899`,
	}
	var (
		cf                callFlags
		payinID, transfer string
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&payinID, "payin", "", "payin_id (required)")
		fs.StringVar(&transfer, "transfer", "", "exchange_transfer_id (required)")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			if err := cf.check(s, c); err != nil {
				return err
			}
			if payinID == "" || strings.TrimSpace(transfer) == "" {
				return misuse(s, c, "-payin and -transfer are required")
			}
			id, err := parseID(s, c, "-payin", payinID)
			if err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, []field{f("payin_id"), f("exchange_transfer_id")}, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.Payins.LinkTransfer(ctx, types.LinkPayinTransferRequest{PayinID: id, ExchangeTransferID: transfer})
			})
		}
	}
	return c
}

func payinsSimulateStatusCommand() *command {
	c := &command{
		name:    "payins simulate-status",
		op:      "Payins.SimulateStatus",
		args:    "PAYIN_ID",
		summary: "move a payin to a status (sandbox only)",
		about: `Move a payin to -status in the sandbox (PATCH /pis/api/v1/payin/mock-payin-status
with the payin's own id): PROCESSING to SUCCESS, FAILED or ON_HOLD, FAILED
to REFUND_INITIATED, then REFUNDED. Each move sends the PAYIN webhook.`,
		example: `fiatramp payins simulate-status $PAYIN -status SUCCESS`,
	}
	var status string
	c = withID(c, []field{f("payin_id"), f("payin_status")}, func(ctx context.Context, cl *fiatramp.Client, id uuid.UUID) (any, error) {
		return cl.Payins.SimulateStatus(ctx, id, types.PayinStatus(strings.ToUpper(status)))
	})
	setup := c.setup
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		fs.StringVar(&status, "status", "", "payin_status to move to (required)")
		run := setup(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if strings.TrimSpace(status) == "" {
				return misuse(s, c, "-status is required")
			}
			return run(ctx, s, args)
		}
	}
	return c
}
