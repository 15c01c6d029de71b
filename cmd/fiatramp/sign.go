package main

// fiatramp sign: sign a body, or explain why a signature does not match.

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httputil"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// signatureWindow is how far X-TIMESTAMP may be from the service's clock.
const signatureWindow = 300

// maxSecretFile caps what is read of -secret-file.
const maxSecretFile = 64 << 10

func signCommand() *command {
	c := &command{
		name:    "sign",
		args:    "[BODY_FILE]",
		summary: "sign a body, or explain why a signature does not match",
		about: `Sign a request body the way the service checks it, and print the canonical
body, the exact string signed (KEY|TIMESTAMP|CANONICAL) and the headers to
send. The body comes from BODY_FILE or standard input; -method GET signs {}
and reads none.

-compare SIGNATURE checks a signature someone computed for that body and
-timestamp; -request FILE checks a captured request (request line, headers,
blank line, body, as a proxy or "nc -l" shows it; - for standard input),
taking its method, X-API-KEY, X-TIMESTAMP, X-SIGNATURE and body. Either says
MATCH (exit status 0) or what differs first (exit status 1): a missing
header, a timestamp that is not Unix seconds or is outside the 300-second
window around -now (the service's clock when the request was sent; for
-request, this machine's clock unless -now is given), a body that is not
canonical (the byte offset and both forms there), and for the signature
itself which mistake it was (signed the body as sent instead of its
canonical form, {} or an empty body, another timestamp, hex or URL-safe
Base64 instead of standard Base64, a secret with a trailing newline, ...)
or, when no such variant matches, that the secret is not the one of that
key.

The key comes from -key, the captured request or FIATRAMP_API_KEY; the
secret from FIATRAMP_API_SECRET or -secret-file, never from a flag value
(which would land in shell history). The secret is never printed.`,
		example: `echo '{"b": 1, "a": "x"}' | fiatramp sign -timestamp 1700000000
fiatramp sign -request captured.http -secret-file ~/.fiatramp-secret`,
	}
	var f signFlags
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		f.define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			in, err := f.input(s, c, args)
			if err != nil {
				return err
			}
			rep, err := in.report()
			if err != nil {
				return misuse(s, c, "%v", err)
			}
			if err := report(s.out, f.output, rep); err != nil {
				return err
			}
			if in.compare && !*rep.Match {
				return &mismatchError{"signature does not match: " + rep.Verdict}
			}
			return nil
		}
	}
	return c
}

// signFlags are the flags of "fiatramp sign".
type signFlags struct {
	key, secretFile, timestamp, method string
	compare, request, now, output      string
}

func (f *signFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.key, "key", "", "API `key` (default: the captured request's X-API-KEY, else $FIATRAMP_API_KEY)")
	fs.StringVar(&f.secretFile, "secret-file", "", "read the API secret from `file` (default: $FIATRAMP_API_SECRET)")
	fs.StringVar(&f.timestamp, "timestamp", "", "X-TIMESTAMP to sign, Unix `seconds` (default: now)")
	fs.StringVar(&f.method, "method", "POST", "the request's `method`; a GET signs {}")
	fs.StringVar(&f.compare, "compare", "", "check this X-SIGNATURE `value` against the body and -timestamp")
	fs.StringVar(&f.request, "request", "", "check the captured HTTP request in `file` (- for standard input)")
	fs.StringVar(&f.now, "now", "", "the service's clock when the request was sent, Unix `seconds`, to check the 300 s window\n"+
		"(default: this machine's clock for -request; -compare with -timestamp checks the window only against -now)")
	fs.StringVar(&f.output, "o", "text", "output `format`: text or json")
}

