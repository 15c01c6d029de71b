package sandbox

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// FaultKind is what an injected fault does to a request.
type FaultKind string

// Fault kinds.
const (
	// FaultRateLimit answers 429 with Retry-After; the operation does not
	// run.
	FaultRateLimit FaultKind = "rate_limit"
	// FaultInternalError answers 500 with the success-shaped body some of
	// the service's 500s carry; the operation does not run.
	FaultInternalError FaultKind = "internal_error"
	// FaultUnavailable answers 503 "Service unavailable"; the operation
	// does not run.
	FaultUnavailable FaultKind = "unavailable"
	// FaultDropBefore closes the connection without an answer before the
	// operation runs. Go's http.Transport silently resends a GET (or any
	// request it deems idempotent) dropped on a reused connection, so a
	// caller may never see a dropped GET; a POST or PATCH is not resent.
	FaultDropBefore FaultKind = "drop_before"
	// FaultDropAfter runs the operation (a payout is stored, a balance
	// reserved) and then closes the connection without an answer.
	FaultDropAfter FaultKind = "drop_after"
	// FaultDelay waits Fault.Delay (or until the caller gives up) and then
	// serves the request normally.
	FaultDelay FaultKind = "delay"
	// FaultDelayAfter runs the operation at once (a payout is stored, a
	// balance reserved) and holds its answer for Fault.Delay: the service
	// committed, then answered late. A caller whose timeout is shorter
	// gives up without an answer, although the operation took effect,
	// the commonest way an outcome becomes unknown; a patient caller gets
	// the answer.
	FaultDelayAfter FaultKind = "delay_after"
)

// Values returns every fault kind.
func (FaultKind) Values() []FaultKind {
	return []FaultKind{FaultRateLimit, FaultInternalError, FaultUnavailable, FaultDropBefore, FaultDropAfter, FaultDelay, FaultDelayAfter}
}

// delays reports whether faults of kind k wait Fault.Delay.
func (k FaultKind) delays() bool {
	return k == FaultDelay || k == FaultDelayAfter
}

// Fault is a rule for answering some requests badly. A request meets at
// most one fault: the first rule, in the order they were injected, that
// matches it and still has requests to spoil.
type Fault struct {
	Kind FaultKind `json:"kind"`
	// Method limits the fault to one HTTP method; empty matches every one.
	Method string `json:"method,omitempty"`
	// Path limits the fault to one path (the request's URL path as the
	// sandbox receives it); a Path ending in "*" matches by prefix; empty
	// matches every path.
	Path string `json:"path,omitempty"`
	// Count spoils the next Count matching requests. Zero with a zero
	// Fraction means every matching request, until ClearFaults.
	Count int `json:"count,omitempty"`
	// Fraction spoils each matching request with this probability (0 to
	// 1), drawn from the sandbox's seeded source; with Count set too, it
	// stops after Count spoiled requests.
	Fraction float64 `json:"fraction,omitempty"`
	// RetryAfter is the Retry-After of a FaultRateLimit, in whole seconds
	// (default Settings.RetryAfter).
	RetryAfter time.Duration `json:"retry_after,omitempty"`
	// Delay is how long a FaultDelay waits before the operation, or a
	// FaultDelayAfter after it, before answering.
	Delay time.Duration `json:"delay,omitempty"`
}

// faultRule is an injected fault and how many requests it has left.
type faultRule struct {
	Fault
	left int // remaining spoils when Count > 0
}

// Stats counts what the sandbox served.
type Stats struct {
	// Requests is every request received, faulted or not.
	Requests int
	// Faults counts the requests each fault kind spoiled.
	Faults map[FaultKind]int
}

// InjectFault adds f to the fault rules.
func (s *Sandbox) InjectFault(f Fault) error {
	switch f.Kind {
	case FaultRateLimit, FaultInternalError, FaultUnavailable, FaultDropBefore, FaultDropAfter:
	case FaultDelay, FaultDelayAfter:
		if f.Delay <= 0 {
			return fmt.Errorf("sandbox: fault: a %s fault needs a positive Delay", f.Kind)
		}
	default:
		return fmt.Errorf("sandbox: fault: unknown kind %q", f.Kind)
	}
	if err := checkQuota("fault", f.Count, f.Fraction); err != nil {
		return err
	}
	if f.RetryAfter < 0 {
		return fmt.Errorf("sandbox: fault: RetryAfter %v is negative", f.RetryAfter)
	}
	f.Method = strings.ToUpper(f.Method)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.faults = append(s.st.faults, &faultRule{Fault: f, left: f.Count})
	return nil
}

