package main

// fiatramp payouts save-edd | payins save-edd

import (
	"context"
	"flag"
	"strings"

	"github.com/google/uuid"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// listFlag is a flag that may be given several times, each adding a value.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// eddFlags are the flags both EDD saves take.
type eddFlags struct {
	customer, source               string
	statements, statementPasswords listFlag
	itrs, itrPasswords             listFlag
	declare                        bool
}

func (e *eddFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&e.customer, "customer", "", "customer_id (required)")
	fs.StringVar(&e.source, "source", "", "source_of_income: SALARY, BUSINESS_INCOME or OTHERS (required)")
	fs.Var(&e.statements, "bank-statement", "a bank statement's absolute http(s) `URL` (repeat for several)")
	fs.Var(&e.statementPasswords, "bank-statement-password", "the password of each -bank-statement, in order (\"\" for none; default: none)")
	fs.Var(&e.itrs, "itr", "an income tax return's absolute http(s) `URL` (repeat for several)")
	fs.Var(&e.itrPasswords, "itr-password", "the password of each -itr, in order (\"\" for none; default: none)")
	fs.BoolVar(&e.declare, "declare", false, "the customer declares the evidence true (required: nothing is sent without it)")
}

// check refuses what the command cannot send, and returns the customer.
func (e *eddFlags) check(s streams, c *command) (uuid.UUID, error) {
	if e.customer == "" || e.source == "" {
		return uuid.Nil, misuse(s, c, "-customer and -source are required")
	}
	if !e.declare {
		return uuid.Nil, misuse(s, c, "-declare is required: the customer declares the evidence true")
	}
	return parseID(s, c, "-customer", e.customer)
}

// passwords is the list given, or nil (one "" per document) when none was.
func passwords(l listFlag) []string {
	if len(l) == 0 {
		return nil
	}
	return l
}

func payoutsSaveEDDCommand() *command {
	c := &command{
		name:    "payouts save-edd",
		op:      "Payouts.SaveEDD",
		summary: "save a customer's enhanced due diligence for payouts",
		about: `Save a customer's enhanced due diligence (POST /ren/api/v1/payout/edd/save),
which, once verified, lifts their payout limits, and print the saved EDD
({"id", "status": "PROCESSING"}) as JSON, or a table with -o table. The
service refuses a customer whose KYC is not verified and one who needs no
EDD ("fiatramp payouts get-limits" says whether one is required).`,
		example: `fiatramp payouts save-edd -customer $CUSTOMER -source SALARY -bank-statement https://files.example/jan.pdf -declare`,
	}
	var (
		cf callFlags
		ef eddFlags
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		ef.define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			id, err := ef.check(s, c)
			if err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, []field{f("id"), f("status")}, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.Payouts.SaveEDD(ctx, types.SavePayoutEDDRequest{
					CustomerID: id, SourceOfIncome: types.SourceOfIncome(ef.source),
					BankStatementURLs: ef.statements, BankStatementPasswords: passwords(ef.statementPasswords),
					ITRReportURLs: ef.itrs, ITRReportPasswords: passwords(ef.itrPasswords),
					Declaration: true,
				})
			})
		}
	}
	return c
}

func payinsSaveEDDCommand() *command {
	c := &command{
		name:    "payins save-edd",
		op:      "Payins.SaveEDD",
		summary: "save a customer's enhanced due diligence for payins",
		about: `Save a customer's enhanced due diligence for payins (POST
/ren/api/v1/payin/edd/save), which, once verified, lifts their payin and
payout limits, and print the saved EDD ({"id", "status": "PROCESSING"}) as
JSON, or a table with -o table. It takes the flags of "fiatramp payouts save-edd"
and the payin's own.`,
		example: `fiatramp payins save-edd -customer $CUSTOMER -source BUSINESS_INCOME -itr https://files.example/itr.pdf -purpose Investment -declare`,
	}
	var (
		cf                                        callFlags
		ef                                        eddFlags
		purpose, operator, operatorName, relation string
		p2p                                       bool
		purposeDocs                               listFlag
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		ef.define(fs)
		fs.StringVar(&purpose, "purpose", "", "what the payins are for")
		fs.StringVar(&operator, "account-operator", "", "who operates the paying account")
		fs.StringVar(&operatorName, "account-operator-name", "", "the account operator's name")
		fs.StringVar(&relation, "relation", "", "relation_with_account_operator")
		fs.BoolVar(&p2p, "p2p", false, "the customer trades peer to peer (p2p_trading_status)")
		fs.Var(&purposeDocs, "purpose-doc", "a document supporting -purpose, absolute http(s) `URL` (repeat for several)")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			id, err := ef.check(s, c)
			if err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, []field{f("id"), f("status")}, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.Payins.SaveEDD(ctx, types.SavePayinEDDRequest{
					CustomerID: id, SourceOfIncome: types.SourceOfIncome(ef.source),
					BankStatementURLs: ef.statements, BankStatementPasswords: passwords(ef.statementPasswords),
					ITRReportURLs: ef.itrs, ITRReportPasswords: passwords(ef.itrPasswords),
					Declaration: true,
					Purpose:     purpose, AccountOperator: operator, AccountOperatorName: operatorName,
					RelationWithAccountOperator: relation, P2PTradingStatus: p2p, SupportingPurposeDocURLs: purposeDocs,
				})
			})
		}
	}
	return c
}
