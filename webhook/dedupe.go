package webhook

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"
)

// ClaimState is what Deduper.Begin found a key in.
type ClaimState int

// States of a Claim. The zero ClaimState is none of them and is treated as
// a failure of the store.
const (
	// Claimed: the caller now holds the key and runs the receiver's
	// function, then ends the claim with Complete or Release.
	Claimed ClaimState = iota + 1
	// AlreadyDone: the event was handled before; the delivery is
	// acknowledged without running anything.
	AlreadyDone
	// InProgress: another delivery of the event holds it right now; this
	// one is answered 503 so that the service delivers it again later.
	InProgress
)

// Claim is a Deduper's answer to Begin.
type Claim struct {
	// Key is the key Begin was asked for.
	Key string
	// State says whether the caller holds the key (Claimed) or why not.
	State ClaimState
	// Token names this one claim when State is Claimed: Complete and
	// Release act only on the claim whose token they are given. A store
	// never gives two claims the same token.
	Token string
	// Expires is when the claim's lease runs out; zero when the store
	// lets a claim run until it is ended. After it, Begin may give the key
	// to another caller (the holder is presumed dead), and from then on
	// this claim can no longer complete or release anything.
	Expires time.Time
}

// ErrClaimLost is returned by Complete and Release when the claim is no
// longer the key's current one: its lease ran out and Begin gave the key to
// another caller, or the claim was ended already. Nothing is changed.
var ErrClaimLost = errors.New("webhook: claim lost (its lease ran out and the key was claimed again, or it was ended already)")

// Deduper records which events a receiver has handled, so that a repeated
// delivery does not run the receiver's function again.
//
// Begin claims the key for one run: it answers Claimed, with a fresh token,
// when no delivery of the key is running or done (and records it as
// running), AlreadyDone when one finished successfully, and InProgress
// while another claim on it is live. A claim whose lease ran out belongs to
// a holder presumed dead, and Begin may give the key to a new caller under
// a new token.
//
// Complete records the claimed key as handled; Release forgets the claim,
// so that the service's next delivery runs the function again. Both act
// only while the claim is the key's current one, and answer ErrClaimLost
// (changing nothing) otherwise, so a holder whose lease ran out can never
// complete or release the claim of the caller that took over. All three
// must be safe for concurrent use, and Begin must be atomic: of two
// concurrent calls with one key, at most one may answer Claimed.
//
// Handler ends the function's context when the claim's lease runs out, so
// that a function that honours its context stops before another receiver
// may take the event over. A lease cannot make the function's effects
// exactly-once by itself: a holder that dies after its effect and before
// Complete leaves a claim that is taken over and run again. A store whose
// records share a transaction with the function's writes can; module
// github.com/fiatramp/fiatramp-go/pginbox does so on PostgreSQL.
//
// MemoryDeduper, the default, lives in one process. Receivers behind a load
// balancer on several machines need a store that all of them share, or two
// machines given the same delivery both run the function. The package
// example "Deduper_sql" shows one over database/sql.
type Deduper interface {
	Begin(ctx context.Context, key string) (Claim, error)
	Complete(ctx context.Context, c Claim) error
	Release(ctx context.Context, c Claim) error
}

// DefaultMemoryDeduperMaxDone is how many handled keys a MemoryDeduper
// remembers at most when its MaxDone is zero.
const DefaultMemoryDeduperMaxDone = 1 << 20

// MemoryDeduper is a Deduper held in memory, for a receiver that runs in
// one process. The zero value is ready to use; set its fields before first
// use. It is safe for concurrent use.
//
// Size policy: a handled key is remembered for TTL (DefaultDedupeTTL when
// zero) and then forgotten; when more than MaxDone handled keys
// (DefaultMemoryDeduperMaxDone when zero) are remembered, the oldest
// handled ones are forgotten first, before their TTL. A key whose claim is
// running is never forgotten: running claims are bounded by the requests
// in flight, not by MaxDone. Keep TTL longer than the service goes on
// delivering an event, and never shorter than Handler's tolerance (300 s by
// default), and MaxDone above the number of events handled within TTL: a
// repeat that arrives after its key was forgotten runs the function again.
// A handled key of the service's costs about 250 bytes (measured on
// 2^20 keys: some 250 MB at the default bound). Every event is signed by
// the service, so nobody else can make it grow.
//
// A running claim lasts until it is completed or released, or, when Lease
// is positive, until Lease has passed; then Begin gives the key to the
// next delivery, and the old claim can no longer end the new one. In one
// process a holder cannot die and leave its claim behind, so Lease is only
// for functions that may hang: the zero Lease never expires a claim.
type MemoryDeduper struct {
	TTL     time.Duration
	MaxDone int
	Lease   time.Duration

	mu      sync.Mutex
	entries map[string]memEntry
	// doneQ lists handled keys in the order they were completed (and so
	// of their expiry, TTL being fixed); an item whose seq no longer
	// matches its key's entry is stale and skipped.
	doneQ    []doneRef
	doneHead int
	nDone    int
	seq      uint64
	now      func() time.Time // nil: time.Now
}

