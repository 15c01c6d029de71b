package payoutjobs

import (
	"bufio"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// soakOptions size a soak run.
type soakOptions struct {
	jobs      int           // instructions submitted
	workers   int           // worker processes
	submitFor time.Duration // how long submissions, faults and kills go on
	killEvery time.Duration // mean time between SIGKILLs from outside (0: none)
	crashRate float64       // chance of a self-SIGKILL at each recovery point
	bound     time.Duration // every job must end this long after the faults stop
	broken    bool          // the deliberately broken variant
}

// soakFigures are what a soak run did and found.
type soakFigures struct {
	jobs, resubmits, refusable int
	kills, crashes             int
	crashPoints                map[string]int
	faults                     map[sandbox.FaultKind]int
	deliveryFaults             map[sandbox.DeliveryFaultKind]int
	deliveries                 int
	finalBy                    map[string]int
	outcomes                   map[string]int
	doubles, losses, unsettled int
	problems                   []string
	drain, total               time.Duration
}

func (f soakFigures) String() string {
	return fmt.Sprintf("jobs %d (resubmitted %d, refusable %d), worker processes SIGKILLed %d from outside and %d at a recovery point %v; "+
		"service faults %v; webhook deliveries %d, delivery faults %v; ended by %v, outcomes %v; "+
		"doubles %d, losses %d, unsettled %d; drained in %s, run %s",
		f.jobs, f.resubmits, f.refusable, f.kills, f.crashes, f.crashPoints, f.faults, f.deliveries, f.deliveryFaults,
		f.finalBy, f.outcomes, f.doubles, f.losses, f.unsettled, f.drain.Round(time.Millisecond), f.total.Round(time.Millisecond))
}

// TestSoakKilledWorkersUnderFaults is the crash soak: worker processes
// (this test binary re-executed) work payout jobs while they are
// SIGKILLed at random moments from outside and at recovery points from
// inside, the sandbox drops, fails, delays past the timeout and answers
// late (after taking effect), and webhook deliveries are duplicated,
// delayed and lost. Then the faults stop, and every job must end within
// a bound: no payout made twice, no instruction lost, every user effect
// applied exactly once, each matching the payout's final status.
// PAYOUTJOBS_SOAK_LONG=1 runs a longer soak.
func TestSoakKilledWorkersUnderFaults(t *testing.T) {
	o := soakOptions{jobs: 120, workers: 3, submitFor: 15 * time.Second, killEvery: 2 * time.Second, crashRate: 0.02, bound: 50 * time.Second}
	if os.Getenv("PAYOUTJOBS_SOAK_LONG") == "1" {
		o = soakOptions{jobs: 2000, workers: 4, submitFor: 120 * time.Second, killEvery: time.Second, crashRate: 0.01, bound: 60 * time.Second}
	}
	if testing.Short() {
		o.jobs, o.submitFor = 40, 6*time.Second
	}
	f := runSoak(t, o)
	t.Log(f)
	for _, p := range f.problems {
		t.Error(p)
	}
	assert.Zero(t, f.doubles, "payouts made twice or effects doubled")
	assert.Zero(t, f.losses, "instructions lost")
	assert.Zero(t, f.unsettled, "jobs unsettled %s after the faults stopped", o.bound)
	assert.Positive(t, f.kills+f.crashes, "no worker was killed")
}

// TestSoakCatchesRequoteAfterUnknown runs the soak with the deliberately
// broken variant, which answers an unknown outcome with a new quotation
// and a new create instead of a reconciliation (and takes the refusal of
// the held reference as the end). The soak must find what it does: a
// job ended "refused", its user credited back, while its payout went out.
func TestSoakCatchesRequoteAfterUnknown(t *testing.T) {
	f := runSoak(t, soakOptions{jobs: 40, workers: 2, submitFor: 5 * time.Second, bound: 20 * time.Second, broken: true})
	t.Log(f)
	for _, p := range f.problems {
		t.Log(p)
	}
	assert.Positive(t, f.doubles, "the soak did not catch the broken variant")
}

// soakRun is a soak's state.
type soakRun struct {
	t    *testing.T
	h    *harness
	o    soakOptions
	env  []string
	mu   sync.Mutex
	live map[int]*soakWorker // slot -> running worker
	f    soakFigures
	stop chan struct{} // closed when workers are no longer restarted
	wg   sync.WaitGroup
}

type soakWorker struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	port  int
}

