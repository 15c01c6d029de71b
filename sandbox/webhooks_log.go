package sandbox

// The webhook delivery log: each delivery's state and attempts, and the
// counts of every delivery since New or the last Reset.

import (
	"bytes"
	"maps"
	"slices"
	"time"
)

// DeliveryState is where a webhook delivery stands.
type DeliveryState string

// Delivery states.
const (
	// DeliveryPending: queued, being attempted or waiting for a retry.
	DeliveryPending DeliveryState = "pending"
	// DeliveryDelivered: the receiver answered 2xx.
	DeliveryDelivered DeliveryState = "delivered"
	// DeliveryFailed: every attempt (Settings.WebhookMaxAttempts) failed.
	DeliveryFailed DeliveryState = "failed"
	// DeliveryDropped: a DeliveryFaultDrop kept it from being sent at all.
	DeliveryDropped DeliveryState = "dropped"
	// DeliveryNoURL: the organization had no webhook URL at the time.
	DeliveryNoURL DeliveryState = "no_url"
	// DeliveryAbandoned: the sandbox was closed before it was delivered.
	DeliveryAbandoned DeliveryState = "abandoned"
	// DeliveryNotSent: the URL's host is not this machine and
	// Settings.AllowRemoteWebhooks is off; Delivery.Reason says so.
	DeliveryNotSent DeliveryState = "not_sent"
)

// deliveryStates returns every delivery state.
func deliveryStates() []DeliveryState {
	return []DeliveryState{DeliveryPending, DeliveryDelivered, DeliveryFailed, DeliveryDropped, DeliveryNoURL, DeliveryAbandoned, DeliveryNotSent}
}

// Delivery is one event's delivery, as the delivery log holds it.
type Delivery struct {
	// Seq numbers deliveries from 1 in the order their events happened,
	// since New or the last Reset; it goes on past the log's size, so the
	// log's first entry has Seq DeliveryCounts.Evicted+1.
	Seq   int    `json:"seq"`
	URL   string `json:"url"`
	Type  string `json:"type"`
	ID    string `json:"id"`
	Event string `json:"event"`
	// Body is the JSON body sent, in canonical form (what is signed).
	Body  []byte            `json:"body"`
	Fault DeliveryFaultKind `json:"fault,omitempty"`
	State DeliveryState     `json:"state"`
	// Reason says why a DeliveryNotSent delivery was not sent.
	Reason string `json:"reason,omitempty"`
	// Attempts are the POSTs made, in order; a duplicate's extra copy is
	// the last one.
	Attempts []DeliveryAttempt `json:"attempts"`
}

// DeliveryCounts counts the deliveries since New or the last Reset,
// those dropped from the delivery log included: dropping the oldest
// entries to keep the log within Settings.DeliveryLogSize changes none of
// these counts except Logged and Evicted.
type DeliveryCounts struct {
	// Total is every delivery so far (the Seq of the newest one);
	// Logged of them are in the log and Evicted were dropped from it,
	// oldest first (Total = Logged + Evicted). An evicted delivery still
	// pending is still attempted and still counted below.
	Total   int `json:"total"`
	Logged  int `json:"logged"`
	Evicted int `json:"evicted"`
	// States counts the deliveries in each state now (each state is
	// present, zero or not); the counts add up to Total.
	States map[DeliveryState]int `json:"states"`
	// Faults counts the deliveries each delivery fault kind spoiled (each
	// kind is present).
	Faults map[DeliveryFaultKind]int `json:"faults"`
	// Attempts counts every POST made, duplicates' extra copies included.
	Attempts int `json:"attempts"`
}

// DeliveryAttempt is one POST of a delivery.
type DeliveryAttempt struct {
	// At is the sandbox clock's time of the attempt; Timestamp the
	// X-TIMESTAMP it carried.
	At        time.Time `json:"at"`
	Timestamp int64     `json:"timestamp"`
	// Forged says the attempt was signed with a wrong secret
	// (DeliveryFaultBadSignature).
	Forged bool `json:"forged,omitempty"`
	// Duplicate says the attempt was the extra copy of a
	// DeliveryFaultDuplicate.
	Duplicate bool `json:"duplicate,omitempty"`
	// StatusCode is the receiver's answer; 0 when none arrived.
	StatusCode int `json:"status_code,omitempty"`
	// Error says why no answer arrived (connection error, timeout).
	Error string `json:"error,omitempty"`
}

// DefaultDeliveryLogSize is the default of Settings.DeliveryLogSize: the
// most deliveries the delivery log keeps.
const DefaultDeliveryLogSize = 10000

// Deliveries returns the delivery log: the newest deliveries, at most
// Settings.DeliveryLogSize of them (default DefaultDeliveryLogSize), in the
// order their events happened, with their state and attempts. Past that
// size each new delivery drops the oldest from the log (a pending one is
// still attempted); DeliveryCounts keeps counting them all. The result
// shares nothing with the sandbox.
func (s *Sandbox) Deliveries() []Delivery {
	log, _ := s.DeliveryLog()
	return log
}

// DeliveryCounts returns the counts of every delivery since New or the
// last Reset, those dropped from the delivery log included.
func (s *Sandbox) DeliveryCounts() DeliveryCounts {
	_, counts := s.DeliveryLog()
	return counts
}

// DeliveryLog returns the delivery log (Deliveries) and its counts
// (DeliveryCounts) read at one moment, so that the counts cover exactly
// the deliveries the log shows and those it has dropped.
func (s *Sandbox) DeliveryLog() ([]Delivery, DeliveryCounts) {
	d := s.deliveries
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Delivery, len(d.log))
	for i, dv := range d.log {
		out[i] = dv.Delivery
		out[i].Body = bytes.Clone(dv.Body)
		out[i].Attempts = slices.Clone(dv.Attempts)
	}
	counts := d.counts
	counts.States = maps.Clone(d.counts.States)
	counts.Faults = maps.Clone(d.counts.Faults)
	return out, counts
}

// resetCounts zeroes the counts, with every state and fault kind present;
// d.mu is held or d is new.
func (d *deliverer) resetCounts() {
	d.counts = DeliveryCounts{States: map[DeliveryState]int{}, Faults: map[DeliveryFaultKind]int{}}
	for _, st := range deliveryStates() {
		d.counts.States[st] = 0
	}
	for _, k := range DeliveryFaultKind("").Values() {
		d.counts.Faults[k] = 0
	}
}

// setState moves dv to state st, keeping the counts; d.mu is held.
func (d *deliverer) setState(dv *delivery, st DeliveryState) {
	d.counts.States[dv.State]--
	d.counts.States[st]++
	dv.State = st
}

// appendLog adds dv to the log, dropping the oldest entry when the log
// is full; d.mu is held.
func (d *deliverer) appendLog(dv *delivery) {
	if len(d.log) >= d.size {
		d.log[0] = nil // let it go: the backing array outlives the slice
		d.log = d.log[1:]
		d.counts.Evicted++
	}
	d.log = append(d.log, dv)
	d.counts.Logged = len(d.log)
}