// ClearFaults removes every fault rule.
func (s *Sandbox) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.faults = nil
}

// Stats returns what the sandbox has served so far.
func (s *Sandbox) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := Stats{Requests: s.st.stats.Requests, Faults: make(map[FaultKind]int, len(s.st.stats.Faults))}
	for k, v := range s.st.stats.Faults {
		out.Faults[k] = v
	}
	return out
}

// matchFault picks the fault for a request, if any, and counts it; s.mu is
// held.
func (s *Sandbox) matchFault(method, path string) (Fault, bool) {
	for i, rule := range s.st.faults {
		if rule.Method != "" && rule.Method != method {
			continue
		}
		if p := rule.Path; p != "" {
			if prefix, ok := strings.CutSuffix(p, "*"); ok {
				if !strings.HasPrefix(path, prefix) {
					continue
				}
			} else if p != path {
				continue
			}
		}
		hit, spent := s.draw(rule.Count, rule.Fraction, &rule.left)
		if !hit {
			continue
		}
		if spent {
			s.st.faults = append(s.st.faults[:i:i], s.st.faults[i+1:]...)
		}
		if s.st.stats.Faults == nil {
			s.st.stats.Faults = map[FaultKind]int{}
		}
		s.st.stats.Faults[rule.Kind]++
		return rule.Fault, true
	}
	return Fault{}, false
}

// checkQuota refuses a Count or Fraction a fault rule cannot have.
func checkQuota(what string, count int, fraction float64) error {
	if count < 0 {
		return fmt.Errorf("sandbox: %s: Count %d is negative", what, count)
	}
	if fraction < 0 || fraction > 1 {
		return fmt.Errorf("sandbox: %s: Fraction %v is outside 0..1", what, fraction)
	}
	return nil
}

// draw decides whether a matching rule with count, fraction and *left
// spoils the next request or delivery: a Fraction draw from the seeded
// source, then one of Count used up. spent says the rule has none left;
// s.mu is held.
func (s *Sandbox) draw(count int, fraction float64, left *int) (hit, spent bool) {
	if fraction > 0 && s.rng.Float64() >= fraction {
		return false, false
	}
	if count > 0 {
		*left--
		return true, *left <= 0
	}
	return true, false
}

// holdAnswer waits d, or until the caller gives up; it reports whether the
// caller is still there. The wait is the fault, not the answer's slowness:
// served by a Server, the answer gets its whole WriteTimeout from its end.
func holdAnswer(w http.ResponseWriter, r *http.Request, d, writeTimeout time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
		return false
	}
	if writeTimeout > 0 {
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(writeTimeout))
	}
	return true
}

// applyFault acts out f before the operation. It reports whether the
// request is finished (answered or dropped); false lets it run.
func (s *Sandbox) applyFault(w http.ResponseWriter, r *http.Request, f Fault, writeTimeout time.Duration) bool {
	var rep reply
	switch f.Kind {
	case FaultDelay:
		return !holdAnswer(w, r, f.Delay, writeTimeout)
	case FaultDropAfter, FaultDelayAfter:
		return false
	case FaultDropBefore:
		panic(http.ErrAbortHandler)
	case FaultRateLimit:
		after := f.RetryAfter
		if after <= 0 {
			after = s.settings.RetryAfter
		}
		secs := int64((after + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
		rep = refusal(http.StatusTooManyRequests, "", "Too many requests.", nil)
	case FaultInternalError:
		rep = reply{status: http.StatusInternalServerError, body: mustJSON(struct {
			Success bool   `json:"success"`
			Message string `json:"message"`
			ErrCode string `json:"err_code"`
			Errors  string `json:"errors"`
			Data    any    `json:"data"`
		}{Message: "Internal Server Error", ErrCode: CodeInternalError, Errors: "Internal Server Error"})}
	case FaultUnavailable:
		rep = refusal(http.StatusServiceUnavailable, "", "Service unavailable", nil)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	_, _ = w.Write(rep.body)
	return true
}
