package main

// fiatramp payins save-edd

import (
	"context"
	"flag"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

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
