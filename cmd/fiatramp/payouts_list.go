package main

// fiatramp payouts list

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"time"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/google/uuid"
)

func payoutsListCommand() *command {
	c := &command{
		name:    "payouts list",
		op:      "Payouts.List",
		summary: "stream the payout history, one JSON object a line",
		about: `Walk the payout history (GET /pos/api/v1/payout/history, following every
page's next link) and print each payout as it arrives: one compact JSON
object a line, so that it pipes into jq; with -o table a row per payout.
The filters are sent as the service's query parameters: -status
(payout_status), -customer (customer_id), -from and -to (start_date and
end_date, YYYY-MM-DD, both or neither). With -o table, a header and one
tab-separated row a payout. -timeout bounds the whole walk.`,
		example: `fiatramp payouts list -customer $CUSTOMER -from 2026-11-01 -to 2026-11-30 | jq -r 'select(.client_reference_id == "order-1") | .id'`,
	}
	var (
		cf     callFlags
		hf     listFilterFlags
		status string
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&status, "status", "", "payout_status, e.g. SUCCESS")
		hf.define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			if err := cf.check(s, c); err != nil {
				return err
			}
			filter := types.PayoutListFilter{Status: types.PayoutStatus(strings.TrimSpace(status))}
			var err error
			if filter.CustomerID, filter.StartDate, filter.EndDate, err = hf.parse(s, c); err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, nil, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				// Printed as the pages arrive, within the call's deadline.
				return printer(func(s streams, output string) error {
					out := bufio.NewWriter(s.out)
					defer out.Flush()
					fields := payoutListFields()
					if output == "table" {
						names := make([]string, len(fields))
						for i, fl := range fields {
							names[i] = strings.ToUpper(fl.label)
						}
						if _, err := out.WriteString(strings.Join(names, "\t") + "\n"); err != nil {
							return err
						}
					}
					for p, err := range cl.Payouts.All(ctx, filter) {
						if err != nil {
							return err
						}
						if output == "table" {
							err = writeRow(out, p.Raw, fields)
						} else {
							err = writeLine(out, p.Raw)
						}
						if err != nil {
							return err
						}
					}
					return nil
				}), nil
			})
		}
	}
	return c
}

// payoutListFields are the columns of payouts list's table.
func payoutListFields() []field {
	return []field{
		f("id"), f("status"), f("client_reference_id"), f("customer_id"), f("asset"), f("sending_amount"),
		f("fiat"), f("receiving_amount", "receiving_amount", "receiveing_amount"),
		f("exchange_order_id"), f("utr"), f("created_at"),
	}
}

// writeLine writes raw compacted on one line.
func writeLine(w *bufio.Writer, raw json.RawMessage) error {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return fmt.Errorf("response data is not JSON: %w", err)
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}

// writeRow writes the fields of raw as one tab-separated row: a table
// that streams, whatever the number of rows.
func writeRow(w *bufio.Writer, raw json.RawMessage, fields []field) error {
	o := objectOf(raw)
	row := make([]string, len(fields))
	for i, fl := range fields {
		row[i] = o.text(fl.names...)
	}
	_, err := w.WriteString(strings.Join(row, "\t") + "\n")
	return err
}

// listFilterFlags are the filters payouts list and payins list share: -customer, and
// -from with -to (YYYY-MM-DD, both or neither).
type listFilterFlags struct{ customer, from, to string }

func (h *listFilterFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&h.customer, "customer", "", "customer_id")
	fs.StringVar(&h.from, "from", "", "start_date, YYYY-MM-DD (with -to)")
	fs.StringVar(&h.to, "to", "", "end_date, YYYY-MM-DD (with -from)")
}

// parse checks the flags before anything is sent: a malformed id or date,
// one date without the other, or a range ending before it starts is a
// misuse (exit 2).
func (h *listFilterFlags) parse(s streams, c *command) (customerID uuid.UUID, start, end time.Time, err error) {
	if h.customer != "" {
		if customerID, err = parseID(s, c, "-customer", h.customer); err != nil {
			return
		}
	}
	if (h.from == "") != (h.to == "") {
		err = misuse(s, c, "-from and -to go together: give both dates or neither")
		return
	}
	if h.from == "" {
		return
	}
	if start, err = time.Parse(types.DateLayout, h.from); err != nil {
		err = misuse(s, c, "-from %q: want a date YYYY-MM-DD", h.from)
		return
	}
	if end, err = time.Parse(types.DateLayout, h.to); err != nil {
		err = misuse(s, c, "-to %q: want a date YYYY-MM-DD", h.to)
		return
	}
	if end.Before(start) {
		err = misuse(s, c, "-to %s is before -from %s", h.to, h.from)
	}
	return
}