func runSoak(t *testing.T, o soakOptions) soakFigures {
	start := time.Now()
	h := newHarness(t, func(st *sandbox.Settings) {
		st.Seed = 20261128
		st.WebhookWorkers = 8
	})
	r := &soakRun{t: t, h: h, o: o, live: map[int]*soakWorker{}, stop: make(chan struct{})}
	r.f.crashPoints = map[string]int{}
	r.f.finalBy, r.f.outcomes = map[string]int{}, map[string]int{}
	r.f.faults, r.f.deliveryFaults = map[sandbox.FaultKind]int{}, map[sandbox.DeliveryFaultKind]int{}

	// The parent is a replica too (never killed, one worker), started
	// first so that it is likely River's leader, whose rescuer takes over
	// the jobs of killed workers.
	parentClient := h.client(soakClientOptions(h.srv.URL)...)
	p := h.pipeline(soakConfig(Config{Client: parentClient, Workers: 1, requoteAfterUnknown: o.broken}))
	r.env = append(os.Environ(), workerEnv+"=1", soakEnvDSN+"="+h.dsn, soakEnvSandbox+"="+h.srv.URL,
		soakEnvKey+"="+h.org.APIKey, soakEnvSecret+"="+h.org.APISecret,
		soakEnvCrashRate+"="+strconv.FormatFloat(o.crashRate, 'f', -1, 64))
	if o.broken {
		r.env = append(r.env, soakEnvBroken+"=1")
	}

	// Webhooks go to a random live worker process through this proxy; a
	// delivery with no live worker, or to one killed meanwhile, fails and
	// is retried by the sandbox, or lost.
	proxy := httptest.NewServer(http.HandlerFunc(r.forward))
	defer proxy.Close()
	require.NoError(t, h.sb.SetWebhookURL(h.org.ID, proxy.URL))

	for slot := range o.workers {
		r.wg.Add(1)
		go r.supervise(slot)
	}
	r.injectFaults()

	// Submit, settle and kill for submitFor.
	settleDone := make(chan struct{})
	settleStop := make(chan struct{})
	go func() { defer close(settleDone); r.settler(settleStop) }()
	killStop := make(chan struct{})
	killDone := make(chan struct{})
	go func() { defer close(killDone); r.killer(killStop) }()
	refs := r.submitAll(p)
	close(killStop)
	<-killDone

	// The faults stop; every job must end within the bound.
	h.sb.ClearFaults()
	h.sb.ClearDeliveryFaults()
	drainStart := time.Now()
	deadline := drainStart.Add(o.bound)
	for time.Now().Before(deadline) {
		c, err := p.Counts(context.Background())
		require.NoError(t, err)
		if c.Submitted+c.Running+c.Unknown+c.Awaiting+c.Failed == 0 && c.Total() == len(refs) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	r.f.drain = time.Since(drainStart)
	close(settleStop)
	<-settleDone
	close(r.stop)
	r.mu.Lock()
	for _, w := range r.live {
		_ = w.stdin.Close()
	}
	r.mu.Unlock()
	r.wg.Wait()

	r.check(p, refs)
	st := h.sb.Stats()
	for k, v := range st.Faults {
		r.f.faults[k] = v
	}
	for _, d := range h.sb.Deliveries() {
		r.f.deliveries++
		if d.Fault != "" {
			r.f.deliveryFaults[d.Fault]++
		}
	}
	r.f.total = time.Since(start)
	return r.f
}

// injectFaults spoils a share of the payout calls and of the deliveries.
func (r *soakRun) injectFaults() {
	const create, quote = "/pos/api/v1/payout/initiate", "/pos/api/v1/payout/quotation"
	late := soakClientTimeout + 300*time.Millisecond
	if r.o.broken {
		// Unknown outcomes are what the broken variant mishandles.
		require.NoError(r.t, r.h.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Method: "POST", Path: create, Fraction: 0.5}))
	}
	for _, f := range []sandbox.Fault{
		{Kind: sandbox.FaultDropBefore, Method: "POST", Path: create, Fraction: 0.05},
		{Kind: sandbox.FaultDropAfter, Method: "POST", Path: create, Fraction: 0.06},
		{Kind: sandbox.FaultInternalError, Method: "POST", Path: create, Fraction: 0.05},
		{Kind: sandbox.FaultUnavailable, Method: "POST", Path: create, Fraction: 0.04},
		{Kind: sandbox.FaultDelayAfter, Method: "POST", Path: create, Fraction: 0.06, Delay: late},
		{Kind: sandbox.FaultDelay, Method: "POST", Path: create, Fraction: 0.03, Delay: late},
		{Kind: sandbox.FaultDropAfter, Method: "POST", Path: quote, Fraction: 0.05},
		{Kind: sandbox.FaultUnavailable, Method: "POST", Path: quote, Fraction: 0.05},
		{Kind: sandbox.FaultInternalError, Method: "GET", Path: "/pos/api/v1/payout/*", Fraction: 0.05},
	} {
		require.NoError(r.t, r.h.sb.InjectFault(f))
	}
	for i, k := range []sandbox.DeliveryFaultKind{sandbox.DeliveryFaultDuplicate, sandbox.DeliveryFaultDelay, sandbox.DeliveryFaultDrop} {
		require.NoError(r.t, r.h.sb.InjectDeliveryFault(sandbox.DeliveryFault{
			Kind: k, Type: "PAYOUT", Fraction: 0.12 / (1 - 0.12*float64(i)), Delay: 400 * time.Millisecond,
		}))
	}
}

