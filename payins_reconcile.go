package fiatramp

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// PayinAttempt names a payin initiate to reconcile: its reference or its
// UTR (both unique at the service), its quotation and when it was made.
type PayinAttempt struct {
	// ClientReferenceID is the reference the initiate carried.
	ClientReferenceID string
	// UTR is the bank transfer's reference the initiate carried. At least
	// one of ClientReferenceID and UTR is required.
	UTR string
	// QuotationID is the payin's quotation. Without it a reconciliation
	// can find the payin but never prove that none exists.
	QuotationID uuid.UUID
	// CustomerID is the paying customer: the history is read per
	// customer. Required without a QuotationID; with one, the quotation
	// names it.
	CustomerID uuid.UUID
	// From and To bound when the attempts were made, as in PayoutAttempt.
	From, To time.Time
	// LikelyCreated says that an earlier attempt probably recorded the
	// payin (OutcomeUnknownError.ProbablyCreated): the newest page of the
	// customer's history is read first. It changes the order of the
	// reads, never the verdict.
	LikelyCreated bool
}

// PayinReconciliation is the answer of Payins.Reconcile.
type PayinReconciliation struct {
	// Verdict is the answer: created, not created, or still unknown.
	Verdict ReconcileVerdict
	// Payin is the payin that holds the reference or the UTR
	// (ReconcileCreated).
	Payin *types.Payin
	// Quotation is the quotation as last read, when it was read.
	Quotation *types.PayinQuotation
	// Reason says what proves the verdict, or why it is unknown.
	Reason string
	// Requests counts the HTTP requests the reconciliation made, retries
	// included.
	Requests int
	// Err is the error of the read that failed (ReconcileUnknown).
	Err error
}

// ReconcileOutcome settles err, the *OutcomeUnknownError
// (ErrOutcomeUnknown) of a payin initiate, with Reconcile (GET
// /pis/api/v1/payin/quotation/{quotation_id}, and the payin history as far
// as needed), from the reference, UTR, quotation, customer, dates and
// ProbablyCreated the error carries. An err that holds no
// *OutcomeUnknownError, one of another operation (a payout create: see
// Payouts.ReconcileOutcome), or one without both a reference and a UTR,
// is refused with a *ValidationError.
func (s *PayinsService) ReconcileOutcome(ctx context.Context, err error, opts ...RequestOption) (*PayinReconciliation, error) {
	a, verr := payinAttemptOf(err)
	if verr != nil {
		return nil, verr
	}
	return s.Reconcile(ctx, a, opts...)
}

// payinAttemptOf is the payin attempt err's *OutcomeUnknownError
// describes, or why there is none.
func payinAttemptOf(err error) (PayinAttempt, error) {
	var e *OutcomeUnknownError
	if !errors.As(err, &e) || e == nil {
		return PayinAttempt{}, invalid("error", "no *OutcomeUnknownError to reconcile")
	}
	if e.operation != "" && e.operation != operations[opPayinsInitiate].name {
		return PayinAttempt{}, invalid("error", "the outcome of "+e.operation+" is not a payin initiate's")
	}
	return PayinAttempt{
		ClientReferenceID: e.ClientReferenceID, UTR: e.UTR, QuotationID: e.QuotationID, CustomerID: e.CustomerID,
		From: e.Started, To: e.Ended, LikelyCreated: e.ProbablyCreated,
	}, nil
}

