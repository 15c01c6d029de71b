package fiatramp

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// ReconcileVerdict is what reconciling a create whose outcome was unknown
// found.
type ReconcileVerdict string

// The three answers of a reconciliation.
const (
	// ReconcileCreated: the create took effect; the reconciliation
	// carries what it created.
	ReconcileCreated ReconcileVerdict = "created"
	// ReconcileNotCreated: proof that nothing holds the reference. A new
	// create with the same client_reference_id is safe: should the lost
	// attempt still land, the service refuses whichever of the two comes
	// second.
	ReconcileNotCreated ReconcileVerdict = "not_created"
	// ReconcileUnknown: the reads settled nothing; Reason says why. Try
	// again later, never create again with another reference.
	ReconcileUnknown ReconcileVerdict = "unknown"
)

// reconcileRounds is how many times a reconciliation reads again when a
// read failed or the reads disagreed (a quotation LINKED whose payout the
// history did not show yet: an attempt that landed between the reads).
const reconcileRounds = 3

// historySlack widens the attempt's dates by a day on each side for the
// history filter: the service's calendar days need not be UTC's, and the
// clocks may differ.
const historySlack = 24 * time.Hour

// PayoutAttempt names a payout create to reconcile: the reference it
// carried and the customer it paid, and, for a proof that no payout
// exists, its quotation.
type PayoutAttempt struct {
	// ClientReferenceID is the reference the create carried. Required.
	ClientReferenceID string
	// CustomerID is the payout's customer (the quotation's): the history
	// is read per customer. Required.
	CustomerID uuid.UUID
	// QuotationID is the payout's quotation. Without it a reconciliation
	// can find the payout but never prove that none exists.
	QuotationID uuid.UUID
	// From and To bound when the attempts were made; the history is read
	// from From's day to To's, a day wider on each side. Both zero reads
	// the customer's whole history; one alone is refused.
	From, To time.Time
}

// PayoutReconciliation is the answer of Payouts.Reconcile.
type PayoutReconciliation struct {
	// Verdict is the answer: created, not created, or still unknown.
	Verdict ReconcileVerdict
	// Payout is the payout that holds the reference (ReconcileCreated).
	Payout *types.Payout
	// Quotation is the quotation as last read, when it was read.
	Quotation *types.PayoutQuotation
	// Reason says what proves the verdict, or why it is unknown.
	Reason string
	// Requests counts the HTTP requests the reconciliation made, retries
	// included.
	Requests int
	// Err is the last read's error when a read failed (ReconcileUnknown).
	Err error
}

// ReconcileOutcome settles err, the *OutcomeUnknownError (ErrOutcomeUnknown)
// of a payout create, with Reconcile (GET
// /pos/api/v1/payout/quotation/{quotation_id} and the payout history),
// from the reference, customer, quotation and dates the error carries. An
// err that holds no *OutcomeUnknownError, or one without a reference or a
// customer (a Do call, a create sent without a reference), cannot be
// reconciled: it is refused with a *ValidationError.
func (s *PayoutsService) ReconcileOutcome(ctx context.Context, err error, opts ...RequestOption) (*PayoutReconciliation, error) {
	var unknown *OutcomeUnknownError
	if !errors.As(err, &unknown) || unknown == nil {
		return nil, invalid("error", "no *OutcomeUnknownError to reconcile")
	}
	return s.Reconcile(ctx, attemptOf(unknown), opts...)
}

// attemptOf is the payout attempt an *OutcomeUnknownError describes.
func attemptOf(e *OutcomeUnknownError) PayoutAttempt {
	from, to := e.Started, e.Ended
	if from.IsZero() {
		from = to
	}
	if to.IsZero() {
		to = from
	}
	return PayoutAttempt{
		ClientReferenceID: e.ClientReferenceID, CustomerID: e.CustomerID,
		QuotationID: e.QuotationID, From: from, To: to,
	}
}

