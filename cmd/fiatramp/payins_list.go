package main

// fiatramp payins list

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func payinsListCommand() *command {
	c := &command{
		name:    "payins list",
		op:      "Payins.List",
		summary: "the payin history, one JSON object per line",
		about: `List the organization's payins (GET /pis/api/v1/payin/history), following the
pages to the end, and print each payin as sent on a line of its own, so that
it pipes into jq; -o table prints a table once every page is read. Filters:
-status, -customer, and -from with -to (YYYY-MM-DD, both or neither).
A listing that fails part way exits 1 after the lines already printed.`,
		example: `fiatramp payins list -customer $CUSTOMER -status SUCCESS | jq -r .utr`,
	}
	var (
		cf     callFlags
		hf     listFilterFlags
		status string
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&status, "status", "", "payin_status: PROCESSING, SUCCESS, FAILED, ON_HOLD, REFUND_INITIATED, REFUNDED")
		hf.define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			if err := cf.check(s, c); err != nil {
				return err
			}
			filter := types.PayinListFilter{Status: types.PayinStatus(strings.ToUpper(status))}
			var err error
			if filter.CustomerID, filter.StartDate, filter.EndDate, err = hf.parse(s, c); err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, nil, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				// Printed as the pages arrive, within the call's deadline.
				return printer(func(s streams, output string) error {
					var rows [][]string
					for p, err := range cl.Payins.All(ctx, filter) {
						if err != nil {
							return err
						}
						if output == "table" {
							o := objectOf(p.Raw)
							rows = append(rows, []string{o.text("id"), o.text("status"), o.text("utr"), o.text("sending_amount"),
								o.text("fiat"), o.text("customer_id"), o.text("created_at")})
							continue
						}
						var line bytes.Buffer
						if err := json.Compact(&line, p.Raw); err != nil {
							return fmt.Errorf("response data is not JSON: %w", err)
						}
						line.WriteByte('\n')
						if _, err := s.out.Write(line.Bytes()); err != nil {
							return err
						}
					}
					if output == "table" {
						return table(s.out, []string{"ID", "STATUS", "UTR", "AMOUNT", "FIAT", "CUSTOMER", "CREATED_AT"}, rows)
					}
					return nil
				}), nil
			})
		}
	}
	return c
}