// Reconcile settles the outcome of a payin initiate with reads only, as
// Payouts.Reconcile does for a payout, at a cost that does not grow with
// the customer's history. It reads the quotation, GET
// /pis/api/v1/payin/quotation/{quotation_id}: EXPIRED (or UNLINKED)
// proves that nothing was recorded on it (ReconcileNotCreated: one
// request). Otherwise the payin history (GET /pis/api/v1/payin/history),
// read for the quotation's customer over the days the quotation was
// valid, newest page first and only back to the quotation's creation,
// is searched for the payin with the attempt's reference or UTR (the
// service takes each once): it is the answer (ReconcileCreated); a payin
// that holds the UTR or the quotation under another reference proves that
// the attempt recorded nothing (ReconcileNotCreated), and so does a
// search that found nothing once the quotation's expiry time has passed
// (by a few minutes: the service takes no initiate after it). With
// LikelyCreated the newest page is read first.
//
// ReconcileUnknown, with the reason, is what is left: no quotation id,
// a quotation LINKED whose payin the history does not show yet (read
// again, three rounds at most), one still valid (an attempt may yet
// land), a read that still failed when made again. The history is read
// as by Payouts.Reconcile.
//
// The error is only for bad input, refused before anything is sent
// (ErrInvalidRequest): neither a reference nor a UTR, neither a
// quotation nor a customer, one of From and To without the other or To
// before From.
func (s *PayinsService) Reconcile(ctx context.Context, a PayinAttempt, opts ...RequestOption) (*PayinReconciliation, error) {
	if strings.TrimSpace(a.ClientReferenceID) == "" && strings.TrimSpace(a.UTR) == "" {
		return nil, invalid("client_reference_id", "give the reference or the UTR (or both)")
	}
	if a.QuotationID == uuid.Nil && a.CustomerID == uuid.Nil {
		return nil, invalid("customer_id", "give the quotation or the customer (or both)")
	}
	if err := checkWindow(a.From, a.To); err != nil {
		return nil, err
	}
	r := &PayinReconciliation{}
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

// ours reports whether p is the attempt's payin: it holds the reference,
// or the UTR when the reference cannot tell.
func (a PayinAttempt) ours(p *types.Payin) bool {
	ref := a.ClientReferenceID != "" && p.ClientReferenceID != nil && *p.ClientReferenceID == a.ClientReferenceID
	utr := a.UTR != "" && p.UTR == a.UTR
	return ref || (utr && (a.ClientReferenceID == "" || p.ClientReferenceID == nil))
}

// related reports whether p is the attempt's payin or holds its UTR or
// its quotation.
func (a PayinAttempt) related(p *types.Payin) bool {
	return a.ours(p) || (a.UTR != "" && p.UTR == a.UTR) || (a.QuotationID != uuid.Nil && p.QuotationID == a.QuotationID)
}

// reconcileRound reads once and fills r; again says whether reading again
// may settle what this round left unknown.
func (s *PayinsService) reconcileRound(ctx context.Context, a PayinAttempt, r *PayinReconciliation, rd reconReader) (again bool) {
	*r = PayinReconciliation{Requests: r.Requests}
	attemptStart, attemptEnd := historyDays(a.From, a.To)
	if a.LikelyCreated && a.CustomerID != uuid.Nil && !a.From.IsZero() {
		res, err := s.search(ctx, rd, a.CustomerID, attemptStart, attemptEnd, attemptSince(a.From), a.related)
		if err == nil && res.item != nil {
			settlePayinBy(a, res.item, r)
			return false
		}
	}
	if a.QuotationID == uuid.Nil {
		res, err := s.search(ctx, rd, a.CustomerID, attemptStart, attemptEnd, attemptSince(a.From), a.related)
		switch {
		case err != nil:
			r.Verdict, r.Err, r.Reason = ReconcileUnknown, err, "reading the payin history failed: "+err.Error()
		case res.item != nil:
			settlePayinBy(a, res.item, r)
		default:
			r.Verdict = ReconcileUnknown
			r.Reason = "no payin in the customer's history holds the reference or the UTR, but without the quotation id nothing proves that none exists"
		}
		return false
	}
	q, err := read[types.PayinQuotation](ctx, rd, opPayinsGetQuotation.op(a.QuotationID.String()))
	if err != nil {
		r.Verdict, r.Err = ReconcileUnknown, err
		r.Reason = "reading the quotation failed: " + err.Error()
		return false
	}
	r.Quotation = q
	switch normalStatus(q.Status) {
	case types.QuotationExpired:
		r.Verdict = ReconcileNotCreated
		r.Reason = "the quotation EXPIRED unused: no payin was recorded on it"
		return false
	case types.QuotationUnlinked:
		r.Verdict = ReconcileNotCreated
		r.Reason = "the quotation is UNLINKED: no payin was recorded on it"
		return false
	}
	customer := q.CustomerID
	if customer == uuid.Nil {
		customer = a.CustomerID
	}
	start, end, since := quotationWindow(q.CreatedAt, q.ExpiryTime, s.client.now())
	res, err := s.search(ctx, rd, customer, start, end, since, a.related)
	switch {
	case err != nil:
		r.Verdict, r.Err = ReconcileUnknown, err
		r.Reason = "reading the payin history failed: " + err.Error()
		return false
	case res.item != nil:
		settlePayinBy(a, res.item, r)
		return false
	case normalStatus(q.Status) == types.QuotationLinked:
		r.Verdict = ReconcileUnknown
		r.Reason = "the quotation is LINKED, but the payin history does not show a payin on it (yet)"
		return true
	case res.complete && !q.ExpiryTime.IsZero() && s.client.now().After(q.ExpiryTime.Add(clockSlack)):
		r.Verdict = ReconcileNotCreated
		r.Reason = "no payin in the history holds the reference, the UTR or the quotation, which expired at " +
			q.ExpiryTime.UTC().Format(time.RFC3339) + ": the service takes no initiate after it"
		return false
	}
	r.Verdict = ReconcileUnknown
	r.Reason = "no payin in the history holds the reference or the UTR, and the quotation (status " +
		quoteStatus(string(q.Status)) + ") is still valid: an attempt may yet land"
	return false
}

// settlePayinBy is the verdict of p, a payin of the history that is the
// attempt's or holds its UTR or quotation.
func settlePayinBy(a PayinAttempt, p *types.Payin, r *PayinReconciliation) {
	if a.ours(p) {
		r.Verdict, r.Payin = ReconcileCreated, p
		r.Reason = "the payin history holds payin " + p.ID.String() + " with the reference or the UTR"
		return
	}
	r.Verdict = ReconcileNotCreated
	r.Reason = "payin " + p.ID.String() + " holds the UTR or the quotation under another reference: the service takes each once"
}

// search searches the payin history of customer over the days from start
// to end, back to since, for the payin match accepts.
func (s *PayinsService) search(ctx context.Context, rd reconReader, customer uuid.UUID, start, end, since time.Time,
	match func(*types.Payin) bool) (searchResult[types.Payin], error) {
	l, err := s.payinList(types.PayinListFilter{CustomerID: customer, StartDate: start, EndDate: end})
	if err != nil {
		return searchResult[types.Payin]{}, err
	}
	return historySearch[types.Payin]{
		list: l, since: since, match: match,
		created: func(p *types.Payin) time.Time { return p.CreatedAt },
	}.run(ctx, rd)
}

// settlePayin settles the *OutcomeUnknownError of a payin initiate that
// asked for WithReconcile into out, a *types.Payin.
func settlePayin(ctx context.Context, c *Client, unknown *OutcomeUnknownError, out any) error {
	a, err := payinAttemptOf(unknown)
	var r *PayinReconciliation
	if err == nil {
		r, err = c.Payins.Reconcile(ctx, a)
	}
	if err != nil {
		unknown.Unsettled = err.Error()
		return unknown
	}
	switch r.Verdict {
	case ReconcileCreated:
		if p, ok := out.(*types.Payin); ok {
			*p = *r.Payin
			return nil
		}
		if err := decodeAs(r.Payin.Raw, out); err != nil {
			unknown.Unsettled = "payin " + r.Payin.ID.String() + " holds the reference, but " + err.Error()
			return unknown
		}
		return nil
	case ReconcileNotCreated:
		return notCreated(unknown, r.Reason)
	}
	unknown.Unsettled = r.Reason
	return unknown
}
