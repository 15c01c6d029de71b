package sandbox_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

var (
	soakLong = flag.Bool("soak.long", false,
		fmt.Sprintf("TestSoak: make %d payout creations instead of %d", soakLongCreations, soakDefaultCreations))
	soakCreations = flag.Int("soak.creations", 0, "TestSoak: make this many payout creations (wins over -soak.long and -short)")
)

const (
	// soakDefaultCreations is the size CI runs (go test -race ./...).
	soakDefaultCreations = 2000
	// soakLongCreations is the size of -soak.long.
	soakLongCreations = 20000
	// soakShortCreations is the size under -short.
	soakShortCreations = 400
	// soakCallers is how many goroutines share the client.
	soakCallers = 16
	// soakSeed seeds the sandbox's fault draws; the callers' interleaving
	// still changes which requests meet them.
	soakSeed = 20261121
	// soakFaultShare is the share of payout requests each fault kind
	// spoils: five kinds, about 20% of the requests in all.
	soakFaultShare = 0.04
	// soakMaxDumps caps how many attempt traces a failing run prints.
	soakMaxDumps = 20
)

// Payout create paths the faults target. GETs are left alone: Go's
// transport silently resends a GET dropped on a reused connection.
const (
	soakStandardPath  = "/pos/api/v1/payout/initiate"
	soakPrefundedPath = "/pos/api/v1/prefunded/payout/initiate"
)

// soakFaultKinds are the injected kinds, in injection order.
var soakFaultKinds = []sandbox.FaultKind{
	sandbox.FaultDropBefore,
	sandbox.FaultDropAfter,
	sandbox.FaultInternalError,
	sandbox.FaultUnavailable,
	sandbox.FaultRateLimit,
}

// soakOutcome is how a creation ended for its caller.
type soakOutcome int

const (
	soakSuccess soakOutcome = iota // a payout was returned
	soakUnknown                    // errors.Is(err, fiatramp.ErrOutcomeUnknown)
	soakPlain                      // any other error: no payout may exist
)

// soakAttempt is one attempt as the transport saw it: a status, or the
// transport error.
type soakAttempt struct {
	status int
	err    error
}

func (a soakAttempt) String() string {
	if a.err != nil {
		return "error: " + a.err.Error()
	}
	return fmt.Sprintf("HTTP %d", a.status)
}

// soakJob is one payout creation, on a quotation of its own.
type soakJob struct {
	index     int
	prefunded bool
	q         sandbox.Quotation

	// Filled by the caller.
	outcome  soakOutcome
	ref      string // from the result or the OutcomeUnknownError
	payoutID uuid.UUID
	probably bool // OutcomeUnknownError.ProbablyCreated
	attempts int  // OutcomeUnknownError.Attempts
	err      error
	trace    []soakAttempt // the creation's attempts

	// Filled by the reconciliation of an unknown outcome.
	reconErr   error
	reconTrace []soakAttempt
}

func (j *soakJob) kind() string {
	if j.prefunded {
		return "prefunded"
	}
	return "standard"
}

// describe lists j's attempts and those of its reconciliation.
func (j *soakJob) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\terror: %v", j.err)
	for k, a := range j.trace {
		fmt.Fprintf(&b, "\n\tattempt %d: %s", k+1, a)
	}
	if j.reconErr != nil || len(j.reconTrace) > 0 {
		fmt.Fprintf(&b, "\n\treconciliation error: %v", j.reconErr)
		for k, a := range j.reconTrace {
			fmt.Fprintf(&b, "\n\treconciliation attempt %d: %s", k+1, a)
		}
	}
	return b.String()
}

// soakTraceKey is the context key of the *[]soakAttempt a call's attempts
// are appended to.
type soakTraceKey struct{}

// soakTransport counts every attempt and records it in the trace its
// request's context carries. http.Client calls RoundTrip on the caller's
// goroutine, so each trace has one writer.
type soakTransport struct {
	base     http.RoundTripper
	attempts atomic.Int64
}

func (t *soakTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.attempts.Add(1)
	resp, err := t.base.RoundTrip(req)
	if trace, ok := req.Context().Value(soakTraceKey{}).(*[]soakAttempt); ok {
		a := soakAttempt{err: err}
		if resp != nil {
			a.status = resp.StatusCode
		}
		*trace = append(*trace, a)
	}
	return resp, err
}

