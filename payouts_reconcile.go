package fiatramp

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// PayoutAttempt names a payout create to reconcile: the reference it
// carried, its quotation and when it was made.
type PayoutAttempt struct {
	// ClientReferenceID is the reference the create carried. Required.
	ClientReferenceID string
	// QuotationID is the payout's quotation: its state settles most
	// outcomes in one read. Without it a reconciliation can find the
	// payout but never prove that none exists.
	QuotationID uuid.UUID
	// CustomerID is the payout's customer (the quotation's; a prefunded
	// payout's receiver): the history is read per customer. Required
	// without a QuotationID; with one, the quotation names it.
	CustomerID uuid.UUID
	// From and To bound when the attempts were made (the client's clock):
	// a search for the reference alone reads the history from From's day
	// to To's, a day wider on each side, back to a few minutes before
	// From. Both zero reads the customer's whole history when the
	// quotation cannot bound it; one alone is refused.
	From, To time.Time
	// LikelyCreated says that an earlier attempt probably created the
	// payout (OutcomeUnknownError.ProbablyCreated): the newest page of the
	// customer's history is read first, which then usually settles it in
	// one request. It changes the order of the reads, never the verdict.
	LikelyCreated bool
}

// PayoutReconciliation is the answer of Payouts.Reconcile.
type PayoutReconciliation struct {
	// Verdict is the answer: created, not created, or still unknown.
	Verdict ReconcileVerdict
	// Payout is the payout that holds the reference (ReconcileCreated),
	// as the history shows it (the fetch shape, whatever kind of create
	// made it; its Raw is the history's record).
	Payout *types.Payout
	// Quotation is the quotation as last read, when it was read.
	Quotation *types.PayoutQuotation
	// Reason says what proves the verdict, or why it is unknown.
	Reason string
	// Requests counts the HTTP requests the reconciliation made, retries
	// included.
	Requests int
	// Err is the error of the read that failed (ReconcileUnknown).
	Err error
}

// ReconcileOutcome settles err, the *OutcomeUnknownError
// (ErrOutcomeUnknown) of a payout create (Create, CreatePrefunded or
// CreateRemittance), with Reconcile (GET
// /pos/api/v1/payout/quotation/{quotation_id}, and the payout history as
// far as needed), from the reference, quotation, customer, dates and
// ProbablyCreated the error carries. An err that holds no
// *OutcomeUnknownError, one of another operation (a payin initiate: see
// Payins.ReconcileOutcome), or one without a reference (a Do call, a
// create sent without one) is refused with a *ValidationError.
func (s *PayoutsService) ReconcileOutcome(ctx context.Context, err error, opts ...RequestOption) (*PayoutReconciliation, error) {
	a, verr := payoutAttemptOf(err)
	if verr != nil {
		return nil, verr
	}
	return s.Reconcile(ctx, a, opts...)
}

// payoutAttemptOf is the payout attempt err's *OutcomeUnknownError
// describes, or why there is none.
func payoutAttemptOf(err error) (PayoutAttempt, error) {
	var e *OutcomeUnknownError
	if !errors.As(err, &e) || e == nil {
		return PayoutAttempt{}, invalid("error", "no *OutcomeUnknownError to reconcile")
	}
	if e.operation != "" && !isPayoutCreate(e.operation) {
		return PayoutAttempt{}, invalid("error", "the outcome of "+e.operation+" is not a payout create's")
	}
	return PayoutAttempt{
		ClientReferenceID: e.ClientReferenceID, QuotationID: e.QuotationID, CustomerID: e.CustomerID,
		From: e.Started, To: e.Ended, LikelyCreated: e.ProbablyCreated,
	}, nil
}

// isPayoutCreate reports whether the operation named name creates a
// payout: an *OutcomeUnknownError a payout reconciliation settles.
func isPayoutCreate(name string) bool {
	for _, id := range [...]opID{opPayoutsCreate, opPayoutsCreatePrefunded, opPayoutsCreateRemittance} {
		if operations[id].name == name {
			return true
		}
	}
	return false
}

