package sandbox

// Webhook delivery faults: rules that duplicate, delay, drop or forge
// some deliveries.

import (
	"fmt"
	"time"
)

// DeliveryFaultKind is what an injected delivery fault does.
type DeliveryFaultKind string

// Delivery fault kinds.
const (
	// DeliveryFaultDuplicate sends the event once more after it was
	// delivered: the same body, signed afresh. A receiver must handle it
	// once (deduplicate on id + event).
	DeliveryFaultDuplicate DeliveryFaultKind = "duplicate"
	// DeliveryFaultDelay holds the event for DeliveryFault.Delay, on the
	// sandbox clock, before its first attempt; later events of the same
	// object wait behind it.
	DeliveryFaultDelay DeliveryFaultKind = "delay"
	// DeliveryFaultDrop never sends the event: a receiver learns the state
	// only by fetching the object (e.g. fiatramp's Payouts.Wait).
	DeliveryFaultDrop DeliveryFaultKind = "drop"
	// DeliveryFaultBadSignature signs the first attempt with a wrong
	// secret. A receiver must refuse it (401); the sandbox then retries
	// with the right signature.
	DeliveryFaultBadSignature DeliveryFaultKind = "bad_signature"
)

// Values returns every delivery fault kind.
func (DeliveryFaultKind) Values() []DeliveryFaultKind {
	return []DeliveryFaultKind{DeliveryFaultDuplicate, DeliveryFaultDelay, DeliveryFaultDrop, DeliveryFaultBadSignature}
}

// DeliveryFault is a rule for spoiling some webhook deliveries. A delivery
// meets at most one fault: the first rule, in the order they were
// injected, that matches it and still has deliveries to spoil.
type DeliveryFault struct {
	Kind DeliveryFaultKind `json:"kind"`
	// Type limits the fault to one event type (PAYOUT, ...); empty
	// matches every type.
	Type string `json:"type,omitempty"`
	// Event limits the fault to one event (SUCCESS, ...); empty matches
	// every event.
	Event string `json:"event,omitempty"`
	// Count spoils the next Count matching deliveries. Zero with a zero
	// Fraction means every matching delivery, until ClearDeliveryFaults.
	Count int `json:"count,omitempty"`
	// Fraction spoils each matching delivery with this probability (0 to
	// 1), drawn from the sandbox's seeded source; with Count set too, it
	// stops after Count spoiled deliveries.
	Fraction float64 `json:"fraction,omitempty"`
	// Delay is how long a DeliveryFaultDelay holds the event, on the
	// sandbox clock (see Settings.WebhookInitialBackoff).
	Delay time.Duration `json:"delay,omitempty"`
}

// deliveryFaultRule is an injected delivery fault and how many deliveries
// it has left.
type deliveryFaultRule struct {
	DeliveryFault
	left int
}

// InjectDeliveryFault adds f to the delivery fault rules.
func (s *Sandbox) InjectDeliveryFault(f DeliveryFault) error {
	switch f.Kind {
	case DeliveryFaultDuplicate, DeliveryFaultDrop, DeliveryFaultBadSignature:
	case DeliveryFaultDelay:
		if f.Delay <= 0 {
			return fmt.Errorf("sandbox: delivery fault: a %s fault needs a positive Delay", f.Kind)
		}
	default:
		return fmt.Errorf("sandbox: delivery fault: unknown kind %q", f.Kind)
	}
	if err := checkQuota("delivery fault", f.Count, f.Fraction); err != nil {
		return err
	}
	d := s.deliveries
	d.mu.Lock()
	defer d.mu.Unlock()
	d.faults = append(d.faults, &deliveryFaultRule{DeliveryFault: f, left: f.Count})
	return nil
}

// ClearDeliveryFaults removes every delivery fault rule.
func (s *Sandbox) ClearDeliveryFaults() {
	d := s.deliveries
	d.mu.Lock()
	defer d.mu.Unlock()
	d.faults = nil
}

// matchDeliveryFault picks the fault for a delivery, if any; s.mu and d.mu
// are held (s.rng is s.mu's).
func (s *Sandbox) matchDeliveryFault(d *deliverer, typ, event string) (DeliveryFault, bool) {
	for i, rule := range d.faults {
		if rule.Type != "" && rule.Type != typ || rule.Event != "" && rule.Event != event {
			continue
		}
		hit, spent := s.draw(rule.Count, rule.Fraction, &rule.left)
		if !hit {
			continue
		}
		if spent {
			d.faults = append(d.faults[:i:i], d.faults[i+1:]...)
		}
		return rule.DeliveryFault, true
	}
	return DeliveryFault{}, false
}
