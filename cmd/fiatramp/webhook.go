package main

// fiatramp webhook verify and fiatramp webhook send: check a captured
// delivery, and send a signed test event to a receiver.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// maxReceiverEcho is how much of a receiver's answer webhook send shows.
const maxReceiverEcho = 512

func webhookVerifyCommand() *command {
	c := &command{
		name:    "webhook verify",
		args:    "[DELIVERY_FILE]",
		summary: "check a captured webhook delivery and print its event",
		about: `Check a captured webhook delivery exactly as a receiver does (webhook.Verify):
X-TIMESTAMP within the tolerance of the clock, the body one JSON document,
X-SIGNATURE the Base64 HMAC-SHA256 of KEY|TIMESTAMP|canonical body, compared
in constant time, and the event readable. The delivery is read from
DELIVERY_FILE or standard input (- or no argument): headers, a blank line
and the body, as a proxy, "nc -l" or a receiver's log shows it (a request
line first is allowed).

A delivery that passes prints its typed event (type, id, event, timestamp,
metadata) and exits 0. One that is refused prints exactly what failed and
exits 1; for a wrong signature it also says which usual mistake produced it
(the body signed as sent, another timestamp, hex instead of Base64, ...) or
that the secret is not the one of the key.

Deliveries carry no key: it comes from -key or FIATRAMP_API_KEY; the secret
from FIATRAMP_API_SECRET or -secret-file, never from a flag value. The secret
is never printed.`,
		example: `fiatramp webhook verify -secret-file ~/.fiatramp-secret delivery.http
pbpaste | fiatramp webhook verify -o json`,
	}
	var f verifyFlags
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		f.define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := f.check(s, c, args); err != nil {
				return err
			}
			key, envKey, secret, err := signingKeys(s, c, f.key, f.secretFile, " (a delivery carries none)")
			if err != nil {
				return err
			}
			capt, err := readDelivery(s, c, args)
			if err != nil {
				return err
			}
			rep, verr := verifyDelivery(key, envKey, secret, capt, f.clock, f.tolerance)
			if err := report(s.out, f.output, rep); err != nil {
				return err
			}
			if verr != nil {
				return &mismatchError{"delivery refused: " + verr.Error()}
			}
			return nil
		}
	}
	return c
}

// verifyFlags are the flags of "fiatramp webhook verify".
type verifyFlags struct {
	key, secretFile, now, output string
	tolerance                    time.Duration
	clock                        time.Time // -now, or this machine's clock (check)
}

func (f *verifyFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.key, "key", "", "API `key` the delivery was signed with (default: $FIATRAMP_API_KEY)")
	fs.StringVar(&f.secretFile, "secret-file", "", "read the API secret from `file` (default: $FIATRAMP_API_SECRET)")
	fs.StringVar(&f.now, "now", "", "the receiver's clock in Unix `seconds` (default: this machine's)")
	fs.DurationVar(&f.tolerance, "tolerance", webhook.DefaultTolerance, "how far X-TIMESTAMP may be from the clock")
	fs.StringVar(&f.output, "o", "text", "output `format`: text or json")
}

// check refuses a command line webhook verify cannot run, and sets the
// clock.
func (f *verifyFlags) check(s streams, c *command, args []string) error {
	if err := wantArgs(s, c, args, 0, 1); err != nil {
		return err
	}
	if f.output != "text" && f.output != "json" {
		return misuse(s, c, "-o %q: want text or json", f.output)
	}
	if f.tolerance <= 0 {
		return misuse(s, c, "-tolerance %v is not positive", f.tolerance)
	}
	f.clock = time.Now()
	if f.now != "" {
		n, err := strconv.ParseInt(f.now, 10, 64)
		if err != nil {
			return misuse(s, c, "-now %q: want Unix seconds", f.now)
		}
		f.clock = time.Unix(n, 0)
	}
	return nil
}

