package sandbox

// The scheduler: the one queue of work waiting on the sandbox clock
// (webhook retries and delays, automatic KYC decisions, bank account
// verifications) and the one timer that wakes it while the clock runs.

import (
	"container/heap"
	"sync"
	"time"
)

// job is work due at a time of the sandbox clock. run is called with s.mu
// held and the time it was due at.
type job struct {
	at    time.Time
	kind  jobKind
	order int    // ties of at: lower first (a delivery's event Seq)
	seq   uint64 // ties of at and order: first scheduled first
	run   func(at time.Time)
}

// jobKind says what a job does, for NextDeliveryDue.
type jobKind uint8

const (
	jobDelivery jobKind = iota + 1
	jobKYC
	jobBank
)

// scheduler holds the jobs waiting on the sandbox clock. Its own mutex
// guards it; it is taken under Sandbox.mu and under the deliverer's lock,
// never the other way round, and no job runs while it is held.
//
// While the clock runs with real time, one timer wakes the sandbox at the
// earliest job's time; a stopped clock moves only by SetTime and Advance,
// which run what they move it past. Reset drops every job; Close drops
// them, refuses new ones and waits for a timer that has fired, so that no
// timer or goroutine outlives it.
type scheduler struct {
	mu      sync.Mutex
	jobs    jobHeap
	n       uint64
	alarm   *time.Timer
	alarmAt time.Time
	wake    func() // what the timer runs: Sandbox.runDue
	wg      sync.WaitGroup
	closed  bool
}

// add schedules run at at, of kind and order; now is the clock as read
// by the caller, to arm the timer. It does nothing once closed.
func (sc *scheduler) add(at time.Time, kind jobKind, order int, run func(time.Time), now clockReading) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.closed {
		return
	}
	sc.n++
	heap.Push(&sc.jobs, job{at: at, kind: kind, order: order, seq: sc.n, run: run})
	if sc.alarm == nil || at.Before(sc.alarmAt) {
		sc.armLocked(now)
	}
}

// due removes and returns the jobs due by now, earliest first.
func (sc *scheduler) due(now time.Time) []job {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	var out []job
	for len(sc.jobs) > 0 && !sc.jobs[0].at.After(now) {
		out = append(out, heap.Pop(&sc.jobs).(job))
	}
	return out
}

// arm sets the timer for the earliest job. Unless force is set, a timer
// already set for that job's time stays (the clock has not moved since).
func (sc *scheduler) arm(now clockReading, force bool) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if !force && sc.alarm != nil && len(sc.jobs) > 0 && sc.alarmAt.Equal(sc.jobs[0].at) {
		return
	}
	sc.armLocked(now)
}

// armLocked is arm with sc.mu held.
func (sc *scheduler) armLocked(now clockReading) {
	sc.stopAlarm()
	if sc.closed || !now.running || len(sc.jobs) == 0 {
		return
	}
	sc.alarmAt = sc.jobs[0].at
	sc.wg.Add(1)
	sc.alarm = time.AfterFunc(max(sc.alarmAt.Sub(now.at), 0), func() {
		defer sc.wg.Done()
		sc.wake()
	})
}

// stopAlarm stops the timer, if one is set; sc.mu is held.
func (sc *scheduler) stopAlarm() {
	if sc.alarm != nil && sc.alarm.Stop() {
		sc.wg.Done() // its function will never run
	}
	sc.alarm = nil
}

// next returns the time of the earliest job of kind.
func (sc *scheduler) next(kind jobKind) (time.Time, bool) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	var at time.Time
	found := false
	for _, j := range sc.jobs {
		if j.kind == kind && (!found || j.at.Before(at)) {
			at, found = j.at, true
		}
	}
	return at, found
}

// clear drops every job and the timer (Reset).
func (sc *scheduler) clear() {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.jobs = nil
	sc.stopAlarm()
}

// close drops every job, refuses new ones and waits until a timer that
// already fired has finished; the caller holds no lock a job takes.
func (sc *scheduler) close() {
	sc.mu.Lock()
	sc.closed = true
	sc.jobs = nil
	sc.stopAlarm()
	sc.mu.Unlock()
	sc.wg.Wait()
}

// timers reports how many timers are set or running: 0 or 1.
func (sc *scheduler) timers() int {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.alarm != nil {
		return 1
	}
	return 0
}

// jobHeap orders jobs by time, then order, then when they were scheduled:
// the same moves of the clock run the same jobs in the same order.
type jobHeap []job

func (h jobHeap) Len() int { return len(h) }

func (h jobHeap) Less(i, j int) bool {
	if c := h[i].at.Compare(h[j].at); c != 0 {
		return c < 0
	}
	if h[i].order != h[j].order {
		return h[i].order < h[j].order
	}
	return h[i].seq < h[j].seq
}

func (h jobHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

func (h *jobHeap) Push(x any) { *h = append(*h, x.(job)) }

func (h *jobHeap) Pop() any {
	old := *h
	j := old[len(old)-1]
	*h = old[:len(old)-1]
	return j
}

// schedule runs run at at on the sandbox clock; s.mu is held.
func (s *Sandbox) schedule(at time.Time, kind jobKind, order int, run func(time.Time)) {
	s.sched.add(at, kind, order, run, s.readClockLocked())
}

// runDueLocked runs every job due by the sandbox clock now, in order, then
// sets the timer for the next; s.mu is held. A job that schedules another
// already due has it run too. force, after the clock was moved, sets the
// timer afresh even for the same job.
func (s *Sandbox) runDueLocked(force bool) {
	now := s.readClockLocked()
	for {
		jobs := s.sched.due(now.at)
		if len(jobs) == 0 {
			break
		}
		for _, j := range jobs {
			j.run(j.at)
		}
	}
	s.sched.arm(now, force)
}

// runDue is runDueLocked taking s.mu: when the timer goes off, and when
// a delivery attempt ends waiting for the clock.
func (s *Sandbox) runDue() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runDueLocked(true)
}
