package webhook

import (
	"context"
	"sync"
	"time"
)

// Claim is a Deduper's answer to Begin.
type Claim int

// Answers of Deduper.Begin. The zero Claim is none of them and is treated
// as a failure of the store.
const (
	// Claimed: the caller now holds the event and runs the receiver's
	// function, then calls Finish.
	Claimed Claim = iota + 1
	// AlreadyDone: the event was handled before; the delivery is
	// acknowledged without running anything.
	AlreadyDone
	// InProgress: another delivery of the event holds it right now; this
	// one is answered 503 so that the service delivers it again later.
	InProgress
)

// Deduper records which events a receiver has handled, so that a repeated
// delivery does not run the receiver's function again.
//
// Begin claims the key for one run: it answers Claimed when no delivery of
// the key is running or done (and records it as running), AlreadyDone when
// one finished successfully, and InProgress while one is running. Finish
// ends a claim: done true records the key as handled; done false deletes
// the record, so that the service's next delivery runs the function again.
// Both must be safe for concurrent use, and Begin must be atomic: of two
// concurrent calls with one key, at most one may answer Claimed.
//
// MemoryDeduper, the default, lives in one process. Receivers behind a load
// balancer on several machines need a store that all of them share, or two
// machines given the same delivery both run the function. Over database/sql
// one table is enough:
//
//	CREATE TABLE webhook_events (
//	    key        TEXT PRIMARY KEY,
//	    done       BOOLEAN NOT NULL,
//	    claimed_at TIMESTAMP NOT NULL
//	);
//
// Begin inserts (key, false, now) with INSERT ... ON CONFLICT DO NOTHING
// (or the database's equivalent) and answers Claimed when a row was
// inserted. Otherwise it reads the row: done gives AlreadyDone; a claim
// older than a lease (longer than the function can run, say 10 minutes)
// belongs to a receiver that died, so Begin takes it over with
// UPDATE ... SET claimed_at = now WHERE key = ? AND done = false AND
// claimed_at = <the time read> and answers Claimed when one row changed;
// anything else is InProgress. Finish(done=true) sets done; Finish(false)
// deletes the row. A periodic DELETE of rows older than the service's
// retry horizon bounds the table. The package example "Deduper_sql" shows
// such a Deduper in full.
type Deduper interface {
	Begin(ctx context.Context, key string) (Claim, error)
	Finish(ctx context.Context, key string, done bool) error
}

// MemoryDeduper is a Deduper held in memory, for a receiver that runs in
// one process. A handled key is remembered for TTL (DefaultDedupeTTL when
// zero), then forgotten; a running claim lasts until Finish. Keep TTL
// longer than the service goes on delivering an event, and never shorter
// than Handler's tolerance (300 s by default): a repeat, or a captured
// delivery replayed within the tolerance, that arrives after its key was
// forgotten runs the function again. Its memory
// grows with the number of distinct events handled within TTL; every
// event is signed by the service, so nobody else can make it grow. The
// zero value is ready to use; set TTL before first use. It is safe for
// concurrent use.
type MemoryDeduper struct {
	TTL time.Duration

	mu        sync.Mutex
	entries   map[string]memEntry
	nextSweep time.Time
	now       func() time.Time // nil: time.Now
}

type memEntry struct {
	done    bool
	expires time.Time // when done: forget the key after this
}

var _ Deduper = (*MemoryDeduper)(nil)

func (d *MemoryDeduper) clock() time.Time {
	if d.now != nil {
		return d.now()
	}
	return time.Now()
}

func (d *MemoryDeduper) ttl() time.Duration {
	if d.TTL > 0 {
		return d.TTL
	}
	return DefaultDedupeTTL
}

// Begin claims key; see Deduper. It never fails.
func (d *MemoryDeduper) Begin(_ context.Context, key string) (Claim, error) {
	now := d.clock()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.entries == nil {
		d.entries = make(map[string]memEntry)
	}
	d.sweep(now)
	if e, ok := d.entries[key]; ok {
		switch {
		case !e.done:
			return InProgress, nil
		case now.Before(e.expires):
			return AlreadyDone, nil
		}
	}
	d.entries[key] = memEntry{}
	return Claimed, nil
}

// Finish ends a claim of key; see Deduper. It never fails.
func (d *MemoryDeduper) Finish(_ context.Context, key string, done bool) error {
	now := d.clock()
	d.mu.Lock()
	defer d.mu.Unlock()
	if !done {
		delete(d.entries, key)
		return nil
	}
	if d.entries == nil {
		d.entries = make(map[string]memEntry)
	}
	d.entries[key] = memEntry{done: true, expires: now.Add(d.ttl())}
	return nil
}

// Len returns how many keys are remembered, running claims included.
func (d *MemoryDeduper) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.entries)
}

// sweep forgets expired keys, at most once a minute (or once per TTL when
// that is shorter), so that the cost per Begin stays constant on average.
func (d *MemoryDeduper) sweep(now time.Time) {
	if now.Before(d.nextSweep) {
		return
	}
	for k, e := range d.entries {
		if e.done && !now.Before(e.expires) {
			delete(d.entries, k)
		}
	}
	d.nextSweep = now.Add(min(time.Minute, d.ttl()))
}