// signingKeys are the API key (flag, else $FIATRAMP_API_KEY; refused when
// neither, with why added to the message), the environment's key and the
// secret (from secretFile, else $FIATRAMP_API_SECRET).
func signingKeys(s streams, c *command, key, secretFile, why string) (string, string, string, error) {
	envKey := os.Getenv(fiatramp.EnvAPIKey)
	if key == "" {
		key = envKey
	}
	if key == "" {
		return "", "", "", misuse(s, c, "no API key: give -key or set %s%s", fiatramp.EnvAPIKey, why)
	}
	secret, err := readSecret(secretFile)
	if err != nil {
		return "", "", "", misuse(s, c, "%v", err)
	}
	return key, envKey, secret, nil
}

// readDelivery reads the captured delivery from DELIVERY_FILE or standard
// input.
func readDelivery(s streams, c *command, args []string) (captured, error) {
	name := "-"
	if len(args) == 1 {
		name = args[0]
	}
	raw, err := readLimited(s, name)
	if err != nil {
		return captured{}, misuse(s, c, "delivery: %v", err)
	}
	capt, err := parseCaptured(raw, http.MethodPost)
	if err != nil {
		return captured{}, misuse(s, c, "delivery %s: %v", name, err)
	}
	return capt, nil
}

// verifyDelivery checks capt as webhook.Verify does at clock and reports
// the event, or the refusal with, for a wrong signature, the mistake that
// produced it. The error is Verify's.
func verifyDelivery(key, envKey, secret string, capt captured, clock time.Time, tolerance time.Duration) (*verifyReport, error) {
	ev, verr := webhook.Verify(key, secret, capt.header, capt.body, clock, webhook.WithTolerance(tolerance))
	rep := &verifyReport{Verified: verr == nil, Notes: capt.notes}
	if verr == nil {
		rep.Event, rep.DedupeKey, rep.Known = ev, ev.DedupeKey(), ev.IsKnown()
		return rep, nil
	}
	rep.Error = verr.Error()
	rep.Reason = refusalReason(verr)
	if errors.Is(verr, webhook.ErrInvalidSignature) && capt.header.Get(webhook.HeaderSignature) != "" {
		rep.Findings = diagnose(key, envKey, secret, capt, clock)
	}
	return rep, verr
}