// soakSize is the number of creations of this run.
func soakSize() int {
	switch {
	case *soakCreations > 0:
		return *soakCreations
	case *soakLong:
		return soakLongCreations
	case testing.Short():
		return soakShortCreations
	}
	return soakDefaultCreations
}

// soakCreate creates j's payout with reference ref ("" lets the client
// generate one), appending the attempts to trace. It returns the payout id
// and the reference of the result.
func soakCreate(c *fiatramp.Client, sender uuid.UUID, j *soakJob, ref string, trace *[]soakAttempt) (uuid.UUID, *string, error) {
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), soakTraceKey{}, trace), time.Minute)
	defer cancel()
	if j.prefunded {
		p, err := c.Payouts.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{
			QuotationID: j.q.ID,
			Customer: types.PrefundedCustomer{
				Sender:   types.CustomerRef{ID: sender},
				Receiver: types.CustomerRef{ID: j.q.CustomerID},
			},
			ClientReferenceID: ref,
		})
		if err != nil {
			return uuid.Nil, nil, err
		}
		return p.ID, p.ClientReferenceID, nil
	}
	p, err := c.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: j.q.ID, CustomerID: j.q.CustomerID, ClientReferenceID: ref,
	})
	if err != nil {
		return uuid.Nil, nil, err
	}
	return p.ID, p.ClientReferenceID, nil
}

// soakRun makes j's creation and classifies its outcome.
func soakRun(c *fiatramp.Client, sender uuid.UUID, j *soakJob) {
	id, ref, err := soakCreate(c, sender, j, "", &j.trace)
	j.err = err
	var unknown *fiatramp.OutcomeUnknownError
	switch {
	case err == nil:
		j.outcome, j.payoutID = soakSuccess, id
		if ref != nil {
			j.ref = *ref
		}
	case errors.Is(err, fiatramp.ErrOutcomeUnknown):
		j.outcome = soakUnknown
		if errors.As(err, &unknown) {
			j.ref, j.probably, j.attempts = unknown.ClientReferenceID, unknown.ProbablyCreated, unknown.Attempts
		}
	default:
		j.outcome = soakPlain
	}
}

// soakStored returns the organization's stored payouts by quotation.
func soakStored(sb *sandbox.Sandbox, orgID uuid.UUID) (map[uuid.UUID][]sandbox.Payout, int) {
	all := sb.Payouts(orgID)
	byQuotation := make(map[uuid.UUID][]sandbox.Payout, len(all))
	for _, p := range all {
		byQuotation[p.QuotationID] = append(byQuotation[p.QuotationID], p)
	}
	return byQuotation, len(all)
}