// input is what sign signs or checks, from the flags and args: a
// captured request (-request), or a body with the flags' timestamp and
// signature.
func (f *signFlags) input(s streams, c *command, args []string) (*signInput, error) {
	if err := wantArgs(s, c, args, 0, 1); err != nil {
		return nil, err
	}
	if f.output != "text" && f.output != "json" {
		return nil, misuse(s, c, "-o %q: want text or json", f.output)
	}
	if f.request != "" && (f.compare != "" || f.timestamp != "" || len(args) > 0) {
		return nil, misuse(s, c, "-request takes the signature, timestamp and body from the request: no -compare, -timestamp or BODY_FILE")
	}
	in := &signInput{method: strings.ToUpper(f.method), now: time.Now().Unix(), checkWindow: true}
	if f.now != "" {
		n, err := strconv.ParseInt(f.now, 10, 64)
		if err != nil {
			return nil, misuse(s, c, "-now %q: want Unix seconds", f.now)
		}
		in.now = n
	} else if f.request == "" && f.timestamp != "" {
		// A timestamp given to -compare is a request's that was sent at
		// some time, often long before: this machine's clock now says
		// nothing about the service's then.
		in.checkWindow = false
	}
	secret, err := readSecret(f.secretFile)
	if err != nil {
		return nil, misuse(s, c, "%v", err)
	}
	in.secret, in.envKey, in.key = secret, os.Getenv(fiatramp.EnvAPIKey), f.key
	if in.key == "" {
		in.key = in.envKey
	}
	if f.request != "" {
		err = f.readRequest(s, c, in)
	} else {
		err = f.readBody(s, c, in, args)
	}
	if err != nil {
		return nil, err
	}
	if in.key == "" {
		return nil, misuse(s, c, "no API key: give -key or set %s", fiatramp.EnvAPIKey)
	}
	if strings.ContainsAny(in.key, "\r\n") {
		return nil, misuse(s, c, "the API key holds a line break")
	}
	return in, nil
}

// readRequest fills in from the captured request of -request: its method,
// key (unless -key), timestamp, signature and body.
func (f *signFlags) readRequest(s streams, c *command, in *signInput) error {
	raw, err := readLimited(s, f.request)
	if err != nil {
		return misuse(s, c, "-request: %v", err)
	}
	capt, err := parseCaptured(raw, in.method)
	if err != nil {
		return misuse(s, c, "-request %s: %v", f.request, err)
	}
	in.captured = &capt
	in.method, in.body, in.hasBody = capt.method, capt.body, true
	in.timestamp, in.given = capt.header.Get("X-Timestamp"), capt.header.Get("X-Signature")
	if k := capt.header.Get("X-Api-Key"); k != "" && f.key == "" {
		in.key = k
	}
	in.compare = true
	return nil
}

// readBody fills in from -timestamp (default now), -compare and the body
// in BODY_FILE or standard input (none for a GET or HEAD).
func (f *signFlags) readBody(s streams, c *command, in *signInput, args []string) error {
	in.timestamp = f.timestamp
	if in.timestamp == "" {
		in.timestamp = strconv.FormatInt(time.Now().Unix(), 10)
	}
	in.given, in.compare = f.compare, f.compare != ""
	if in.method == http.MethodGet || in.method == http.MethodHead {
		return nil
	}
	name := "-"
	if len(args) == 1 {
		name = args[0]
	}
	body, err := readLimited(s, name)
	if err != nil {
		return misuse(s, c, "body: %v", err)
	}
	// A file or echo ends in a line break that no request sends: drop
	// one, and say so.
	if t := bytes.TrimSuffix(bytes.TrimSuffix(body, []byte("\n")), []byte("\r")); len(t) < len(body) && len(bytes.TrimSpace(t)) > 0 {
		body = t
		in.droppedNewline = true
	}
	in.body, in.hasBody = body, true
	return nil
}

