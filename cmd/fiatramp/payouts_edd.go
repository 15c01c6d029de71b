package main

// fiatramp payouts save-edd

import (
	"context"
	"flag"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

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