// Reconcile settles the outcome of a payout create with reads only: it
// walks the customer's payout history over the attempt's dates (GET
// /pos/api/v1/payout/history, which cannot filter by reference) for the
// payout whose client_reference_id is the attempt's, and reads the
// quotation (GET /pos/api/v1/payout/quotation/{quotation_id}). A payout
// with the reference is the answer (ReconcileCreated). Without one, a
// quotation UNLINKED or EXPIRED, or LINKED to a payout with another
// reference, proves that the attempt created nothing (ReconcileNotCreated).
// Anything else leaves it ReconcileUnknown, with the reason: no quotation
// id to prove absence, a quotation LINKED whose payout the history does
// not show, a read that failed after its retries. A failed read or
// disagreeing reads are read again, three rounds at most. The common case
// costs one request (the payout is on the first history page) or two (a
// page and the quotation); Requests reports the count.
//
// The error is only for bad input, refused before anything is sent
// (ErrInvalidRequest): an empty reference, a nil customer, one of From
// and To without the other. opts apply to every read.
func (s *PayoutsService) Reconcile(ctx context.Context, a PayoutAttempt, opts ...RequestOption) (*PayoutReconciliation, error) {
	c := s.client
	if err := requireText("client_reference_id", a.ClientReferenceID); err != nil {
		return nil, err
	}
	if err := requireID("customer_id", a.CustomerID); err != nil {
		return nil, err
	}
	filter, err := attemptFilter(a.CustomerID, a.From, a.To)
	if err != nil {
		return nil, err
	}
	r := &PayoutReconciliation{}
	opts = append(opts[:len(opts):len(opts)], countAttempts(&r.Requests))
	for round := 1; ; round++ {
		again := c.reconcilePayoutRound(ctx, a, filter, r, opts)
		if !again || round == reconcileRounds || ctx.Err() != nil {
			return r, nil
		}
		if err := c.cfg.sleep(ctx, c.cfg.retry.backoff(round, c.cfg.jitter)); err != nil {
			return r, nil
		}
	}
}

// reconcilePayoutRound reads once and fills r; again says whether reading
// again may settle what this round left unknown.
func (c *Client) reconcilePayoutRound(ctx context.Context, a PayoutAttempt, filter types.PayoutListFilter, r *PayoutReconciliation, opts []RequestOption) (again bool) {
	*r = PayoutReconciliation{Requests: r.Requests}
	var other *types.Payout // a payout on the quotation with another reference
	for p, err := range c.Payouts.All(ctx, filter, opts...) {
		if err != nil {
			r.Verdict, r.Err = ReconcileUnknown, err
			r.Reason = "reading the payout history failed: " + err.Error()
			return true
		}
		if p.ClientReferenceID != nil && *p.ClientReferenceID == a.ClientReferenceID {
			r.Verdict, r.Payout = ReconcileCreated, &p
			r.Reason = "the payout history holds payout " + p.ID.String() + " with the reference"
			return false
		}
		if a.QuotationID != uuid.Nil && p.QuotationID == a.QuotationID && other == nil {
			other = &p
		}
	}
	if a.QuotationID == uuid.Nil {
		r.Verdict = ReconcileUnknown
		r.Reason = "no payout in the customer's history holds the reference, but without the quotation id nothing proves that none exists"
		return false
	}
	q, err := c.Payouts.GetQuotation(ctx, a.QuotationID, opts...)
	if err != nil {
		r.Verdict, r.Err = ReconcileUnknown, err
		r.Reason = "no payout in the history holds the reference, and reading the quotation failed: " + err.Error()
		// A refusal (the quotation is not found, say) reads the same
		// again; a failed read may not.
		var apiErr *APIError
		return !errors.As(err, &apiErr) || serviceGaveUp(err) || apiErr.StatusCode >= 500 || apiErr.StatusCode == 429
	}
	r.Quotation = q
	status := types.QuotationStatus(strings.ToUpper(strings.TrimSpace(string(q.Status))))
	switch {
	case status == types.QuotationUnlinked:
		r.Verdict = ReconcileNotCreated
		r.Reason = "no payout in the history holds the reference and the quotation is UNLINKED: no payout was created on it"
	case status == types.QuotationExpired:
		r.Verdict = ReconcileNotCreated
		r.Reason = "no payout in the history holds the reference and the quotation EXPIRED unused"
	case status == types.QuotationLinked && other != nil:
		r.Verdict = ReconcileNotCreated
		r.Reason = "the quotation is LINKED to payout " + other.ID.String() + ", which carries another reference: the service links a quotation once"
	case status == types.QuotationLinked:
		r.Verdict = ReconcileUnknown
		r.Reason = "the quotation is LINKED, but no payout in the history holds the reference or the quotation (yet)"
		return true
	default:
		r.Verdict = ReconcileUnknown
		r.Reason = "no payout in the history holds the reference, and the quotation's status " + quoteStatus(string(q.Status)) + " proves nothing"
	}
	return false
}

