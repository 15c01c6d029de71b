package main

// fiatramp payouts reconcile

import (
	"context"
	"encoding/json"
	"flag"
	"strings"
	"time"

	"github.com/google/uuid"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// reconcileDate is how -from and -to are written: a UTC day.
const reconcileDate = "2006-01-02"

func payoutsReconcileCommand() *command {
	c := &command{
		name:    "payouts reconcile",
		summary: "settle a payout create whose outcome is unknown (reads only)",
		about: `Settle the outcome of a payout create that exited with status 3 (outcome
unknown), with reads only. The quotation (GET
/pos/api/v1/payout/quotation/QUOTATION_ID) settles most outcomes in one
read: UNLINKED or EXPIRED proves no payout was made on it; a LINKED one
is looked up in the newest page of the customer's payout history over the
quotation's days (GET /pos/api/v1/payout/history), matched on the
client_reference_id. It prints
{"verdict", "reason", "requests", "payout", "quotation_status"}:

  created      the payout with the reference exists ("payout" holds it)
  not_created  nothing holds the reference: create again with the SAME
               -reference (if the lost attempt still lands, the service
               refuses whichever comes second)
  unknown      the reads settle nothing yet (exit status 3): run it again
               later; never create again under another reference

-customer is needed only without -quotation (the quotation names its
customer). Without -quotation the history can find the payout but never
prove that none exists. -from and -to (YYYY-MM-DD, both or neither) bound
the days searched for the reference alone, a day wider each side.
-likely-created reads the newest page first (the create's error said an
attempt probably acted); it changes the order of the reads, never the
verdict. A create that exits 3 prints this command with every flag filled.`,
		example: `fiatramp payouts reconcile -reference order-1 -customer $CUSTOMER -quotation $QUOTATION -from 2026-11-27 -to 2026-11-27 | jq -r .verdict`,
	}
	var (
		cf callFlags
		af attemptFlags
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		fs.DurationVar(&cf.timeout, "timeout", defaultTimeout, "give up after this `duration`, every read and retry included")
		cf.defineClock(fs)
		cf.output = "json"
		af.define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			a, err := af.attempt(s, c)
			if err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, nil, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				r, err := cl.Payouts.Reconcile(ctx, a)
				if err != nil {
					return nil, err
				}
				return printer(func(s streams, _ string) error { return printReconciliation(s, a, r) }), nil
			})
		}
	}
	return c
}

// attemptFlags describe the payout create to settle.
type attemptFlags struct {
	ref, customer, quotation, from, to string
	likely                             bool
}

func (f *attemptFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.ref, "reference", "", "client_reference_id the create carried (required)")
	fs.StringVar(&f.customer, "customer", "", "customer_id of the payout (required without -quotation)")
	fs.StringVar(&f.quotation, "quotation", "", "quotation_id of the payout (needed to prove that none exists)")
	fs.StringVar(&f.from, "from", "", "first `day` of the attempts, YYYY-MM-DD (UTC)")
	fs.StringVar(&f.to, "to", "", "last `day` of the attempts, YYYY-MM-DD (UTC)")
	fs.BoolVar(&f.likely, "likely-created", false, "an attempt probably created the payout: read the newest history page first")
}

// attempt is the create the flags describe; -from and -to cover their
// whole days.
func (f *attemptFlags) attempt(s streams, c *command) (fiatramp.PayoutAttempt, error) {
	if f.ref == "" {
		return fiatramp.PayoutAttempt{}, misuse(s, c, "-reference is required")
	}
	if f.customer == "" && f.quotation == "" {
		return fiatramp.PayoutAttempt{}, misuse(s, c, "-customer is required without -quotation")
	}
	a := fiatramp.PayoutAttempt{ClientReferenceID: f.ref, LikelyCreated: f.likely}
	var err error
	if f.customer != "" {
		if a.CustomerID, err = parseID(s, c, "-customer", f.customer); err != nil {
			return a, err
		}
	}
	if f.quotation != "" {
		if a.QuotationID, err = parseID(s, c, "-quotation", f.quotation); err != nil {
			return a, err
		}
	}
	if (f.from == "") != (f.to == "") {
		return a, misuse(s, c, "-from and -to go together: give both or neither")
	}
	if f.from != "" {
		from, ferr := time.Parse(reconcileDate, f.from)
		to, terr := time.Parse(reconcileDate, f.to)
		if ferr != nil || terr != nil {
			return a, misuse(s, c, "-from %q -to %q: want YYYY-MM-DD", f.from, f.to)
		}
		a.From, a.To = from, to.Add(24*time.Hour-time.Nanosecond)
	}
	return a, nil
}