// supervise runs the worker process of slot, starting it again after it
// died, until the run stops.
func (r *soakRun) supervise(slot int) {
	defer r.wg.Done()
	for {
		select {
		case <-r.stop:
			return
		default:
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = r.env
		cmd.Stderr = os.Stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		stdin, err := cmd.StdinPipe()
		require.NoError(r.t, err)
		stdout, err := cmd.StdoutPipe()
		require.NoError(r.t, err)
		require.NoError(r.t, cmd.Start())
		w := &soakWorker{cmd: cmd, stdin: stdin}
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "PORT "):
				w.port, _ = strconv.Atoi(strings.TrimPrefix(line, "PORT "))
				r.mu.Lock()
				r.live[slot] = w
				r.mu.Unlock()
			case strings.HasPrefix(line, "CRASH "):
				r.mu.Lock()
				r.f.crashes++
				r.f.crashPoints[strings.TrimPrefix(line, "CRASH ")]++
				r.mu.Unlock()
			}
		}
		_ = cmd.Wait()
		r.mu.Lock()
		if r.live[slot] == w {
			delete(r.live, slot)
		}
		r.mu.Unlock()
	}
}

// killer SIGKILLs a random live worker every killEvery on average.
func (r *soakRun) killer(stop <-chan struct{}) {
	if r.o.killEvery <= 0 {
		return
	}
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Duration(rand.Int64N(int64(2 * r.o.killEvery)))):
		}
		r.mu.Lock()
		var ws []*soakWorker
		for _, w := range r.live {
			ws = append(ws, w)
		}
		if len(ws) > 0 {
			w := ws[rand.IntN(len(ws))]
			if w.cmd.Process.Signal(syscall.SIGKILL) == nil {
				r.f.kills++
			}
		}
		r.mu.Unlock()
	}
}