// soakRef returns *p, or "<nil>".
func soakRef(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// TestSoak makes thousands of payout creations, standard and prefunded, each
// on its own quotation, from 16 goroutines through one shared client with
// retries, against a sandbox that spoils about a fifth of the payout
// requests (dropped connections before and after the payout is stored,
// 500, 503, 429; about 4% each). Whatever each caller was told, the stored
// payouts must agree: a success has exactly its payout, an outcome unknown
// at most one (exactly one when ProbablyCreated), which reconciliation
// (repeating the create with the same reference) settles, a plain failure
// none; no quotation pays twice, the prefunded balance is debited exactly
// for the stored prefunded payouts, and no goroutine outlives the run.
//
// CI runs the default size (2,000 creations) under go test -race ./...;
// -short shrinks it. The long version (20,000 creations):
//
//	go test -run TestSoak -v ./sandbox/ -args -soak.long
//
// and -soak.creations=N sets any size.
func TestSoak(t *testing.T) {
	n := soakSize()
	baseline := runtime.NumGoroutine()

	// Fixtures: one prefunded organization, four verified receivers with a
	// bank account each, a verified sender, and a quotation per creation.
	sb := sandbox.New(func(s *sandbox.Settings) { s.Seed = soakSeed })
	sb.SetTime(epoch)
	org, err := sb.AddOrganization(sandbox.Organization{Name: "Soak Payouts", Prefunded: true})
	require.NoError(t, err)
	sender, err := sb.AddCustomer(sandbox.Customer{OrganizationID: org.ID, Name: "Soak Sender"})
	require.NoError(t, err)
	var receivers []sandbox.Customer
	for i := range 4 {
		c, err := sb.AddCustomer(sandbox.Customer{OrganizationID: org.ID, Name: fmt.Sprintf("Soak Receiver %d", i)})
		require.NoError(t, err)
		_, err = sb.AddBankAccount(sandbox.BankAccount{CustomerID: c.ID})
		require.NoError(t, err)
		receivers = append(receivers, c)
	}
	jobs := make([]*soakJob, n)
	byQuotation := make(map[uuid.UUID]*soakJob, n)
	prefundedTotal := decimal.Zero
	nPrefunded := 0
	for i := range jobs {
		q, err := sb.AddQuotation(sandbox.Quotation{
			CustomerID:    receivers[i%len(receivers)].ID,
			SendingAmount: decimal.New(int64(1000+(i*37)%9000), -2), // 10.00 to 99.99
		})
		require.NoError(t, err)
		j := &soakJob{index: i, prefunded: i%2 == 1, q: q}
		if j.prefunded {
			nPrefunded++
			prefundedTotal = prefundedTotal.Add(q.SendingAmount)
		}
		jobs[i], byQuotation[q.ID] = j, j
	}
	startBalance := prefundedTotal.Add(decimal.NewFromInt(1000)) // enough for every one
	require.NoError(t, sb.SetBalance(org.ID, "USDT", startBalance))

	// Faults: the first matching rule whose draw hits wins, so rule i
	// (from 1) spoils p_i = share/(1-share*(i-1)) of what reaches it, and
	// each kind gets share of all requests.
	for _, path := range []string{soakStandardPath, soakPrefundedPath} {
		for i, kind := range soakFaultKinds {
			require.NoError(t, sb.InjectFault(sandbox.Fault{
				Kind: kind, Method: http.MethodPost, Path: path,
				Fraction: soakFaultShare / (1 - soakFaultShare*float64(i)),
			}))
		}
	}

	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	closeServer := sync.OnceValue(srv.Close)
	t.Cleanup(func() { _ = closeServer() })

	base := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
		MaxIdleConns:        2 * soakCallers,
		MaxIdleConnsPerHost: 2 * soakCallers,
		IdleConnTimeout:     time.Minute,
	}
	t.Cleanup(base.CloseIdleConnections)
	rt := &soakTransport{base: base}
	client, err := fiatramp.New(org.APIKey, org.APISecret,
		fiatramp.WithBaseURL(srv.URL),
		fiatramp.WithClock(sb.Now),
		fiatramp.WithHTTPClient(&http.Client{Transport: rt}),
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}),
	)
	require.NoError(t, err)

	// The soak: soakCallers goroutines pull the creations from a channel.
	queue := make(chan *soakJob)
	var wg sync.WaitGroup
	start := time.Now()
	for range soakCallers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				soakRun(client, sender.ID, j)
			}
		}()
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
	elapsed := time.Since(start)
	stats := sb.Stats()
	attempts := rt.attempts.Load()
	sb.ClearFaults()

	dumps := 0
	fail := func(j *soakJob, format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if dumps < soakMaxDumps {
			dumps++
			msg += "\n" + j.describe()
		}
		t.Errorf("creation %d (%s, quotation %s, reference %q): %s", j.index, j.kind(), j.q.ID, j.ref, msg)
	}

	// The callers' outcomes against what the sandbox stored.
	stored, nStored := soakStored(sb, org.ID)
	for qid, ps := range stored {
		if _, ours := byQuotation[qid]; !ours {
			t.Errorf("%d stored payout(s) for quotation %s, which no creation used", len(ps), qid)
		}
	}
	var nSuccess, nUnknown, nProbably, nPlain, perAttemptsMax int
	perAttempts := map[int]int{}
	wantKind := func(j *soakJob) sandbox.PayoutKind {
		if j.prefunded {
			return sandbox.PayoutPrefunded
		}
		return sandbox.PayoutStandard
	}
	for _, j := range jobs {
		perAttempts[len(j.trace)]++
		perAttemptsMax = max(perAttemptsMax, len(j.trace))
		ps := stored[j.q.ID]
		if len(ps) > 1 {
			fail(j, "%d stored payouts for one quotation", len(ps))
		}
		if len(ps) > 0 && ps[0].Kind != wantKind(j) {
			fail(j, "stored payout is %s", ps[0].Kind)
		}
		switch j.outcome {
		case soakSuccess:
			nSuccess++
			if j.ref == "" {
				fail(j, "the result carries no client_reference_id")
			}
			if len(ps) != 1 {
				fail(j, "success, but %d stored payouts", len(ps))
			} else if ps[0].ID != j.payoutID || soakRef(ps[0].ClientReferenceID) != j.ref {
				fail(j, "success with payout %s, but the stored one is %s with reference %q",
					j.payoutID, ps[0].ID, soakRef(ps[0].ClientReferenceID))
			}
		case soakUnknown:
			nUnknown++
			var unknown *fiatramp.OutcomeUnknownError
			switch {
			case !errors.As(j.err, &unknown):
				fail(j, "errors.Is(err, ErrOutcomeUnknown) without an *OutcomeUnknownError")
			case unknown.QuotationID != j.q.ID || j.ref == "":
				fail(j, "OutcomeUnknownError names quotation %s and reference %q", unknown.QuotationID, j.ref)
			case j.attempts != len(j.trace):
				fail(j, "OutcomeUnknownError counts %d attempts, the transport saw %d", j.attempts, len(j.trace))
			}
			if j.probably {
				nProbably++
				if len(ps) != 1 {
					fail(j, "outcome unknown, probably created, but %d stored payouts", len(ps))
				}
			}
			if len(ps) > 1 {
				fail(j, "outcome unknown, but %d stored payouts", len(ps))
			}
			if len(ps) == 1 && soakRef(ps[0].ClientReferenceID) != j.ref {
				fail(j, "outcome unknown, but the stored payout has reference %q", soakRef(ps[0].ClientReferenceID))
			}
		case soakPlain:
			nPlain++
			t.Logf("plain failure: creation %d (%s, quotation %s):\n%s", j.index, j.kind(), j.q.ID, j.describe())
			if len(ps) != 0 {
				fail(j, "plain failure, but %d stored payout(s)", len(ps))
			}
		}
	}
	if want := nSuccess + withPayoutOf(jobs, stored, soakUnknown); nStored != want {
		t.Errorf("%d stored payouts, want %d (successes %d + unknowns with a payout %d)", nStored, want, nSuccess, want-nSuccess)
	}
	midBalance := sb.Balance(org.ID, "USDT")
	if want := startBalance.Sub(soakReserved(jobs, stored)); !midBalance.Equal(want) {
		t.Errorf("prefunded USDT balance after the soak is %s, want %s", midBalance, want)
	}

	// Reconciliation of every unknown outcome, as a pipeline would do it:
	// the same create, same reference and quotation, now without faults.
	// It succeeds (the payout is created now) or is refused as a duplicate
	// (an earlier attempt created it).
	// Counted for the undetermined outcomes; a probably-created one must
	// be refused as a duplicate.
	var reconCreated, reconExisted, reconConfirmed int
	beforeRecon := sb.Stats().Requests
	for _, j := range jobs {
		if j.outcome != soakUnknown || j.ref == "" {
			continue
		}
		before := len(stored[j.q.ID])
		id, ref, err := soakCreate(client, sender.ID, j, j.ref, &j.reconTrace)
		j.reconErr = err
		switch {
		case err == nil:
			reconCreated++
			if j.probably || before != 0 {
				fail(j, "reconciliation created payout %s, but the outcome was probably-created %v with %d stored", id, j.probably, before)
			}
			if soakRef(ref) != j.ref {
				fail(j, "reconciliation's payout carries reference %q", soakRef(ref))
			}
			if p, ok := sb.PayoutByReference(org.ID, j.ref); !ok || p.ID != id || p.QuotationID != j.q.ID {
				fail(j, "reconciliation's payout %s is not stored under its reference", id)
			}
		case errors.Is(err, fiatramp.ErrClientReferenceExists), errors.Is(err, fiatramp.ErrQuotationAlreadyLinked):
			if j.probably {
				reconConfirmed++
			} else {
				reconExisted++
			}
			if before != 1 {
				fail(j, "reconciliation refused as a duplicate, but %d payouts were stored", before)
			}
		default:
			fail(j, "reconciliation failed: %v", err)
		}
	}
	reconRequests := sb.Stats().Requests - beforeRecon
	logged := 0
	for _, j := range jobs {
		if j.outcome == soakUnknown && !j.probably && logged < soakMaxDumps {
			logged++
			t.Logf("undetermined outcome: creation %d (%s, quotation %s, %d payout(s) stored before reconciliation):\n%s",
				j.index, j.kind(), j.q.ID, len(stored[j.q.ID]), j.describe())
		}
	}

	final, nFinal := soakStored(sb, org.ID)
	for _, j := range jobs {
		want := 1
		if j.outcome == soakPlain {
			want = 0
		}
		if got := len(final[j.q.ID]); got != want {
			fail(j, "after reconciliation: %d stored payouts, want %d", got, want)
		}
	}
	if want := nSuccess + nUnknown; nFinal != want {
		t.Errorf("after reconciliation: %d stored payouts, want %d", nFinal, want)
	}
	finalBalance := sb.Balance(org.ID, "USDT")
	if want := startBalance.Sub(soakReserved(jobs, final)); !finalBalance.Equal(want) {
		t.Errorf("prefunded USDT balance after reconciliation is %s, want %s", finalBalance, want)
	}

	// No goroutine outlives the server and the client's connections.
	require.NoError(t, closeServer())
	base.CloseIdleConnections()
	leftover := soakSettle(baseline, 5*time.Second)
	if leftover > baseline {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after the run, %d before:\n%s", leftover, baseline, buf[:runtime.Stack(buf, true)])
	}

	// The figures.
	faults := 0
	var faultLine []string
	for _, k := range soakFaultKinds {
		faults += stats.Faults[k]
		faultLine = append(faultLine, fmt.Sprintf("%s %d", k, stats.Faults[k]))
	}
	var hist []string
	for a := 1; a <= perAttemptsMax; a++ {
		hist = append(hist, fmt.Sprintf("%d: %d", a, perAttempts[a]))
	}
	percent := func(part, whole int) float64 {
		if whole == 0 {
			return 0
		}
		return 100 * float64(part) / float64(whole)
	}
	t.Logf(`soak figures:
  creations:        %d (standard %d, prefunded %d) by %d callers, one client
  duration:         %s (%.0f creations/s)
  requests served:  %d (client attempts %d; retries %d)
  faults:           %d = %.1f%% of requests: %s
  attempts/creation %s
  outcomes:         success %d, unknown %d (probably created %d, undetermined %d), plain failure %d
  reconciliation:   %d calls, %d requests: probably created: %d refused as already created; undetermined: created now %d, refused as already created %d
  stored payouts:   %d after the soak (= successes %d + unknowns with a payout %d), %d after reconciliation
  USDT balance:     before %s, after the soak %s, after reconciliation %s (reserved %s)
  goroutines:       %d before, %d after`,
		n, n-nPrefunded, nPrefunded, soakCallers,
		elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds(),
		stats.Requests, attempts, attempts-int64(n),
		faults, percent(faults, stats.Requests), strings.Join(faultLine, ", "),
		strings.Join(hist, ", "),
		nSuccess, nUnknown, nProbably, nUnknown-nProbably, nPlain,
		nUnknown, reconRequests, reconConfirmed, reconCreated, reconExisted,
		nStored, nSuccess, nStored-nSuccess, nFinal,
		startBalance, midBalance, finalBalance, startBalance.Sub(finalBalance),
		baseline, leftover)
}

// withPayoutOf counts the creations with outcome o that have a stored
// payout.
func withPayoutOf(jobs []*soakJob, stored map[uuid.UUID][]sandbox.Payout, o soakOutcome) int {
	n := 0
	for _, j := range jobs {
		if j.outcome == o && len(stored[j.q.ID]) > 0 {
			n++
		}
	}
	return n
}

// soakReserved is the sum of the sending amounts of the prefunded
// creations with a stored payout: what the prefunded balance must have
// lost (the sandbox reserves a prefunded payout's sending amount).
func soakReserved(jobs []*soakJob, stored map[uuid.UUID][]sandbox.Payout) decimal.Decimal {
	sum := decimal.Zero
	for _, j := range jobs {
		if j.prefunded {
			for range stored[j.q.ID] {
				sum = sum.Add(j.q.SendingAmount)
			}
		}
	}
	return sum
}

// soakSettle waits up to limit for the number of goroutines to come down to
// baseline, and returns the last count.
func soakSettle(baseline int, limit time.Duration) int {
	deadline := time.Now().Add(limit)
	for {
		n := runtime.NumGoroutine()
		if n <= baseline || time.Now().After(deadline) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}