// quoteStatus is a status from the service, fit for a reason.
func quoteStatus(s string) string {
	if s == "" {
		return "(none)"
	}
	return `"` + sanitize(s, maxDetailText) + `"`
}

// attemptFilter is the history filter of a customer's attempts between
// from and to (both zero: every date).
func attemptFilter(customerID uuid.UUID, from, to time.Time) (types.PayoutListFilter, error) {
	f := types.PayoutListFilter{CustomerID: customerID}
	switch {
	case from.IsZero() && to.IsZero():
		return f, nil
	case from.IsZero():
		return f, invalid("from", "a to date needs a from date: give both or neither")
	case to.IsZero():
		return f, invalid("to", "a from date needs a to date: give both or neither")
	case to.Before(from):
		return f, invalid("to", "comes before from")
	}
	f.StartDate, f.EndDate = from.UTC().Add(-historySlack), to.UTC().Add(historySlack)
	return f, nil
}

// countAttempts counts the call's attempts in *n.
func countAttempts(n *int) RequestOption {
	return func(rc *requestConfig) error {
		rc.attempts = n
		return nil
	}
}

// WithReconcile makes a payout create (Payouts.Create) or a payin
// initiate whose outcome is unknown reconcile before it returns, with
// reads only (see PayoutsService.Reconcile): it returns the payout the
// lost attempt created, as if the call had succeeded; a *NotCreatedError
// when the reads prove that nothing holds the reference; or the
// *OutcomeUnknownError, its Unsettled saying why, when they settle
// nothing. The reads cost a few requests, made only after an outcome
// unknown. Other calls ignore it.
func WithReconcile() RequestOption {
	return func(rc *requestConfig) error {
		rc.reconcile = true
		return nil
	}
}

// wantsReconcile reports whether opts hold WithReconcile. Options are
// plain setters, so reading them twice does no harm; the call applies and
// checks them again.
func wantsReconcile(opts []RequestOption) bool {
	var rc requestConfig
	for _, opt := range opts {
		if opt(&rc) != nil {
			return false
		}
	}
	return rc.reconcile
}

// reconcileCreate settles err, the error of a payout create, when it is an
// *OutcomeUnknownError and the call asked for it (WithReconcile): the
// payout the lost attempt created, or the error to return.
func (s *PayoutsService) reconcileCreate(ctx context.Context, err error, opts []RequestOption) (*types.Payout, error) {
	var unknown *OutcomeUnknownError
	if !errors.As(err, &unknown) || !wantsReconcile(opts) {
		return nil, err
	}
	if unknown.ClientReferenceID == "" || unknown.CustomerID == uuid.Nil {
		unknown.Unsettled = "a create without a reference cannot be reconciled"
		return nil, unknown
	}
	r, rerr := s.Reconcile(ctx, attemptOf(unknown))
	if rerr != nil {
		unknown.Unsettled = rerr.Error()
		return nil, unknown
	}
	switch r.Verdict {
	case ReconcileCreated:
		return r.Payout, nil
	case ReconcileNotCreated:
		return nil, &NotCreatedError{
			ClientReferenceID: unknown.ClientReferenceID, QuotationID: unknown.QuotationID,
			Reason: r.Reason, Attempts: unknown.Attempts, Err: unknown.Err,
		}
	}
	unknown.Unsettled = r.Reason
	return nil, unknown
}

// PayinAttempt names a payin initiate to reconcile: its reference or its
// UTR (both unique at the service), the paying customer and, for a proof
// that no payin exists, its quotation.
type PayinAttempt struct {
	// ClientReferenceID is the reference the initiate carried.
	ClientReferenceID string
	// UTR is the bank transfer's reference the initiate carried. At least
	// one of ClientReferenceID and UTR is required.
	UTR string
	// CustomerID is the paying customer: the history is read per
	// customer. Required.
	CustomerID uuid.UUID
	// QuotationID is the payin's quotation. Without it a reconciliation
	// can find the payin but never prove that none exists.
	QuotationID uuid.UUID
	// From and To bound when the attempts were made, as in PayoutAttempt.
	From, To time.Time
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
	// Err is the last read's error when a read failed (ReconcileUnknown).
	Err error
}