// verifyReport is what webhook verify found (also its JSON output).
type verifyReport struct {
	Verified  bool           `json:"verified"`
	Event     *webhook.Event `json:"event,omitempty"`
	DedupeKey string         `json:"dedupe_key,omitempty"`
	Known     bool           `json:"known,omitempty"`
	// Refusal only: Reason is invalid_signature, stale_timestamp or
	// malformed.
	Error    string   `json:"error,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	Findings []string `json:"findings,omitempty"`
	Notes    []string `json:"notes,omitempty"`
}

func (r *verifyReport) writeText(w io.Writer) {
	if !r.Verified {
		fmt.Fprintf(w, "REFUSED (%s): %s\n", r.Reason, printable(r.Error))
		for i, f := range r.Findings {
			fmt.Fprintf(w, "  %d. %s\n", i+1, f)
		}
	} else {
		ev := r.Event
		fmt.Fprintf(w, "VERIFIED\n")
		fmt.Fprintf(w, "type:        %s\n", printable(string(ev.Type)))
		fmt.Fprintf(w, "id:          %s\n", printable(ev.ID))
		fmt.Fprintf(w, "event:       %s\n", printable(string(ev.Event)))
		if ev.Timestamp.IsZero() {
			fmt.Fprintf(w, "timestamp:   (none)\n")
		} else {
			fmt.Fprintf(w, "timestamp:   %s\n", ev.Timestamp.UTC().Format(time.RFC3339Nano))
		}
		for _, m := range []struct {
			name string
			v    *string
		}{{"utr", ev.Metadata.UTR}, {"failure", ev.Metadata.FailureReason}, {"rfi_link", ev.Metadata.RFILink}, {"refund", ev.Metadata.RefundReason}} {
			if m.v != nil {
				fmt.Fprintf(w, "%-12s %s\n", m.name+":", printable(*m.v))
			}
		}
		if ev.Metadata.Raw != nil {
			fmt.Fprintf(w, "metadata:    %s\n", printable(string(ev.Metadata.Raw)))
		}
		fmt.Fprintf(w, "dedupe key:  %s\n", printable(r.DedupeKey))
		if !r.Known {
			fmt.Fprintf(w, "note: %s %s is not a documented event; a receiver should accept and log it\n", printable(string(ev.Type)), printable(string(ev.Event)))
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

// refusalReason names the sentinel a Verify error wraps.
func refusalReason(err error) string {
	switch {
	case errors.Is(err, webhook.ErrInvalidSignature):
		return "invalid_signature"
	case errors.Is(err, webhook.ErrStaleTimestamp):
		return "stale_timestamp"
	case errors.Is(err, webhook.ErrMalformed):
		return "malformed"
	}
	return "refused"
}

// diagnose says why a delivery's signature is wrong, with the checks of
// fiatramp sign; a receiver signs the canonical form of any body, so the
// body's own form is not a finding.
func diagnose(key, envKey, secret string, capt captured, now time.Time) []string {
	// checkWindow stays false: the timestamp has passed Verify's own
	// tolerance, which may be other than the service's 300 s.
	in := signInput{
		key: key, envKey: envKey, secret: secret, method: http.MethodPost,
		timestamp: capt.header.Get(webhook.HeaderTimestamp), body: capt.body, hasBody: true,
		given: capt.header.Get(webhook.HeaderSignature), compare: true, now: now.Unix(), anyForm: true,
	}
	rep, err := in.report()
	if err != nil {
		return nil
	}
	return rep.Findings
}

func webhookSendCommand() *command {
	c := &command{
		name:    "webhook send",
		args:    "URL",
		summary: "send a signed test event to a local webhook receiver",
		about: `Send one test event to the webhook receiver at URL, signed as the service signs
its deliveries (webhook.NewTestDelivery: X-TIMESTAMP now, X-SIGNATURE over the
canonical body with your key and secret), and print the receiver's status and
the start of its answer. Exit status 0 when the receiver answered 2xx, 1 for
any other answer or none.

URL must be on this machine (localhost or a loopback address) unless
-allow-remote is given: a test event signed with a real secret is for your
own receiver. Redirects are not followed. The key comes from -key or
FIATRAMP_API_KEY; the secret from FIATRAMP_API_SECRET or -secret-file, never
from a flag value. -bad-signature signs with a wrong secret, to check that the
receiver refuses it (401).`,
		example: `fiatramp webhook send -type PAYOUT -event SUCCESS -metadata '{"utr":"UTR123"}' http://127.0.0.1:8080/webhooks
fiatramp webhook send -bad-signature http://localhost:8080/webhooks`,
	}
	var f sendFlags
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		f.define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 1, 1); err != nil {
				return err
			}
			u, err := url.Parse(args[0])
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return misuse(s, c, "URL %q: want an absolute http or https URL", args[0])
			}
			if !f.allowRemote && !isLocal(u.Hostname()) {
				return misuse(s, c, "URL host %q is not this machine; pass -allow-remote to send there", u.Hostname())
			}
			ev, err := f.event(s, c)
			if err != nil {
				return err
			}
			if f.timeout <= 0 {
				return misuse(s, c, "-timeout %v is not positive", f.timeout)
			}
			key, _, secret, err := signingKeys(s, c, f.key, f.secretFile, "")
			if err != nil {
				return err
			}
			if f.badSignature {
				secret = "wrong-" + uuid.NewString()
			}
			now := time.Now()
			ev.Timestamp = now.UTC()
			req, err := webhook.NewTestDelivery(key, secret, u.String(), ev, now)
			if err != nil {
				return misuse(s, c, "%v", err)
			}
			ctx, cancel := context.WithTimeout(ctx, f.timeout)
			defer cancel()
			return f.send(s, req.WithContext(ctx))
		}
	}
	return c
}

// sendFlags are the flags of "fiatramp webhook send".
type sendFlags struct {
	key, secretFile, typ, eventName, id, metadata string
	timeout                                       time.Duration
	allowRemote, badSignature                     bool
}

