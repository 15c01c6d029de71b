package sandbox

// Serving one request: fault injection, the body read and parsed without
// the state lock, authentication (auth.go), the route (routes.go) and the
// operation's handler.

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// maxRequestBody caps what the sandbox reads of a request body.
const maxRequestBody = 1 << 20

// RequestIDHeader is the response header that carries the id the sandbox
// gives each request, on every answer it writes (refusals, injected
// faults and hosted pages included), so that a client's
// APIError.RequestID can be quoted and tested. The service documents no
// name for it; X-Request-ID is the common one.
const RequestIDHeader = "X-Request-ID"

// requestIDKey is RequestIDHeader as net/http files it (its canonical
// form), set without canonicalizing it on every answer.
const requestIDKey = "X-Request-Id"

// request is what a handler gets: the authenticated organization, the
// sandbox time of the request, the path parameters and the body.
type request struct {
	r      *http.Request
	org    *org
	now    time.Time
	params []string
	body   *fields // empty for GET
}

// handlerFunc runs one operation with s.mu held.
type handlerFunc func(s *Sandbox, rq *request) reply

// ServeHTTP serves one request of the interface: fault injection first,
// then authentication (X-API-KEY, X-TIMESTAMP within the window,
// X-SIGNATURE over the canonical body), then the operation. A path under
// HostedPrefix is a hosted page instead, reached by its token alone.
// Every answer carries a new id in RequestIDHeader.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.serveHTTP(w, r, 0)
}

// serveHTTP is ServeHTTP; writeTimeout is the serving http.Server's
// WriteTimeout (0: none, or not known), which an answer held by a delay
// fault gets in full after the delay.
func (s *Sandbox) serveHTTP(w http.ResponseWriter, r *http.Request, writeTimeout time.Duration) {
	// One array holds the values of the three headers every answer of the
	// interface carries (capped, so no append reaches a neighbour).
	hv := make([]string, 3)
	hv[0] = s.requestIDs.next()
	w.Header()[requestIDKey] = hv[0:1:1]
	if strings.HasPrefix(r.URL.Path, HostedPrefix) {
		s.serveHosted(w, r) // the hosted pages (hosted_pages.go): HTML, by token
		return
	}
	s.mu.Lock()
	now := s.now()
	s.st.stats.Requests++
	fault, faulted := s.matchFault(r.Method, r.URL.Path)
	s.mu.Unlock()
	hv[1] = now.UTC().Format(http.TimeFormat)
	w.Header()["Date"] = hv[1:2:2]

	var raw []byte
	var err error
	if r.Body != nil && r.Body != http.NoBody { // net/http gives NoBody to a request without one
		raw, err = io.ReadAll(io.LimitReader(r.Body, maxRequestBody+1))
	}
	if err != nil {
		// The body did not arrive: cut off by the server's read timeout,
		// or the caller went away. Nothing was done; say so to a caller
		// that still listens, and end the connection.
		rep := refusal(http.StatusRequestTimeout, "", "Request body not received in time.", nil)
		w.Header().Set("Connection", "close")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.status)
		_, _ = w.Write(rep.body)
		return
	}
	if faulted {
		if done := s.applyFault(w, r, fault, writeTimeout); done {
			return
		}
	}

	rep := s.serve(r, raw)
	switch {
	case faulted && fault.Kind == FaultDropAfter:
		panic(http.ErrAbortHandler) // the effect happened; the caller never hears
	case faulted && fault.Kind == FaultDelayAfter && !holdAnswer(w, r, fault.Delay, writeTimeout):
		return // the effect happened; the caller gave up before the answer
	}
	for k, v := range rep.header {
		w.Header()[k] = v
	}
	hv[2] = "application/json"
	w.Header()["Content-Type"] = hv[2:3:3]
	w.WriteHeader(rep.status)
	_, _ = w.Write(rep.body)
}

// serve authenticates and runs one request, returning its reply.
//
// Only what needs the state holds s.mu: finding the key's organization and
// checking the timestamp, then the operation. Everything that depends on
// the request alone (the body's canonical form, its media type, its JSON,
// the signature) is worked out without it, so a body that is costly to
// parse holds up its own request and no other organization's.
func (s *Sandbox) serve(r *http.Request, raw []byte) reply {
	if len(raw) > maxRequestBody {
		return refusal(http.StatusRequestEntityTooLarge, "", "Request body too large.", nil)
	}
	rt, params, miss := match(s.routes, r.Method, r.URL.Path)
	switch miss {
	case http.StatusNotFound:
		return refusal(http.StatusNotFound, "", "Not found.", nil)
	case http.StatusMethodNotAllowed:
		rep := refusal(http.StatusMethodNotAllowed, "", fmt.Sprintf("Method %q not allowed.", r.Method), nil)
		rep.header = http.Header{"Allow": {strings.Join(allowed(s.routes, r.URL.Path), ", ")}}
		return rep
	}

	in := s.parse(r, raw)

	s.mu.Lock()
	o, cred, rep := s.authenticate(r, s.now())
	s.mu.Unlock()
	if o == nil {
		return rep
	}
	if rep, ok := verify(cred, in); !ok {
		return rep
	}
	if in.refused != nil {
		return *in.refused
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.orgByKey(cred.key) != o { // removed meanwhile (a failed Load undone, or Reset)
		return unauthorized(CodeUnauthorized, "Invalid API key.")
	}
	s.runDueLocked(false) // what came due on a running clock, before the timer
	rq := &request{r: r, org: o, now: s.now(), params: params, body: newFields(in.body)}
	return rt.handle(s, rq)
}

// parsedBody is what a request's body says, worked out without s.mu.
type parsedBody struct {
	// signed is what the signature covers: the body, or {} for a GET or a
	// request without one.
	signed []byte
	// notCanonical is the 401 to answer when the body is not its own
	// canonical form (nil when it is).
	notCanonical *reply
	// refused is the answer (415 or 400) once authentication passes, or
	// nil when body holds the request's JSON object.
	refused *reply
	body    map[string]any
}

// parse checks and decodes raw, the body of r, without s.mu. The work is
// linear in the size of raw: nesting is capped by maxBodyDepth.
func (s *Sandbox) parse(r *http.Request, raw []byte) *parsedBody {
	in := &parsedBody{signed: []byte("{}")}
	if s.parseHook != nil {
		defer s.parseHook(r)
	}
	if r.Method == http.MethodGet || len(raw) == 0 {
		return in
	}
	// The client's canonicalizer, shared on purpose: it is the one
	// reference of the rule, checked against Python (see doc.go).
	canonical, err := fiatramp.CanonicalizeJSON(raw)
	switch {
	case err != nil:
		rep := unauthorized(CodeInvalidSignature, "Request body is not valid JSON.")
		in.notCanonical = &rep
		return in
	case !bytes.Equal(canonical, raw):
		rep := unauthorized(CodeInvalidSignature, "Request body is not in canonical form: keys sorted, no whitespace, non-ASCII escaped.")
		in.notCanonical = &rep
		return in
	}
	in.signed = raw
	// A request with a body must send it as Content-Type application/json;
	// the REST framework answers anything else 415.
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		rep := refusal(http.StatusUnsupportedMediaType, "", fmt.Sprintf("Unsupported media type %q in request.", ct), nil)
		in.refused = &rep
		return in
	}
	in.body, in.refused = decodeBody(raw)
	return in
}