// Reconcile settles the outcome of a payout create with reads only, and
// at a cost that does not grow with the customer's history. It reads the
// quotation, GET /pos/api/v1/payout/quotation/{quotation_id}: UNLINKED or
// EXPIRED proves that nothing was created on it (ReconcileNotCreated: one
// request). LINKED proves that a payout was, and the payout history (GET
// /pos/api/v1/payout/history, which cannot filter by reference), read for
// the quotation's customer over the days the quotation was valid, newest
// page first and only back to the quotation's creation, shows it: the
// attempt's payout when it carries the reference (ReconcileCreated, with
// the payout: usually two requests), another's when it does not
// (ReconcileNotCreated: the service links a quotation once). With
// LikelyCreated the newest page is read first, which usually settles it
// in one request. Without a quotation id the history is searched for the
// reference over the attempt's dates, which can find the payout but never
// prove its absence.
//
// ReconcileUnknown, with the reason, is what is left: no quotation id, a
// quotation LINKED whose payout the history does not show yet (read
// again, three rounds at most), a status that proves nothing, a read that
// still failed when made again (each read is the Client's call with its
// retries, made up to three times). Requests counts what it cost.
//
// The history is read newest first by asking for its last page
// (page=last, which the service's paginator serves; a service that does
// not is read from the first page). Stopping before the quotation's
// creation assumes the history in creation order, which the pages are
// checked for: pages out of order are read to the end.
//
// The error is only for bad input, refused before anything is sent
// (ErrInvalidRequest): an empty reference, neither a quotation nor a
// customer, one of From and To without the other or To before From. opts
// apply to every read.
func (s *PayoutsService) Reconcile(ctx context.Context, a PayoutAttempt, opts ...RequestOption) (*PayoutReconciliation, error) {
	if err := requireText("client_reference_id", a.ClientReferenceID); err != nil {
		return nil, err
	}
	if a.QuotationID == uuid.Nil && a.CustomerID == uuid.Nil {
		return nil, invalid("customer_id", "give the quotation or the customer (or both)")
	}
	if err := checkWindow(a.From, a.To); err != nil {
		return nil, err
	}
	r := &PayoutReconciliation{}
	rd := reconReader{c: s.client, opts: append(opts[:len(opts):len(opts)], countAttempts(&r.Requests))}
	for round := 1; ; round++ {
		again := s.reconcileRound(ctx, a, r, rd)
		if !again || round == reconcileRounds || ctx.Err() != nil {
			return r, nil
		}
		if err := s.client.cfg.sleep(ctx, s.client.cfg.retry.backoff(round, s.client.cfg.jitter)); err != nil {
			return r, nil
		}
	}
}

// reconcileRound reads once and fills r; again says whether reading again
// may settle what this round left unknown.
func (s *PayoutsService) reconcileRound(ctx context.Context, a PayoutAttempt, r *PayoutReconciliation, rd reconReader) (again bool) {
	*r = PayoutReconciliation{Requests: r.Requests}
	ours := func(p *types.Payout) bool {
		return p.ClientReferenceID != nil && *p.ClientReferenceID == a.ClientReferenceID
	}
	oursOrOnQuotation := func(p *types.Payout) bool {
		return ours(p) || (a.QuotationID != uuid.Nil && p.QuotationID == a.QuotationID)
	}
	attemptStart, attemptEnd := historyDays(a.From, a.To)
	if a.LikelyCreated && a.CustomerID != uuid.Nil && !a.From.IsZero() {
		// Probably created: the history since the attempt began (its
		// newest page, most likely) shows it. Anything else (not there, a
		// read failed) leaves it to the quotation.
		res, err := s.search(ctx, rd, a.CustomerID, attemptStart, attemptEnd, attemptSince(a.From), oursOrOnQuotation)
		if err == nil && res.item != nil {
			s.settleBy(a, res.item, r)
			return false
		}
	}
	if a.QuotationID == uuid.Nil {
		res, err := s.search(ctx, rd, a.CustomerID, attemptStart, attemptEnd, attemptSince(a.From), ours)
		switch {
		case err != nil:
			r.Verdict, r.Err, r.Reason = ReconcileUnknown, err, "reading the payout history failed: "+err.Error()
		case res.item != nil:
			s.settleBy(a, res.item, r)
		default:
			r.Verdict = ReconcileUnknown
			r.Reason = "no payout in the customer's history holds the reference, but without the quotation id nothing proves that none exists"
		}
		return false
	}
	q, err := read[types.PayoutQuotation](ctx, rd, opPayoutsGetQuotation.op(a.QuotationID.String()))
	if err != nil {
		r.Verdict, r.Err = ReconcileUnknown, err
		r.Reason = "reading the quotation failed: " + err.Error()
		return false
	}
	r.Quotation = q
	switch status := normalStatus(q.Status); status {
	case types.QuotationUnlinked:
		r.Verdict = ReconcileNotCreated
		r.Reason = "the quotation is UNLINKED: no payout was created on it"
		return false
	case types.QuotationExpired:
		r.Verdict = ReconcileNotCreated
		r.Reason = "the quotation EXPIRED unused: no payout was created on it"
		return false
	}
	customer := q.CustomerID
	if customer == uuid.Nil {
		customer = a.CustomerID
	}
	start, end, since := quotationWindow(q.CreatedAt, q.ExpiryTime, s.client.now())
	res, err := s.search(ctx, rd, customer, start, end, since, oursOrOnQuotation)
	switch {
	case err != nil:
		r.Verdict, r.Err = ReconcileUnknown, err
		r.Reason = "the quotation is " + quoteStatus(string(q.Status)) + " and reading the payout history failed: " + err.Error()
		return false
	case res.item != nil:
		s.settleBy(a, res.item, r)
		return false
	case normalStatus(q.Status) == types.QuotationLinked:
		r.Verdict = ReconcileUnknown
		r.Reason = "the quotation is LINKED, but the payout history does not show a payout on it (yet)"
		return true
	}
	r.Verdict = ReconcileUnknown
	r.Reason = "no payout in the history holds the reference or the quotation, and the quotation's status " + quoteStatus(string(q.Status)) + " proves nothing"
	return false
}

