package fiatramp

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fiatramp/fiatramp-go/types"
)

// Reconciliation: what the payouts' and the payins' reconciliations
// share (payouts_reconcile.go and payins_reconcile.go hold each one's
// verdicts). A reconciliation settles a create whose outcome was unknown
// with reads only, and its cost does not grow with the customer's history:
// the quotation's state settles most outcomes in one read, and the history
// is read newest page first, filtered to the days the create could have
// landed on, only as far back as the quotation's creation.

// ReconcileVerdict is what reconciling a create whose outcome was unknown
// found.
type ReconcileVerdict string

// The three answers of a reconciliation.
const (
	// ReconcileCreated: the create took effect; the reconciliation
	// carries what it created.
	ReconcileCreated ReconcileVerdict = "created"
	// ReconcileNotCreated: proof that the attempt created nothing. A new
	// create with the same client_reference_id is safe: should the lost
	// attempt still land, the service refuses whichever of the two comes
	// second.
	ReconcileNotCreated ReconcileVerdict = "not_created"
	// ReconcileUnknown: the reads settled nothing; Reason says why. Try
	// again later, never create again with another reference.
	ReconcileUnknown ReconcileVerdict = "unknown"
)

// reconcileRounds is how many times a reconciliation reads again when the
// reads disagreed (a quotation LINKED whose payout the history does not
// show yet: an attempt that landed between the reads).
const reconcileRounds = 3

// reconcileReadTries is how many times a reconciliation makes one read
// (each a call retried by the Client's policy) while it fails in a way a
// repeat may mend: one page that fails does not end the reconciliation.
const reconcileReadTries = 3

// historySlack widens the days a reconciliation asks the history for by
// a day on each side: the service's calendar days need not be UTC's.
const historySlack = 24 * time.Hour

// clockSlack is how much earlier than the attempt (on the client's clock)
// or than its quotation's creation (on the service's) a reconciliation
// still looks for what the attempt created, and how long after a payin
// quotation's expiry time it waits before it takes the expiry as proof:
// clocks and records may differ by that much.
const clockSlack = 5 * time.Minute

// WithReconcile makes a create whose outcome is unknown (Payouts.Create,
// CreatePrefunded, CreateRemittance, Payins.Initiate) reconcile before it
// returns, with reads only (see PayoutsService.Reconcile and
// PayinsService.Reconcile): it returns what the lost attempt created, as
// if the call had succeeded (a prefunded payout as a
// *types.PrefundedPayout, a remittance payout as a
// *types.RemittancePayout, read from the history's record of it); a
// *NotCreatedError when the reads prove that the attempt created nothing;
// or the *OutcomeUnknownError, its Unsettled saying why, when they settle
// nothing. The reads cost one request or two, made only after an outcome
// unknown, under the call's context: a create that ended because its
// context did stays unknown. An Observer sees the reads as calls of their
// own inside the create's, and the create end as what the reconciliation
// found (CallResult.Reconciled). Other calls ignore it.
func WithReconcile() RequestOption {
	return func(rc *requestConfig) error {
		rc.reconcile = true
		return nil
	}
}

// settler reconciles the *OutcomeUnknownError of a create that asked for
// WithReconcile: it fills out (the call's result) with what the attempt
// created and returns nil, or returns the error the call ends with. It is
// a plain function, so that a create carries it without allocating.
type settler func(ctx context.Context, c *Client, unknown *OutcomeUnknownError, out any) error

// settleOutcome is the end of a call that asked for WithReconcile: err,
// when it is an *OutcomeUnknownError, settled by settle; obs (nil without
// an Observer) learns that reconciliation decided the outcome.
func (c *Client) settleOutcome(ctx context.Context, settle settler, obs *callObservation, err error, out any) error {
	var unknown *OutcomeUnknownError
	if !errors.As(err, &unknown) {
		return err
	}
	settled := settle(ctx, c, unknown, out)
	var notCreated *NotCreatedError
	if obs != nil && (settled == nil || errors.As(settled, &notCreated)) {
		obs.reconciled = true
	}
	return settled
}

// notCreated is the *NotCreatedError of unknown, proved by reason.
func notCreated(unknown *OutcomeUnknownError, reason string) *NotCreatedError {
	return &NotCreatedError{
		ClientReferenceID: unknown.ClientReferenceID, QuotationID: unknown.QuotationID,
		Reason: reason, Attempts: unknown.Attempts, Err: unknown.Err,
	}
}

// decodeAs reads raw, the history's record of what a create made, into
// out, the create's own result type.
func decodeAs(raw json.RawMessage, out any) error {
	if len(raw) == 0 {
		return errors.New("the history's record of it is empty")
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("the history's record of it does not read as %T: %w", out, err)
	}
	return nil
}