func (f *sendFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.key, "key", "", "API `key` to sign with (default: $FIATRAMP_API_KEY)")
	fs.StringVar(&f.secretFile, "secret-file", "", "read the API secret from `file` (default: $FIATRAMP_API_SECRET)")
	fs.StringVar(&f.typ, "type", string(webhook.TypePayout), "event `type`: PAYOUT, PAYIN, CUSTOMER, BANK or EDD")
	fs.StringVar(&f.eventName, "event", string(webhook.EventSuccess), "the `event` (new state), documented for the type")
	fs.StringVar(&f.id, "id", "", "the object's `id` (default: a new uuid)")
	fs.StringVar(&f.metadata, "metadata", "{}", "the metadata `object`, JSON")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "give up waiting for the receiver after this `duration`")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "allow a URL that is not on this machine")
	fs.BoolVar(&f.badSignature, "bad-signature", false, "sign with a wrong secret (the receiver must answer 401)")
}

// event is the event the flags describe: a documented type and event, the
// id (default a new uuid) and the metadata object.
func (f *sendFlags) event(s streams, c *command) (webhook.Event, error) {
	t, e := webhook.Type(f.typ), webhook.EventName(f.eventName)
	if !t.IsKnown() {
		return webhook.Event{}, misuse(s, c, "-type %q: want one of %v", f.typ, webhook.Type("").Values())
	}
	ev := webhook.Event{Type: t, Event: e, ID: f.id}
	if !ev.IsKnown() {
		return webhook.Event{}, misuse(s, c, "-event %q is not documented for %s: want one of %v", f.eventName, t, t.Events())
	}
	if ev.ID == "" {
		ev.ID = uuid.NewString()
	}
	var meta map[string]json.RawMessage
	if err := json.Unmarshal([]byte(f.metadata), &meta); err != nil || meta == nil {
		return webhook.Event{}, misuse(s, c, "-metadata: want a JSON object, e.g. '{\"utr\":\"UTR123\"}'")
	}
	ev.Metadata.Raw = json.RawMessage(f.metadata)
	return ev, nil
}

// send prints the delivery req, posts it and prints the receiver's status
// and the start of its answer; anything but a 2xx is a mismatchError.
func (f *sendFlags) send(s streams, req *http.Request) error {
	rc, err := req.GetBody()
	if err != nil {
		return err
	}
	body, err := io.ReadAll(rc)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.out, "POST %s\n", req.URL.Redacted())
	fmt.Fprintf(s.out, "X-TIMESTAMP: %s\n", req.Header.Get(webhook.HeaderTimestamp))
	fmt.Fprintf(s.out, "X-SIGNATURE: %s", req.Header.Get(webhook.HeaderSignature))
	if f.badSignature {
		fmt.Fprint(s.out, " (signed with a wrong secret on purpose)")
	}
	fmt.Fprintf(s.out, "\n\n%s\n\n", body)

	resp, err := receiverClient(f.allowRemote).Do(req)
	if err != nil {
		fmt.Fprintf(s.out, "no answer: %v\n", err)
		return &mismatchError{"no answer from the receiver"}
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, maxReceiverEcho+1))
	fmt.Fprintf(s.out, "receiver answered: %s\n", printable(resp.Status))
	if len(answer) > 0 {
		more := ""
		if len(answer) > maxReceiverEcho {
			answer, more = answer[:maxReceiverEcho], "..."
		}
		fmt.Fprintf(s.out, "%s%s\n", printable(strings.TrimSpace(string(answer))), more)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &mismatchError{"the receiver answered " + resp.Status}
	}
	return nil
}

// isLocal reports whether host names this machine: localhost or a
// loopback address.
func isLocal(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// receiverClient is the client webhook send posts with: no proxy, no
// redirects followed, and unless allowRemote only loopback addresses
// dialed. The URL's host was checked by name; the check here is on the
// address each connection is actually made to, so a name that resolves
// elsewhere (a *.localhost name is asked of DNS) never receives the
// signed event.
func receiverClient(allowRemote bool) *http.Client {
	dialer := &net.Dialer{Timeout: 30 * time.Second}
	if !allowRemote {
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
				return fmt.Errorf("%s is not a loopback address; pass -allow-remote to send there", address)
			}
			return nil
		}
	}
	return &http.Client{
		Transport:     &http.Transport{Proxy: nil, DialContext: dialer.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