type memEntry struct {
	done    bool
	token   string    // of the running claim
	expires time.Time // done: forget the key after this; running: lease end (zero: none)
	seq     uint64
}

type doneRef struct {
	key string
	seq uint64
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

func (d *MemoryDeduper) maxDone() int {
	if d.MaxDone > 0 {
		return d.MaxDone
	}
	return DefaultMemoryDeduperMaxDone
}

// Begin claims key; see Deduper. It never fails.
func (d *MemoryDeduper) Begin(_ context.Context, key string) (Claim, error) {
	now := d.clock()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.entries == nil {
		d.entries = make(map[string]memEntry)
	}
	d.forget(now)
	if e, ok := d.entries[key]; ok {
		switch {
		case e.done && now.Before(e.expires):
			return Claim{Key: key, State: AlreadyDone}, nil
		case e.done:
			d.nDone-- // expired: replaced below, its queue item goes stale
		case e.expires.IsZero() || now.Before(e.expires):
			return Claim{Key: key, State: InProgress, Expires: e.expires}, nil
		}
		// A handled key past its TTL, or a claim past its lease: claim anew.
	}
	d.seq++
	e := memEntry{token: "m" + strconv.FormatUint(d.seq, 10), seq: d.seq}
	if d.Lease > 0 {
		e.expires = now.Add(d.Lease)
	}
	d.entries[key] = e
	return Claim{Key: key, State: Claimed, Token: e.token, Expires: e.expires}, nil
}

// current returns the running entry of c, if c is still the key's claim.
func (d *MemoryDeduper) current(c Claim) (memEntry, bool) {
	e, ok := d.entries[c.Key]
	if !ok || e.done || c.Token == "" || e.token != c.Token {
		return memEntry{}, false
	}
	return e, true
}

// Complete records the key of c as handled; see Deduper. It fails only
// with ErrClaimLost.
func (d *MemoryDeduper) Complete(_ context.Context, c Claim) error {
	now := d.clock()
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.current(c)
	if !ok {
		return ErrClaimLost
	}
	d.entries[c.Key] = memEntry{done: true, expires: now.Add(d.ttl()), seq: e.seq}
	d.doneQ = append(d.doneQ, doneRef{key: c.Key, seq: e.seq})
	d.nDone++
	for d.nDone > d.maxDone() && d.doneHead < len(d.doneQ) {
		d.popOldest()
	}
	return nil
}

// Release forgets the claim c; see Deduper. It fails only with
// ErrClaimLost.
func (d *MemoryDeduper) Release(_ context.Context, c Claim) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.current(c); !ok {
		return ErrClaimLost
	}
	delete(d.entries, c.Key)
	return nil
}

// Len returns how many keys are remembered, running claims included.
func (d *MemoryDeduper) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.entries)
}

// forget drops the handled keys whose TTL has passed. The queue is in
// expiry order, so it stops at the first live one: constant cost per call
// on average.
func (d *MemoryDeduper) forget(now time.Time) {
	for d.doneHead < len(d.doneQ) {
		r := d.doneQ[d.doneHead]
		if e, ok := d.entries[r.key]; ok && e.done && e.seq == r.seq && now.Before(e.expires) {
			return
		}
		d.popOldest()
	}
}

// popOldest drops the oldest item of the queue and, unless it is stale,
// its handled key.
func (d *MemoryDeduper) popOldest() {
	if d.doneHead >= len(d.doneQ) {
		return
	}
	r := d.doneQ[d.doneHead]
	d.doneQ[d.doneHead] = doneRef{}
	d.doneHead++
	if e, ok := d.entries[r.key]; ok && e.done && e.seq == r.seq {
		delete(d.entries, r.key)
		d.nDone--
	}
	// Reclaim the queue's dead prefix once it is half the queue.
	if d.doneHead > 64 && d.doneHead*2 >= len(d.doneQ) {
		n := copy(d.doneQ, d.doneQ[d.doneHead:])
		clear(d.doneQ[n:])
		d.doneQ = d.doneQ[:n]
		d.doneHead = 0
	}
}