// forward passes a webhook delivery to a random live worker.
func (r *soakRun) forward(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	var ports []int
	for _, wk := range r.live {
		if wk.port != 0 {
			ports = append(ports, wk.port)
		}
	}
	r.mu.Unlock()
	if len(ports) == 0 {
		http.Error(w, "no worker", http.StatusServiceUnavailable)
		return
	}
	body, _ := io.ReadAll(req.Body)
	out, _ := http.NewRequestWithContext(req.Context(), http.MethodPost, "http://127.0.0.1:"+strconv.Itoa(ports[rand.IntN(len(ports))])+req.URL.Path, strings.NewReader(string(body)))
	out.Header = req.Header.Clone()
	resp, err := http.DefaultClient.Do(out)
	if err != nil {
		http.Error(w, "worker gone", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// soakOutcome is the final status the settler gives the payout of ref.
func soakOutcome(ref string) types.PayoutStatus {
	h := fnv.New32a()
	_, _ = h.Write([]byte(ref))
	if h.Sum32()%5 == 0 {
		return types.PayoutFailed
	}
	return types.PayoutSuccess
}

// settler moves the payouts the workers made to their final status, as
// the bank would.
func (r *soakRun) settler(stop <-chan struct{}) {
	c := r.h.client()
	for {
		select {
		case <-stop:
			return
		case <-time.After(100 * time.Millisecond):
		}
		for _, po := range r.h.sb.Payouts(r.h.org.ID) {
			switch {
			case po.ClientReferenceID == nil:
			case po.Status == types.PayoutProcessing:
				_, _ = c.Payouts.SimulateStatus(context.Background(), po.ID, soakOutcome(*po.ClientReferenceID))
			case po.Status == types.PayoutFailed && rand.IntN(3) == 0: // the funds come back
				_ = r.h.sb.SetPayoutStatus(po.ID, types.PayoutRefunded)
			}
		}
	}
}

// submitAll submits o.jobs instructions over o.submitFor, each in its own
// transaction, and resubmits some (which must return the existing job).
// Every 25th asks for more than the sandbox allows, to be refused.
func (r *soakRun) submitAll(p *Pipeline) []string {
	ctx := context.Background()
	gap := r.o.submitFor / time.Duration(r.o.jobs)
	var refs []string
	for i := range r.o.jobs {
		in := r.h.instruction(i)
		if i%3 == 0 {
			in.ExchangeTransferID = fmt.Sprintf("TR-%05d", i)
		}
		if i%25 == 24 {
			in.Amount = decimal.NewFromInt(9000)
			r.f.refusable++
		}
		tx, err := r.h.pool.Begin(ctx)
		require.NoError(r.t, err)
		_, created, err := p.Submit(ctx, tx, in)
		require.NoError(r.t, err)
		require.NoError(r.t, tx.Commit(ctx))
		require.True(r.t, created)
		refs = append(refs, in.Reference)
		if i%10 == 9 { // a resubmission of an earlier instruction
			again := r.h.instruction(i - 5)
			if (i-5)%3 == 0 {
				again.ExchangeTransferID = fmt.Sprintf("TR-%05d", i-5)
			}
			if (i-5)%25 == 24 {
				again.Amount = decimal.NewFromInt(9000)
			}
			tx, err := r.h.pool.Begin(ctx)
			require.NoError(r.t, err)
			_, created, err := p.Submit(ctx, tx, again)
			require.NoError(r.t, err)
			require.NoError(r.t, tx.Commit(ctx))
			require.False(r.t, created)
			r.f.resubmits++
		}
		time.Sleep(gap)
	}
	r.f.jobs = len(refs)
	return refs
}

// check compares the jobs, the effects and the sandbox's payouts.
func (r *soakRun) check(p *Pipeline, refs []string) {
	ctx := context.Background()
	problem := func(counter *int, format string, args ...any) {
		*counter++
		r.f.problems = append(r.f.problems, fmt.Sprintf(format, args...))
	}
	effects := r.h.effects()
	payouts := map[string][]sandbox.Payout{}
	for _, po := range r.h.sb.Payouts(r.h.org.ID) {
		if po.ClientReferenceID == nil {
			problem(&r.f.doubles, "payout %s has no reference", po.ID)
			continue
		}
		payouts[*po.ClientReferenceID] = append(payouts[*po.ClientReferenceID], po)
	}
	known := map[string]bool{}
	sort.Strings(refs)
	for _, ref := range refs {
		known[ref] = true
		j, err := p.Get(ctx, ref)
		if err != nil {
			problem(&r.f.losses, "job %s: %v", ref, err)
			continue
		}
		pos := payouts[ref]
		if len(pos) > 1 {
			problem(&r.f.doubles, "job %s: %d payouts", ref, len(pos))
		}
		if !j.Phase.Done() {
			var state string
			var attempt int
			var scheduled time.Time
			_ = r.h.pool.QueryRow(ctx, `SELECT state, attempt, scheduled_at FROM river_job WHERE id = $1`, j.RiverJobID).Scan(&state, &attempt, &scheduled)
			problem(&r.f.unsettled, "job %s unsettled: phase %s, status %s, last error %q; River job %s, attempt %d, scheduled %s", ref, j.Phase, j.Status, j.LastError,
				state, attempt, scheduled.Format(time.RFC3339Nano))
			continue
		}
		r.f.finalBy[j.FinalBy]++
		eff := effects[ref]
		seen := map[string]bool{}
		for _, e := range eff {
			if seen[e] {
				problem(&r.f.doubles, "job %s: effect %s applied twice: %v", ref, e, eff)
			}
			seen[e] = true
		}
		if len(eff) == 0 {
			problem(&r.f.losses, "job %s ended %s without its effect", ref, j.Phase)
		}
		switch j.Phase {
		case PhaseRefused:
			r.f.outcomes["refused:"+j.Refusal]++
			if len(pos) > 0 {
				problem(&r.f.doubles, "job %s ended refused (%s) and credited back, but payout %s went out", ref, j.Refusal, pos[0].ID)
			}
		case PhaseFinal:
			r.f.outcomes[string(j.Status)]++
			if len(pos) == 0 || pos[0].ID != j.PayoutID {
				problem(&r.f.doubles, "job %s final with payout %s, which the service does not hold under the reference", ref, j.PayoutID)
			} else if pos[0].Status != j.Status {
				problem(&r.f.doubles, "job %s final %s, its payout %s", ref, j.Status, pos[0].Status)
			}
			// One effect per status reached: the final one last, FAILED
			// before REFUNDED when the FAILED was seen.
			want := []string{string(j.Status)}
			if j.Status == types.PayoutRefunded && len(eff) == 2 {
				want = []string{string(types.PayoutFailed), string(types.PayoutRefunded)}
			}
			if len(eff) > 0 && strings.Join(eff, ",") != strings.Join(want, ",") {
				problem(&r.f.doubles, "job %s final %s, its effects %v", ref, j.Status, eff)
			}
		}
	}
	for ref := range payouts {
		if !known[ref] {
			problem(&r.f.doubles, "payout with reference %s is no job's", ref)
		}
	}
}
