package main

// fiatramp customers banks

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

func customersBanksCommand() *command {
	c := &command{
		name:    "customers banks",
		args:    "CUSTOMER_ID",
		summary: "every bank account of a customer, all pages",
		about: `List every bank account of a customer (GET /cms/api/v1/bank/list/CUSTOMER_ID),
following the pages to the end, and print them: one JSON array of the
accounts as sent, or a table with -o table.`,
		example: `fiatramp customers banks $CUSTOMER | jq -r '.[] | select(.bank_account_status == "VERIFIED") | .id'`,
	}
	return withID(c, func(ctx context.Context, s streams, cf *callFlags, cl *fiatramp.Client, id uuid.UUID) error {
		// Every page first: a listing that fails halfway prints nothing,
		// so a pipe never takes a partial list for the whole.
		items := []json.RawMessage{}
		for item, err := range cl.Customers.BankAccounts(ctx, id) {
			if err != nil {
				return err
			}
			items = append(items, item.Raw)
		}
		if cf.output == "table" {
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
	})
}