// printReconciliation prints r as {"verdict", "reason", "requests",
// "payout", "quotation_status"}; an unknown verdict is an unsettledError
// naming the command that tries again.
func printReconciliation(s streams, a fiatramp.PayoutAttempt, r *fiatramp.PayoutReconciliation) error {
	out := struct {
		Verdict         fiatramp.ReconcileVerdict `json:"verdict"`
		Reason          string                    `json:"reason"`
		Requests        int                       `json:"requests"`
		Payout          json.RawMessage           `json:"payout"`
		QuotationStatus *string                   `json:"quotation_status"`
	}{Verdict: r.Verdict, Reason: r.Reason, Requests: r.Requests, Payout: json.RawMessage("null")}
	if r.Payout != nil && len(r.Payout.Raw) > 0 {
		out.Payout = r.Payout.Raw
	}
	if r.Quotation != nil {
		status := string(r.Quotation.Status)
		out.QuotationStatus = &status
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return err
	}
	if err := writeJSON(s.out, raw); err != nil {
		return err
	}
	if r.Verdict == fiatramp.ReconcileUnknown {
		return &unsettledError{command: reconcileCommandLine(a)}
	}
	return nil
}

// unsettledError is a reconciliation that settled nothing: exit status 3,
// with the command to run again.
type unsettledError struct{ command string }

func (e *unsettledError) Error() string {
	return "the outcome is still unknown; run again later: " + e.command
}

// reconcileCommandLine is the command that settles the payout create a.
func reconcileCommandLine(a fiatramp.PayoutAttempt) string {
	var b strings.Builder
	b.WriteString("fiatramp payouts reconcile -reference " + shellQuote(a.ClientReferenceID))
	if a.CustomerID != uuid.Nil {
		b.WriteString(" -customer " + a.CustomerID.String())
	}
	if a.QuotationID != uuid.Nil {
		b.WriteString(" -quotation " + a.QuotationID.String())
	}
	if a.LikelyCreated {
		b.WriteString(" -likely-created")
	}
	if !a.From.IsZero() && !a.To.IsZero() {
		b.WriteString(" -from " + a.From.UTC().Format(reconcileDate) + " -to " + a.To.UTC().Format(reconcileDate))
	}
	return b.String()
}

// outcomeAttempt is the payout attempt an *OutcomeUnknownError describes,
// or false when it is no payout create that can be reconciled (no
// reference, neither customer nor quotation, or a payin initiate, which carries a UTR).
func outcomeAttempt(ou *fiatramp.OutcomeUnknownError) (fiatramp.PayoutAttempt, bool) {
	if ou.ClientReferenceID == "" || (ou.CustomerID == uuid.Nil && ou.QuotationID == uuid.Nil) || ou.UTR != "" {
		return fiatramp.PayoutAttempt{}, false
	}
	from, to := ou.Started, ou.Ended
	if from.IsZero() {
		from = to
	}
	if to.IsZero() {
		to = from
	}
	return fiatramp.PayoutAttempt{
		ClientReferenceID: ou.ClientReferenceID, CustomerID: ou.CustomerID,
		QuotationID: ou.QuotationID, From: from, To: to, LikelyCreated: ou.ProbablyCreated,
	}, true
}

// shellQuote writes s for a POSIX shell: as it is when it holds only
// characters no shell treats specially, else in single quotes.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.:/@+=,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(printable(s), "'", `'\''`) + "'"
}