// ReconcileOutcome settles err, the *OutcomeUnknownError (ErrOutcomeUnknown)
// of a payin initiate, with Reconcile (GET
// /pis/api/v1/payin/quotation/{quotation_id} and the payin history), from
// the reference, UTR, customer, quotation and dates the error carries. An
// err that holds no *OutcomeUnknownError, or one without a customer or
// without both a reference and a UTR, is refused with a *ValidationError.
func (s *PayinsService) ReconcileOutcome(ctx context.Context, err error, opts ...RequestOption) (*PayinReconciliation, error) {
	var unknown *OutcomeUnknownError
	if !errors.As(err, &unknown) || unknown == nil {
		return nil, invalid("error", "no *OutcomeUnknownError to reconcile")
	}
	return s.Reconcile(ctx, payinAttemptOf(unknown), opts...)
}

// payinAttemptOf is the payin attempt an *OutcomeUnknownError describes.
func payinAttemptOf(e *OutcomeUnknownError) PayinAttempt {
	a := attemptOf(e)
	return PayinAttempt{
		ClientReferenceID: a.ClientReferenceID, UTR: e.UTR, CustomerID: a.CustomerID,
		QuotationID: a.QuotationID, From: a.From, To: a.To,
	}
}

// Reconcile settles the outcome of a payin initiate with reads only,
// as Payouts.Reconcile does for a payout: it walks the customer's
// payin history over the attempt's dates (GET /pis/api/v1/payin/history)
// for the payin whose client_reference_id or UTR is the attempt's (the
// service takes each once), and reads the quotation (GET
// /pis/api/v1/payin/quotation/{quotation_id}). A payin with the
// reference is the answer (ReconcileCreated). Without one, a payin that
// holds the UTR or the quotation under another reference, a quotation
// UNLINKED or EXPIRED, or one whose expiry time has passed (the service
// refuses an initiate after it, so an accepted attempt would show in the
// history), proves that the attempt recorded nothing (ReconcileNotCreated).
// Anything else is ReconcileUnknown, with the reason.
//
// The error is only for bad input, refused before anything is sent
// (ErrInvalidRequest): neither a reference nor a UTR, a nil customer, one
// of From and To without the other.
func (s *PayinsService) Reconcile(ctx context.Context, a PayinAttempt, opts ...RequestOption) (*PayinReconciliation, error) {
	c := s.client
	if strings.TrimSpace(a.ClientReferenceID) == "" && strings.TrimSpace(a.UTR) == "" {
		return nil, invalid("client_reference_id", "give the reference or the UTR (or both)")
	}
	if err := requireID("customer_id", a.CustomerID); err != nil {
		return nil, err
	}
	span, err := attemptFilter(a.CustomerID, a.From, a.To)
	if err != nil {
		return nil, err
	}
	filter := types.PayinListFilter{CustomerID: a.CustomerID, StartDate: span.StartDate, EndDate: span.EndDate}
	r := &PayinReconciliation{}
	opts = append(opts[:len(opts):len(opts)], countAttempts(&r.Requests))
	for round := 1; ; round++ {
		again := c.reconcilePayinRound(ctx, a, filter, r, opts)
		if !again || round == reconcileRounds || ctx.Err() != nil {
			return r, nil
		}
		if err := c.cfg.sleep(ctx, c.cfg.retry.backoff(round, c.cfg.jitter)); err != nil {
			return r, nil
		}
	}
}