// settleBy is the verdict of p, a payout of the history that holds the
// attempt's reference or its quotation.
func (s *PayoutsService) settleBy(a PayoutAttempt, p *types.Payout, r *PayoutReconciliation) {
	if p.ClientReferenceID != nil && *p.ClientReferenceID == a.ClientReferenceID {
		r.Verdict, r.Payout = ReconcileCreated, p
		r.Reason = "the payout history holds payout " + p.ID.String() + " with the reference"
		return
	}
	r.Verdict = ReconcileNotCreated
	r.Reason = "the quotation is LINKED to payout " + p.ID.String() + ", which carries another reference: the service links a quotation once"
}

// search searches the payout history of customer (every customer when
// uuid.Nil) over the days from start to end (every day when both are
// zero), back to since, for the payout match accepts.
func (s *PayoutsService) search(ctx context.Context, rd reconReader, customer uuid.UUID, start, end, since time.Time,
	match func(*types.Payout) bool) (searchResult[types.Payout], error) {
	l, err := s.payoutList(types.PayoutListFilter{CustomerID: customer, StartDate: start, EndDate: end})
	if err != nil {
		return searchResult[types.Payout]{}, err
	}
	return historySearch[types.Payout]{
		list: l, since: since, match: match,
		created: func(p *types.Payout) time.Time { return p.CreatedAt },
	}.run(ctx, rd)
}

// settlePayout settles the *OutcomeUnknownError of a payout create that
// asked for WithReconcile into out: a *types.Payout is the payout the
// history shows; another result type (*types.PrefundedPayout,
// *types.RemittancePayout) is read from the history's record of it.
func settlePayout(ctx context.Context, c *Client, unknown *OutcomeUnknownError, out any) error {
	a, err := payoutAttemptOf(unknown)
	if err == nil && a.ClientReferenceID == "" {
		err = errors.New("a create without a reference cannot be reconciled")
	}
	var r *PayoutReconciliation
	if err == nil {
		r, err = c.Payouts.Reconcile(ctx, a)
	}
	if err != nil {
		unknown.Unsettled = err.Error()
		return unknown
	}
	switch r.Verdict {
	case ReconcileCreated:
		if p, ok := out.(*types.Payout); ok {
			*p = *r.Payout
			return nil
		}
		if err := decodeAs(r.Payout.Raw, out); err != nil {
			unknown.Unsettled = "payout " + r.Payout.ID.String() + " holds the reference, but " + err.Error()
			return unknown
		}
		return nil
	case ReconcileNotCreated:
		return notCreated(unknown, r.Reason)
	}
	unknown.Unsettled = r.Reason
	return unknown
}
