package pginbox

import (
	"sync"
	"sync/atomic"
)

// holders are the events an Inbox is running in the transactional mode,
// each holding a transaction and so a connection of the pool while its
// function runs. A repeat of one of them is answered InProgress from
// here, without asking the database; the slots cap how many connections
// they hold at once.
type holders struct {
	mu    sync.Mutex
	keys  map[string]bool // key -> holds a slot
	slots chan struct{}   // one token per held slot; nil: no cap
}

func newHolders(max int) *holders {
	h := &holders{keys: map[string]bool{}}
	if max > 0 {
		h.slots = make(chan struct{}, max)
	}
	return h
}

// enter marks key as run here; false when it already is.
func (h *holders) enter(key string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.keys[key]; ok {
		return false
	}
	h.keys[key] = false
	return true
}

// slot takes a slot for key, which must have entered; false, at once,
// when every slot is taken.
func (h *holders) slot(key string) bool {
	if h.slots != nil {
		select {
		case h.slots <- struct{}{}:
		default:
			return false
		}
	}
	h.mu.Lock()
	h.keys[key] = true
	h.mu.Unlock()
	return true
}

// leave forgets key and frees its slot, if it took one.
func (h *holders) leave(key string) {
	h.mu.Lock()
	slot, ok := h.keys[key]
	delete(h.keys, key)
	h.mu.Unlock()
	if ok && slot && h.slots != nil {
		<-h.slots
	}
}

// Stats counts what an Inbox did with deliveries since New, in both
// modes. Each delivery counts once: the sum is the deliveries that reached
// the Inbox.
type Stats struct {
	// Handled: the function ran and its event was recorded done
	// (transactional: committed; Deduper: completed).
	Handled int64
	// AlreadyHandled: a repeat of an event recorded done; nothing ran
	// (answered 200).
	AlreadyHandled int64
	// InProgress: refused while another delivery of the event held it;
	// nothing ran (answered 503).
	InProgress int64
	// Busy: refused in the transactional mode while every connection the
	// Inbox may hold was held (see WithMaxHolders); nothing ran (answered
	// 503).
	Busy int64
	// Failed: the function or the database failed; nothing was recorded
	// (answered 500 or 503), and the next delivery runs the function again.
	Failed int64
}

// counters are an Inbox's Stats as they are counted.
type counters struct {
	handled, alreadyHandled, inProgress, busy, failed atomic.Int64
}

// count adds one delivery that ended in out, or failed with err.
func (c *counters) count(out Outcome, err error) {
	switch {
	case err != nil:
		c.failed.Add(1)
	case out == Handled:
		c.handled.Add(1)
	case out == AlreadyHandled:
		c.alreadyHandled.Add(1)
	case out == InProgress:
		c.inProgress.Add(1)
	case out == Busy:
		c.busy.Add(1)
	}
}

// Stats returns the Inbox's counts so far, for a dashboard: each is read
// atomically, and together they are a near snapshot.
func (ib *Inbox) Stats() Stats {
	return Stats{
		Handled:        ib.counts.handled.Load(),
		AlreadyHandled: ib.counts.alreadyHandled.Load(),
		InProgress:     ib.counts.inProgress.Load(),
		Busy:           ib.counts.busy.Load(),
		Failed:         ib.counts.failed.Load(),
	}
}