// reconcilePayinRound reads once and fills r; again says whether reading
// again may settle what this round left unknown.
func (c *Client) reconcilePayinRound(ctx context.Context, a PayinAttempt, filter types.PayinListFilter, r *PayinReconciliation, opts []RequestOption) (again bool) {
	*r = PayinReconciliation{Requests: r.Requests}
	var other *types.Payin // a payin with the UTR or the quotation under another reference
	for p, err := range c.Payins.All(ctx, filter, opts...) {
		if err != nil {
			r.Verdict, r.Err = ReconcileUnknown, err
			r.Reason = "reading the payin history failed: " + err.Error()
			return true
		}
		ref := p.ClientReferenceID != nil && a.ClientReferenceID != "" && *p.ClientReferenceID == a.ClientReferenceID
		utr := a.UTR != "" && p.UTR == a.UTR
		switch {
		case ref || (utr && (a.ClientReferenceID == "" || p.ClientReferenceID == nil)):
			r.Verdict, r.Payin = ReconcileCreated, &p
			r.Reason = "the payin history holds payin " + p.ID.String() + " with the reference or the UTR"
			return false
		case other == nil && (utr || (a.QuotationID != uuid.Nil && p.QuotationID == a.QuotationID)):
			other = &p
		}
	}
	if other != nil {
		r.Verdict = ReconcileNotCreated
		r.Reason = "payin " + other.ID.String() + " holds the UTR or the quotation under another reference: the service takes each once"
		return false
	}
	if a.QuotationID == uuid.Nil {
		r.Verdict = ReconcileUnknown
		r.Reason = "no payin in the customer's history holds the reference or the UTR, but without the quotation id nothing proves that none exists"
		return false
	}
	q, err := c.Payins.GetQuotation(ctx, a.QuotationID, opts...)
	if err != nil {
		r.Verdict, r.Err = ReconcileUnknown, err
		r.Reason = "no payin in the history holds the reference or the UTR, and reading the quotation failed: " + err.Error()
		var apiErr *APIError
		return !errors.As(err, &apiErr) || serviceGaveUp(err) || apiErr.StatusCode >= 500 || apiErr.StatusCode == 429
	}
	r.Quotation = q
	status := types.QuotationStatus(strings.ToUpper(strings.TrimSpace(string(q.Status))))
	switch {
	case status == types.QuotationUnlinked:
		r.Verdict = ReconcileNotCreated
		r.Reason = "no payin in the history holds the reference or the UTR and the quotation is UNLINKED"
	case status == types.QuotationExpired:
		r.Verdict = ReconcileNotCreated
		r.Reason = "no payin in the history holds the reference or the UTR and the quotation EXPIRED unused"
	case status == types.QuotationLinked:
		r.Verdict = ReconcileUnknown
		r.Reason = "the quotation is LINKED, but no payin in the history holds the reference, the UTR or the quotation (yet)"
		return true
	case !q.ExpiryTime.IsZero() && c.now().After(q.ExpiryTime.Add(historySlackExpiry)):
		r.Verdict = ReconcileNotCreated
		r.Reason = "no payin in the history holds the reference or the UTR and the quotation expired at " +
			q.ExpiryTime.UTC().Format(time.RFC3339) + ": the service takes no initiate after it"
	default:
		r.Verdict = ReconcileUnknown
		r.Reason = "no payin in the history holds the reference or the UTR, and the quotation (status " +
			quoteStatus(string(q.Status)) + ") is still valid: an attempt may yet land"
	}
	return false
}

// historySlackExpiry is how long after a quotation's expiry time a
// reconciliation waits before it takes the expiry as proof: the clocks may
// differ.
const historySlackExpiry = time.Minute

// reconcileInitiate settles err, the error of a payin initiate, when it is
// an *OutcomeUnknownError and the call asked for it (WithReconcile).
func (s *PayinsService) reconcileInitiate(ctx context.Context, err error, opts []RequestOption) (*types.Payin, error) {
	var unknown *OutcomeUnknownError
	if !errors.As(err, &unknown) || !wantsReconcile(opts) {
		return nil, err
	}
	r, rerr := s.Reconcile(ctx, payinAttemptOf(unknown))
	if rerr != nil {
		unknown.Unsettled = rerr.Error()
		return nil, unknown
	}
	switch r.Verdict {
	case ReconcileCreated:
		return r.Payin, nil
	case ReconcileNotCreated:
		return nil, &NotCreatedError{
			ClientReferenceID: unknown.ClientReferenceID, QuotationID: unknown.QuotationID,
			Reason: r.Reason, Attempts: unknown.Attempts, Err: unknown.Err,
		}
	}
	unknown.Unsettled = r.Reason
	return nil, unknown
}