// countAttempts counts the call's attempts in *n.
func countAttempts(n *int) RequestOption {
	return func(rc *requestConfig) error {
		rc.attempts = n
		return nil
	}
}

// reconReader makes the reads of one reconciliation: each a call of the
// Client (retried by its policy) and, should it still fail in a way a
// repeat may mend, made again, reconcileReadTries times in all.
type reconReader struct {
	c    *Client
	opts []RequestOption // the caller's, and the counter of requests
}

// read makes op's call into a fresh *T.
func read[T any](ctx context.Context, r reconReader, op operation) (*T, error) {
	for try := 1; ; try++ {
		out, err := call[T](ctx, r.c, op, r.opts)
		if err == nil || !transientRead(err) || try == reconcileReadTries || ctx.Err() != nil {
			return out, err
		}
		if r.c.cfg.sleep(ctx, r.c.cfg.retry.backoff(try, r.c.cfg.jitter)) != nil {
			return nil, err
		}
	}
}

// transientRead reports whether a read that failed with err may succeed
// when made again: no answer, a 5xx, a 429, a 3xx (a gateway's), an
// unreadable answer, the service giving up. A refusal, bad input, a link
// refused, the retry budget spent or the context ended are final.
func transientRead(err error) bool {
	if errors.Is(err, ErrInvalidRequest) || errors.Is(err, ErrPagination) || errors.Is(err, ErrRetryBudgetExhausted) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		return true
	}
	s := apiErr.StatusCode
	return s >= 500 || s == http.StatusTooManyRequests || s/100 == 3 || serviceGaveUp(err) || errors.Is(err, ErrMalformedResponse)
}

// refused reports whether err is the service's refusal of a read: a 4xx
// answer that is not a 429.
func refused(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && !transientRead(err)
}

// historySearch is one search of a history (the payouts' or the payins'),
// newest items first, for the item match accepts.
type historySearch[T any] struct {
	list listing[T] // the history, filtered
	// since: an item created before it cannot match. Once every page read
	// is in one order, the search stops at the page that reaches before
	// it. Zero reads to the list's end.
	since   time.Time
	created func(*T) time.Time
	match   func(*T) bool
}

// searchResult is what a historySearch found: the matching item, and
// whether every item from the newest back to since (or to the list's
// start) was read.
type searchResult[T any] struct {
	item     *T
	complete bool
}

// pageOrder is the order of a page's items by creation time.
type pageOrder int

const (
	orderNone        pageOrder = iota // one item, or all created at once
	orderOldestFirst                  // creation times never fall
	orderNewestFirst                  // creation times never rise
	orderMixed                        // both: not in creation order
)

// orderOf reads the order of items.
func orderOf[T any](items []T, created func(*T) time.Time) pageOrder {
	rise, fall := false, false
	for i := 1; i < len(items); i++ {
		a, b := created(&items[i-1]), created(&items[i])
		rise = rise || b.After(a)
		fall = fall || b.Before(a)
	}
	switch {
	case rise && fall:
		return orderMixed
	case rise:
		return orderOldestFirst
	case fall:
		return orderNewestFirst
	}
	return orderNone
}

// searchPageSize is the page size a history search asks for (page_size):
// the most an older edition of the service documents. A service that
// ignores it answers pages of its own size.
const searchPageSize = 100