// readSecret returns the secret from file, or from FIATRAMP_API_SECRET.
// One trailing line break of a file is dropped. Errors never quote it.
func readSecret(file string) (string, error) {
	if file == "" {
		s := os.Getenv(fiatramp.EnvAPISecret)
		if s == "" {
			return "", fmt.Errorf("no API secret: set %s or give -secret-file", fiatramp.EnvAPISecret)
		}
		return s, nil
	}
	fh, err := os.Open(file)
	if err != nil {
		// The path is not repeated: a secret given to the flag by mistake
		// would be printed.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("-secret-file: cannot open the file given (the flag takes a file's path, not the secret): %w", err)
	}
	defer fh.Close()
	raw, err := io.ReadAll(io.LimitReader(fh, maxSecretFile+1))
	if err != nil {
		return "", fmt.Errorf("-secret-file %s: %w", file, err)
	}
	if len(raw) > maxSecretFile {
		return "", fmt.Errorf("-secret-file %s: longer than %d bytes: not a secret", file, maxSecretFile)
	}
	s := strings.TrimSuffix(strings.TrimSuffix(string(raw), "\n"), "\r")
	if s == "" {
		return "", fmt.Errorf("-secret-file %s is empty", file)
	}
	return s, nil
}

// readLimited reads name (- for standard input), at most maxBodyInput
// bytes.
func readLimited(s streams, name string) ([]byte, error) {
	if name == "-" {
		return readBody(s, "-")
	}
	return readBody(s, "@"+name)
}

// captured is a request read from a dump.
type captured struct {
	method string
	header http.Header
	body   []byte
	notes  []string
}

var requestLine = regexp.MustCompile(`^([A-Za-z]+) (\S+)(?: HTTP/\d(?:\.\d)?)?$`)

