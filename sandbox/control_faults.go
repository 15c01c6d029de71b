package sandbox

// Control plane: the fault group (request faults under /_sandbox/faults,
// webhook delivery faults under /_sandbox/delivery-faults).

import (
	"math"
	"net/http"
	"slices"
	"strings"
	"time"
)

// faultJSON is a request fault over HTTP: Fault with its durations in
// seconds.
type faultJSON struct {
	Kind              FaultKind `json:"kind"`
	Method            string    `json:"method,omitempty"`
	Path              string    `json:"path,omitempty"`
	Count             int       `json:"count,omitempty"`
	Fraction          float64   `json:"fraction,omitempty"`
	RetryAfterSeconds float64   `json:"retry_after_seconds,omitempty"`
	DelaySeconds      float64   `json:"delay_seconds,omitempty"`
}

// checkRule checks what request and delivery fault rules share, naming
// the JSON members: a known kind, count and fraction, and delay_seconds
// given to (and only to) the kinds that delay. It returns the delay.
func checkRule[K ~string](present map[string]bool, kind K, kinds []K, delays func(K) bool, count int, fraction, delaySeconds float64) (time.Duration, error) {
	if err := require(present, "kind"); err != nil {
		return 0, err
	}
	if !slices.Contains(kinds, kind) {
		return 0, badField("kind", "kind %q: want one of %v", kind, kinds)
	}
	if count < 0 {
		return 0, badField("count", "count %d is negative", count)
	}
	if math.IsNaN(fraction) || fraction < 0 || fraction > 1 {
		return 0, badField("fraction", "fraction %v is outside 0..1", fraction)
	}
	delay, err := seconds("delay_seconds", delaySeconds, false)
	switch {
	case err != nil:
		return 0, err
	case delays(kind) && delay <= 0:
		return 0, badField("delay_seconds", "kind %s needs a positive delay_seconds", kind)
	case !delays(kind) && present["delay_seconds"]:
		return 0, badField("delay_seconds", "kind %s takes no delay_seconds", kind)
	}
	return delay, nil
}

func (c *control) injectFault(_ *http.Request, _ []string, body []byte) (int, any, error) {
	var in faultJSON
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	f := Fault{Kind: in.Kind, Method: in.Method, Path: in.Path, Count: in.Count, Fraction: in.Fraction}
	if f.Delay, err = checkRule(present, f.Kind, f.Kind.Values(), FaultKind.delays, in.Count, in.Fraction, in.DelaySeconds); err != nil {
		return 0, nil, err
	}
	if f.RetryAfter, err = seconds("retry_after_seconds", in.RetryAfterSeconds, false); err != nil {
		return 0, nil, err
	}
	if f.Kind != FaultRateLimit && present["retry_after_seconds"] {
		return 0, nil, badField("retry_after_seconds", "only a rate_limit fault takes retry_after_seconds")
	}
	if err := c.sb.InjectFault(f); err != nil {
		return 0, nil, badField("", "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	return http.StatusCreated, in, nil
}

func (c *control) clearFaults(*http.Request, []string, []byte) (int, any, error) {
	c.sb.ClearFaults()
	return http.StatusOK, struct{}{}, nil
}

// deliveryFaultJSON is a delivery fault over HTTP: DeliveryFault with its
// delay in seconds.
type deliveryFaultJSON struct {
	Kind         DeliveryFaultKind `json:"kind"`
	Type         string            `json:"type,omitempty"`
	Event        string            `json:"event,omitempty"`
	Count        int               `json:"count,omitempty"`
	Fraction     float64           `json:"fraction,omitempty"`
	DelaySeconds float64           `json:"delay_seconds,omitempty"`
}

func (c *control) injectDeliveryFault(_ *http.Request, _ []string, body []byte) (int, any, error) {
	var in deliveryFaultJSON
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	f := DeliveryFault{Kind: in.Kind, Type: in.Type, Event: in.Event, Count: in.Count, Fraction: in.Fraction}
	if f.Delay, err = checkRule(present, f.Kind, f.Kind.Values(), func(k DeliveryFaultKind) bool { return k == DeliveryFaultDelay }, in.Count, in.Fraction, in.DelaySeconds); err != nil {
		return 0, nil, err
	}
	if err := c.sb.InjectDeliveryFault(f); err != nil {
		return 0, nil, badField("", "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	return http.StatusCreated, in, nil
}

func (c *control) clearDeliveryFaults(*http.Request, []string, []byte) (int, any, error) {
	c.sb.ClearDeliveryFaults()
	return http.StatusOK, struct{}{}, nil
}