// run searches. It asks for pages of searchPageSize items and starts at
// the list's last page (page=last, which the REST framework's paginator
// serves): in a history kept oldest first, the newest items. It walks toward older items (previous links, or next
// links when the pages turn out newest first, from the first page), and
// stops at the first match, at the page that reaches before since, or at
// the list's end. A service that refuses page=last is read from the first
// page on. A page that fails is read again (reconReader); the error is
// the read's that still failed, or a link refused (ErrPagination).
func (s historySearch[T]) run(ctx context.Context, r reconReader) (searchResult[T], error) {
	var none searchResult[T]
	first, err := r.c.resolve(s.list.first.path)
	if err != nil {
		return none, err
	}
	q := first.Query()
	q.Set("page_size", strconv.Itoa(searchPageSize))
	first.RawQuery = q.Encode()
	last := *first
	q.Set("page", "last")
	last.RawQuery = q.Encode()

	forward := false // walking next links (newest first) rather than previous ones
	cur := &last
	page, err := s.read(ctx, r, cur)
	if refused(err) {
		// No page=last: from the first page on, to the end unless the
		// pages turn out newest first.
		forward, cur = true, first
		page, err = s.read(ctx, r, cur)
	}
	if err != nil {
		return none, err
	}
	order := orderOf(page.Results, s.created)
	if !forward && order == orderNewestFirst && page.Previous != nil && *page.Previous != "" {
		// The last page holds the oldest items: the newest are on the first.
		forward, cur = true, first
		if page, err = s.read(ctx, r, cur); err != nil {
			return none, err
		}
		order = orderOf(page.Results, s.created)
	}
	seen := map[[sha256.Size]byte]bool{sha256.Sum256([]byte(cur.String())): true}
	inOrder := order != orderMixed // every page so far in one order
	want := orderOldestFirst       // the order in which stopping at since is sound
	if forward {
		want = orderNewestFirst
	}
	for pages := 1; ; pages++ {
		items := page.Results
		for i := range items {
			j := i
			if !forward {
				j = len(items) - 1 - i // newest first
			}
			if s.match(&items[j]) {
				return searchResult[T]{item: &items[j]}, nil
			}
		}
		link := page.Previous
		if forward {
			link = page.Next
		}
		inOrder = inOrder && (order == want || order == orderNone)
		if len(items) == 0 || link == nil || *link == "" {
			return searchResult[T]{complete: true}, nil
		}
		if inOrder && !s.since.IsZero() && reachesBefore(items, s.created, s.since) {
			return searchResult[T]{complete: true}, nil
		}
		if limit := r.c.cfg.maxPages; pages >= limit {
			return none, fmt.Errorf("%w: more than %d pages (the cap of WithMaxPages): link %q not followed", ErrPagination, limit, *link)
		}
		if cur, err = r.c.pageURL(cur, *link); err != nil {
			return none, err
		}
		digest := sha256.Sum256([]byte(cur.String()))
		if seen[digest] {
			return none, fmt.Errorf("%w: link %q repeats an earlier page", ErrPagination, *link)
		}
		seen[digest] = true
		if page, err = s.read(ctx, r, cur); err != nil {
			return none, err
		}
		order = orderOf(page.Results, s.created)
		inOrder = inOrder && order != orderMixed
	}
}

// reachesBefore reports whether an item of items was created before since.
func reachesBefore[T any](items []T, created func(*T) time.Time, since time.Time) bool {
	return slices.ContainsFunc(items, func(it T) bool { return created(&it).Before(since) })
}

// read fetches the page at u.
func (s historySearch[T]) read(ctx context.Context, r reconReader, u *url.URL) (*types.Page[T], error) {
	op := s.list.first
	op.path, op.url = "", u
	return read[types.Page[T]](ctx, r, op)
}

// historyDays are the days (UTC) a history filter asks for to cover from
// to to, a day wider on each side; both zero when neither is known.
func historyDays(from, to time.Time) (start, end time.Time) {
	if from.IsZero() && to.IsZero() {
		return time.Time{}, time.Time{}
	}
	if from.IsZero() {
		from = to
	}
	if to.IsZero() || to.Before(from) {
		to = from
	}
	return from.UTC().Add(-historySlack), to.UTC().Add(historySlack)
}

// checkWindow refuses an attempt's window with one end, or ending before
// it starts.
func checkWindow(from, to time.Time) error {
	switch {
	case from.IsZero() && to.IsZero():
		return nil
	case from.IsZero():
		return invalid("from", "a to date needs a from date: give both or neither")
	case to.IsZero():
		return invalid("to", "a from date needs a to date: give both or neither")
	case to.Before(from):
		return invalid("to", "comes before from")
	}
	return nil
}

// attemptSince is the earliest time an attempt from from could have
// created something, on the service's clock: zero when from is.
func attemptSince(from time.Time) time.Time {
	if from.IsZero() {
		return from
	}
	return from.Add(-clockSlack)
}

// quotationWindow is when something could have been created on a
// quotation created at created and expiring at expiry (on the service's
// clock), for a history search: its days, and the time before which
// nothing can match. An unknown creation time leaves the search unbounded.
func quotationWindow(created, expiry, now time.Time) (start, end, since time.Time) {
	if created.IsZero() {
		return time.Time{}, time.Time{}, time.Time{}
	}
	if expiry.Before(created) {
		expiry = now
	}
	start, end = historyDays(created, expiry)
	return start, end, created.Add(-clockSlack)
}

// quoteStatus is a status from the service, fit for a reason.
func quoteStatus(s string) string {
	if s == "" {
		return "(none)"
	}
	return `"` + sanitize(s, maxDetailText) + `"`
}

// normalStatus is a quotation's status as the verdicts compare it.
func normalStatus(s types.QuotationStatus) types.QuotationStatus {
	return types.QuotationStatus(strings.ToUpper(strings.TrimSpace(string(s))))
}