// parseCaptured reads a request dump: an optional request line (else the
// method is method), header lines ("Name: value", also with curl -v's "> "
// in front), a blank line and the body. A Content-Length shorter than what
// follows cuts the body; a chunked body is decoded.
func parseCaptured(raw []byte, method string) (captured, error) {
	c := captured{method: method, header: http.Header{}}
	head, body := raw, []byte(nil)
	cut := -1
	for _, sep := range []string{"\r\n\r\n", "\n\n"} {
		if i := bytes.Index(raw, []byte(sep)); i >= 0 && (cut < 0 || i < cut) {
			cut = i
			head, body = raw[:i], raw[i+len(sep):]
		}
	}
	lines := strings.Split(strings.ReplaceAll(string(head), "\r\n", "\n"), "\n")
	for n, line := range lines {
		line = strings.TrimPrefix(strings.TrimPrefix(line, "> "), ">")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if n == 0 {
			if m := requestLine.FindStringSubmatch(line); m != nil {
				c.method = strings.ToUpper(m[1])
				continue
			}
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(name) == "" || strings.ContainsAny(name, " \t") {
			return captured{}, fmt.Errorf("line %d is neither a request line nor a header: %s", n+1, excerpt([]byte(line)))
		}
		c.header.Add(name, strings.TrimSpace(value))
	}
	for _, h := range []string{"X-Api-Key", "X-Timestamp", "X-Signature"} {
		if len(c.header.Values(h)) > 1 {
			c.notes = append(c.notes, fmt.Sprintf("%s appears %d times; the first is checked", strings.ToUpper(h), len(c.header.Values(h))))
		}
	}
	if strings.EqualFold(c.header.Get("Transfer-Encoding"), "chunked") {
		dec, err := io.ReadAll(httputil.NewChunkedReader(bytes.NewReader(body)))
		if err != nil {
			return captured{}, fmt.Errorf("chunked body: %w", err)
		}
		body = dec
	} else if cl := c.header.Get("Content-Length"); cl != "" {
		n, err := strconv.Atoi(cl)
		switch {
		case err != nil || n < 0:
			c.notes = append(c.notes, fmt.Sprintf("Content-Length %q is not a length; the whole rest is the body", cl))
		case n < len(body):
			c.notes = append(c.notes, fmt.Sprintf("%d bytes after the Content-Length of %d are not part of the body", len(body)-n, n))
			body = body[:n]
		case n > len(body):
			c.notes = append(c.notes, fmt.Sprintf("the body has %d bytes, Content-Length says %d: the dump may be cut", len(body), n))
		}
	}
	c.body = body
	return c, nil
}

// signInput is what sign works on.
type signInput struct {
	key, envKey, secret string
	timestamp           string // as sent or to be sent
	method              string
	body                []byte // as sent
	hasBody             bool
	given               string // the signature to check
	compare             bool
	now                 int64
	checkWindow         bool // judge the timestamp against now
	captured            *captured
	droppedNewline      bool // one trailing line break of the input was dropped
	// anyForm says the checker signs the canonical form of whatever body
	// arrives (a webhook receiver), so a body not in canonical form is no
	// fault of its own.
	anyForm bool
}

// signReport is sign's answer (also its JSON output).
type signReport struct {
	Method    string `json:"method"`
	APIKey    string `json:"api_key"`
	Timestamp string `json:"timestamp"`
	Canonical string `json:"canonical_body"`
	Signed    string `json:"string_signed"`
	Signature string `json:"signature"`
	// Compare only.
	Given    string   `json:"given_signature,omitempty"`
	Match    *bool    `json:"match,omitempty"`
	Verdict  string   `json:"verdict,omitempty"`
	Findings []string `json:"findings,omitempty"`
	Notes    []string `json:"notes,omitempty"`
}

func (r *signReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "method:          %s\n", r.Method)
	fmt.Fprintf(w, "canonical body:  %s\n", r.Canonical)
	fmt.Fprintf(w, "string signed:   %s\n", printable(r.Signed))
	fmt.Fprintf(w, "X-API-KEY:       %s\n", printable(r.APIKey))
	fmt.Fprintf(w, "X-TIMESTAMP:     %s\n", printable(r.Timestamp))
	fmt.Fprintf(w, "X-SIGNATURE:     %s\n", r.Signature)
	if r.Given != "" || r.Verdict != "" {
		fmt.Fprintf(w, "given signature: %s\n", printable(r.Given))
		fmt.Fprintf(w, "verdict:         %s\n", r.Verdict)
	}
	for i, f := range r.Findings {
		fmt.Fprintf(w, "  %d. %s\n", i+1, f)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

// report signs, and when comparing, diagnoses.
func (in *signInput) report() (*signReport, error) {
	r := &signReport{Method: in.method, APIKey: in.key, Timestamp: in.timestamp}
	if in.captured != nil {
		r.Notes = append(r.Notes, in.captured.notes...)
	}
	if in.droppedNewline {
		r.Notes = append(r.Notes, "the input's trailing line break is taken as not part of the body")
	}

	// What the service signs: {} for a GET or an empty body, else the
	// canonical form of the body.
	canonical, canonErr := []byte("{}"), error(nil)
	getLike := in.method == http.MethodGet || in.method == http.MethodHead
	switch {
	case getLike:
		if len(bytes.TrimSpace(in.body)) > 0 {
			r.Notes = append(r.Notes, "a "+in.method+" signs {}: its body is not signed")
		}
	case len(in.body) == 0:
		r.Notes = append(r.Notes, "the body is empty: a request without a body signs {}")
	default:
		canonical, canonErr = fiatramp.CanonicalizeJSON(in.body)
		if canonErr != nil {
			if !in.compare {
				return nil, fmt.Errorf("the body is not one JSON document: %v", canonErr)
			}
			canonical = nil
		}
	}
	ts, tsErr := strconv.ParseInt(in.timestamp, 10, 64)
	tsPlain := tsErr == nil && strconv.FormatInt(ts, 10) == in.timestamp
	if !in.compare && !tsPlain {
		return nil, fmt.Errorf("-timestamp %q: want Unix seconds, plain digits", in.timestamp)
	}
	if canonical != nil {
		r.Canonical = string(canonical)
		r.Signed = in.key + "|" + in.timestamp + "|" + r.Canonical
		if tsPlain {
			r.Signature = fiatramp.Sign(in.key, in.secret, ts, canonical)
		} else {
			r.Signature = signRaw(in.key, in.secret, in.timestamp, canonical)
		}
	}
	notCanonical := ""
	if !getLike && !in.anyForm && canonErr == nil && len(in.body) > 0 && !bytes.Equal(canonical, in.body) {
		notCanonical = firstDifference(in.body, canonical)
	}
	if !in.compare {
		if notCanonical != "" {
			r.Notes = append(r.Notes, strings.Replace(notCanonical, "\n", "; send exactly the canonical body above\n", 1))
		}
		return r, nil
	}

	// Compare: the checks in the order the service makes them.
	r.Given = in.given
	var findings []string
	if in.captured != nil {
		for _, h := range []string{"X-API-KEY", "X-TIMESTAMP", "X-SIGNATURE"} {
			if in.captured.header.Get(h) == "" {
				findings = append(findings, "header "+h+" is missing (AUTH_MISSING_HEADERS)")
			}
		}
		if k := in.captured.header.Get("X-Api-Key"); k != "" && in.envKey != "" && k != in.envKey && in.key == k {
			r.Notes = append(r.Notes, fmt.Sprintf("the request's X-API-KEY %s is not your %s %s: the secret you hold may be that key's",
				printable(k), fiatramp.EnvAPIKey, printable(in.envKey)))
		}
	}
	switch {
	case in.timestamp == "":
	case !tsPlain:
		findings = append(findings, fmt.Sprintf("X-TIMESTAMP %s is not Unix seconds in plain digits (AUTH_UNAUTHORIZED: a malformed timestamp)", strconv.Quote(in.timestamp)))
	case in.checkWindow && (ts < in.now-signatureWindow || ts > in.now+signatureWindow):
		d, dir := in.now-ts, "behind"
		if d < 0 {
			d, dir = -d, "ahead of"
		}
		findings = append(findings, fmt.Sprintf("X-TIMESTAMP %d is %d s %s the clock (%d): outside the %d-second window (AUTH_UNAUTHORIZED: an expired timestamp)%s; %s",
			ts, d, dir, in.now, signatureWindow, millisecondsHint(ts), skewRemedy))
	case !in.checkWindow && ts >= millisecondsFrom:
		findings = append(findings, fmt.Sprintf("X-TIMESTAMP %d is outside any window of the service's clock (AUTH_UNAUTHORIZED: an expired timestamp)%s", ts, millisecondsHint(ts)))
	}
	if canonErr != nil {
		findings = append(findings, fmt.Sprintf("the body is not one JSON document (AUTH_INVALID_SIGNATURE: no signature covers a body that is not JSON): %v", canonErr))
	} else if notCanonical != "" {
		findings = append(findings, strings.Replace(notCanonical, "\n",
			" (the sandbox answers AUTH_INVALID_SIGNATURE, \"Request body is not in canonical form\"; send exactly the canonical bytes you sign)\n", 1))
	}
	sigOK := in.given != "" && canonical != nil && hmac.Equal([]byte(in.given), []byte(r.Signature))
	switch {
	case in.given == "":
	case sigOK && notCanonical != "":
		r.Notes = append(r.Notes, "the signature is right for the canonical form of the body")
	case sigOK:
	default:
		findings = append(findings, in.explainSignature(ts, tsPlain, canonical))
	}
	r.Findings = findings
	match := len(findings) == 0
	r.Match = &match
	if match {
		r.Verdict = "MATCH"
	} else {
		first, _, _ := strings.Cut(findings[0], "\n")
		r.Verdict = "MISMATCH: " + first
	}
	return r, nil
}

// skewRemedy is what sign suggests for a timestamp outside the window,
// naming what the signer and this command can do.
const skewRemedy = "correct the signer's clock, or sign with the service's time " +
	"(fiatramp sign -timestamp SECONDS; the sandbox's clock: GET /_sandbox/clock)"

// millisecondsFrom is the smallest timestamp sign takes for milliseconds
// (Unix seconds reach it in the year 5138; milliseconds passed it in 1973).
const millisecondsFrom = 100_000_000_000

// millisecondsHint says, for a timestamp that looks like milliseconds, that
// it does.
func millisecondsHint(ts int64) string {
	if ts < millisecondsFrom {
		return ""
	}
	return fmt.Sprintf(": it has %d digits, like Unix milliseconds; X-TIMESTAMP is seconds", len(strconv.FormatInt(ts, 10)))
}

// signRaw is Sign for a timestamp that is not plain digits.
func signRaw(key, secret, ts string, body []byte) string {
	return base64.StdEncoding.EncodeToString(mac(secret, key+"|"+ts+"|", body))
}

func mac(secret, prefix string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(prefix))
	m.Write(body)
	return m.Sum(nil)
}

// firstDifference says where sent and canonical first differ, with both
// forms around that byte on lines of their own and a caret under it.
func firstDifference(sent, canonical []byte) string {
	i := 0
	for i < len(sent) && i < len(canonical) && sent[i] == canonical[i] {
		i++
	}
	at := func(b []byte) string {
		if i >= len(b) {
			return "the end"
		}
		r, _ := utf8.DecodeRune(b[i:])
		return strconv.QuoteRune(r)
	}
	// The window starts at a rune boundary of both (they agree before i).
	from := max(0, i-24)
	for from > 0 && !utf8.RuneStart(sent[from]) {
		from--
	}
	window := func(b []byte) (string, int) {
		to := min(len(b), i+24)
		for to < len(b) && !utf8.RuneStart(b[to]) {
			to++
		}
		text, caret := string(b[from:to]), utf8.RuneCount(b[from:i])
		if q := printable(text); q != text {
			text, caret = q, utf8.RuneCountInString(strconv.Quote(string(b[from:i])))-1
		}
		if from > 0 {
			text, caret = "..."+text, caret+3
		}
		if to < len(b) {
			text += "..."
		}
		return text, caret
	}
	sentText, caret := window(sent)
	canonText, caret2 := window(canonical)
	var b strings.Builder
	fmt.Fprintf(&b, "the body is not canonical: first difference at byte offset %d: sent %s, canonical %s", i, at(sent), at(canonical))
	fmt.Fprintf(&b, "\n       sent:      %s\n                  %s^", sentText, strings.Repeat(" ", caret))
	fmt.Fprintf(&b, "\n       canonical: %s\n                  %s^", canonText, strings.Repeat(" ", caret2))
	return b.String()
}

// variant is one way a signer may have got the signature wrong.
type variant struct {
	what string // what the signer did, for the finding
	body []byte
}

// explainSignature says which mistake produced the given signature, trying
// the usual ones, or that none did: then the secret is not the key's.
func (in *signInput) explainSignature(ts int64, tsPlain bool, canonical []byte) string {
	var bodies []variant
	add := func(what string, b []byte) {
		if b == nil {
			return
		}
		for _, v := range bodies {
			if bytes.Equal(v.body, b) {
				return
			}
		}
		bodies = append(bodies, variant{what, b})
	}
	getLike := in.method == http.MethodGet || in.method == http.MethodHead
	add("", canonical)
	if len(in.body) > 0 {
		add("signed the body as sent, not its canonical form (keys sorted, no white space, non-ASCII as \\uXXXX)", in.body)
	}
	if v, ok := pythonDefault(canonical); ok {
		add(`signed json.dumps with the default separators (", " and ": "); use separators=(",", ":")`, v)
	}
	if v, ok := goMarshal(in.body); ok && !getLike {
		add("signed what Go's encoding/json writes (raw UTF-8, <>& escaped); sign fiatramp.CanonicalizeJSON's output", v)
	}
	if len(in.body) > 0 {
		var b bytes.Buffer
		if json.Compact(&b, in.body) == nil {
			add("signed the body without white space but with its keys unsorted", b.Bytes())
		}
	}
	if getLike {
		add("signed an empty body; a "+in.method+" signs {}", []byte{})
	} else {
		add("signed {} (as for a GET) but sent a body", []byte("{}"))
		add("signed an empty body; sign the canonical body", []byte{})
	}

	keys := []variant{{"", []byte(in.key)}}
	if in.envKey != "" && in.envKey != in.key {
		keys = append(keys, variant{"signed with the key " + printable(in.envKey) + " but sent X-API-KEY " + printable(in.key), []byte(in.envKey)})
	}
	secrets := []variant{{"", []byte(in.secret)}}
	if t := strings.TrimSpace(in.secret); t != in.secret {
		secrets = append(secrets, variant{"signed with the secret stripped of white space", []byte(t)})
	}
	secrets = append(secrets, variant{"signed with the secret plus a trailing line break (as read from a file)", []byte(in.secret + "\n")})

	givens := decodings(in.given)
	if len(givens) == 0 {
		return fmt.Sprintf("X-SIGNATURE %s is not a Base64 (or hex) HMAC-SHA256 of 32 bytes (AUTH_INVALID_SIGNATURE)", excerpt([]byte(in.given)))
	}
	stamps := []variant{{"", []byte(in.timestamp)}}
	if tsPlain {
		for d := int64(1); d <= 2*signatureWindow; d++ {
			for _, t := range []int64{ts - d, ts + d} {
				stamps = append(stamps, variant{fmt.Sprintf("signed the timestamp %d but sent X-TIMESTAMP %d", t, ts), []byte(strconv.FormatInt(t, 10))})
			}
		}
	}
	for _, st := range stamps {
		for _, b := range bodies {
			for _, k := range keys {
				for _, sc := range secrets {
					m := hmac.New(sha256.New, sc.body)
					m.Write(k.body)
					m.Write([]byte{'|'})
					m.Write(st.body)
					m.Write([]byte{'|'})
					m.Write(b.body)
					sum := m.Sum(nil)
					for _, g := range givens {
						if !hmac.Equal(sum, g.body) {
							continue
						}
						var parts []string
						for _, p := range []string{k.what, sc.what, st.what, b.what, g.what} {
							if p != "" {
								parts = append(parts, p)
							}
						}
						return "the signature is wrong (AUTH_INVALID_SIGNATURE): the signer " + strings.Join(parts, "; and ")
					}
				}
			}
		}
	}
	return fmt.Sprintf("the signature is wrong (AUTH_INVALID_SIGNATURE) and matches none of the usual mistakes "+
		"(body as sent, {}, another timestamp within %d s, hex or URL-safe Base64, the secret with a line break): "+
		"the secret is not the one of key %s, or the signer signed something else entirely", 2*signatureWindow, printable(in.key))
}

// decodings are the 32-byte values sig may spell, with how it spells
// them when that is not standard padded Base64.
func decodings(sig string) []variant {
	var out []variant
	try := func(what string, dec func(string) ([]byte, error)) {
		if b, err := dec(sig); err == nil && len(b) == sha256.Size {
			out = append(out, variant{what, b})
		}
	}
	try("", base64.StdEncoding.DecodeString)
	try("encoded the HMAC as Base64 without padding; want standard Base64 with padding", base64.RawStdEncoding.DecodeString)
	try("encoded the HMAC as URL-safe Base64; want standard Base64 with padding", base64.URLEncoding.DecodeString)
	try("encoded the HMAC as URL-safe Base64 without padding; want standard Base64 with padding", base64.RawURLEncoding.DecodeString)
	try("encoded the HMAC as hex; want standard Base64 with padding", hex.DecodeString)
	if len(out) > 0 && out[0].what == "" {
		if !hmac.Equal([]byte(base64.StdEncoding.EncodeToString(out[0].body)), []byte(sig)) {
			out[0].what = "spelled the Base64 unusually"
		}
	}
	return out
}

// pythonDefault is canonical with Python's default separators (", " and
// ": "), outside strings.
func pythonDefault(canonical []byte) ([]byte, bool) {
	if canonical == nil {
		return nil, false
	}
	var b bytes.Buffer
	inString, escaped := false, false
	for _, c := range canonical {
		b.WriteByte(c)
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ',' || c == ':'):
			b.WriteByte(' ')
		}
	}
	return b.Bytes(), true
}

// goMarshal is what encoding/json writes for the body's value.
func goMarshal(body []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	return out, true
}
