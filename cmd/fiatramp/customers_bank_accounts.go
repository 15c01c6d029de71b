package main

// fiatramp customers bank-accounts | add-bank-account

import (
	"context"
	"encoding/json"
	"flag"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/google/uuid"
)

// bankAccountFields are the rows of a bank account's table.
func bankAccountFields() []field {
	return []field{
		f("id"), f("customer_id"), f("bank_account_type"), f("bank_account_status"),
		f("account_number"), f("ifsc", "ifsc", "ifsc_code"), f("account_name", "account_name", "beneficiary_name"),
		f("vpa"), f("failure_reason"),
	}
}

func customersAddBankAccountCommand() *command {
	c := &command{
		name:    "customers add-bank-account",
		op:      "Customers.AddBankAccount",
		summary: "add a bank account or a UPI address to a verified customer",
		about: `Add a bank account (-account, -ifsc and -name) or a UPI address (-vpa), not
both, to a VERIFIED customer (POST /cms/api/v1/bank/create) and print it: the
response data as JSON, or a table with -o table. The account starts
PROCESSING; a BANK webhook, or fetching it, tells when it is VERIFIED or
FAILED. A customer holds at most three accounts and three UPI addresses. If
the call fails with "already in use" after a retry, the first attempt may
have added it: list the customer's accounts (fiatramp customers bank-accounts).`,
		example: `fiatramp customers add-bank-account -customer $CUSTOMER -account 50100123456789 -ifsc HDFC0001234 -name "Asha Rao"
fiatramp customers add-bank-account -customer $CUSTOMER -vpa asha@okhdfc | jq -r .id`,
	}
	var (
		cf                                 callFlags
		customer, account, ifsc, name, vpa string
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&customer, "customer", "", "customer_id (required)")
		fs.StringVar(&account, "account", "", "account_number, with -ifsc and -name")
		fs.StringVar(&ifsc, "ifsc", "", "the branch's IFSC")
		fs.StringVar(&name, "name", "", "account_name: the holder's name")
		fs.StringVar(&vpa, "vpa", "", "a UPI address instead of an account")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			if err := cf.check(s, c); err != nil {
				return err
			}
			if customer == "" {
				return misuse(s, c, "-customer is required")
			}
			cid, err := parseID(s, c, "-customer", customer)
			if err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, bankAccountFields(), func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.Customers.AddBankAccount(ctx, types.AddBankAccountRequest{
					CustomerID: cid, AccountNumber: account, IFSC: ifsc, AccountName: name, VPA: vpa,
				})
			})
		}
	}
	return c
}

func customersBankAccountsCommand() *command {
	c := &command{
		name:    "customers bank-accounts",
		op:      "Customers.BankAccounts",
		args:    "CUSTOMER_ID",
		summary: "every bank account of a customer, all pages",
		about: `List every bank account of a customer (GET /cms/api/v1/bank/list/CUSTOMER_ID),
following the pages to the end, and print them: one JSON array of the
accounts as sent, or a table with -o table.`,
		example: `fiatramp customers bank-accounts $CUSTOMER | jq -r '.[] | select(.bank_account_status == "VERIFIED") | .id'`,
	}
	return withID(c, nil, func(ctx context.Context, cl *fiatramp.Client, id uuid.UUID) (any, error) {
		// Every page first: a listing that fails halfway prints nothing,
		// so a pipe never takes a partial list for the whole.
		items := []json.RawMessage{}
		for item, err := range cl.Customers.BankAccounts(ctx, id) {
			if err != nil {
				return nil, err
			}
			items = append(items, item.Raw)
		}
		return printer(func(s streams, output string) error {
			if output == "table" {
				rows := make([][]string, 0, len(items))
				for _, raw := range items {
					o := objectOf(raw)
					rows = append(rows, []string{
						o.text("id"), o.text("bank_account_type"), o.text("bank_account_status"),
						o.text("account_number"), o.text("ifsc"), o.text("vpa"), o.text("account_name"),
					})
				}
				return table(s.out, []string{"ID", "TYPE", "STATUS", "ACCOUNT_NUMBER", "IFSC", "VPA", "NAME"}, rows)
			}
			return writeJSONArray(s.out, items)
		}), nil
	})
}
