package sandbox

// Authentication: the X-API-KEY, X-TIMESTAMP and X-SIGNATURE headers of
// every request, and the signature rule, computed here with crypto/hmac
// and not with the client's Sign (see doc.go).

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"hash"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Authentication err_codes: the three the service documents, each answered
// with HTTP 401. The message tells the cases apart: a missing header names
// it; an unknown key, a timestamp that is not Unix seconds and one outside
// the window are AUTH_UNAUTHORIZED ("Invalid API key.", "X-TIMESTAMP must
// be a Unix time in seconds.", "Request timestamp is outside the allowed
// window..."); a body not in canonical form, which no signature can cover,
// and a wrong signature are AUTH_INVALID_SIGNATURE.
const (
	CodeMissingHeaders   = "AUTH_MISSING_HEADERS"
	CodeInvalidSignature = "AUTH_INVALID_SIGNATURE"
	CodeUnauthorized     = "AUTH_UNAUTHORIZED"
)

// The earlier names of the authentication err_codes, each now the
// documented code it is answered with.
const (
	// Deprecated: use CodeMissingHeaders.
	CodeMissingHeader = CodeMissingHeaders
	// Deprecated: use CodeUnauthorized.
	CodeInvalidAPIKey = CodeUnauthorized
	// Deprecated: use CodeUnauthorized.
	CodeInvalidTimestamp = CodeUnauthorized
	// Deprecated: use CodeUnauthorized.
	CodeTimestampExpired = CodeUnauthorized
	// Deprecated: use CodeInvalidSignature.
	CodeBodyNotCanonical = CodeInvalidSignature
)

// credentials are the signature inputs of an authenticated request.
type credentials struct {
	key, sig string
	ts       int64
	macs     *sync.Pool // HMAC-SHA256 keyed by the organization's secret
}

// authenticate checks the authentication headers that need the state (the
// key) or the clock (the timestamp); s.mu must be held. It returns the
// organization and what verify needs, or nil and the 401 to answer.
func (s *Sandbox) authenticate(r *http.Request, now time.Time) (*org, credentials, reply) {
	// The headers are read by their canonical keys, which net/http files
	// them under, so that reading them costs no allocation; the refusal
	// names them as the service does.
	key, stamp, sig := r.Header.Get("X-Api-Key"), r.Header.Get("X-Timestamp"), r.Header.Get("X-Signature")
	for _, h := range [...]struct{ name, value string }{{"X-API-KEY", key}, {"X-TIMESTAMP", stamp}, {"X-SIGNATURE", sig}} {
		if h.value == "" {
			return nil, credentials{}, unauthorized(CodeMissingHeaders, "Authentication header "+h.name+" is missing.")
		}
	}
	o := s.st.orgByKey(key)
	if o == nil {
		return nil, credentials{}, unauthorized(CodeUnauthorized, "Invalid API key.")
	}
	// Plain decimal digits only: the signature covers the header as sent,
	// so "+17..." or "017..." would sign a different string than the one
	// the sandbox rebuilds from the number.
	ts, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil || strconv.FormatInt(ts, 10) != stamp {
		return nil, credentials{}, unauthorized(CodeUnauthorized, "X-TIMESTAMP must be a Unix time in seconds.")
	}
	// Whole seconds on both sides: the header has no fraction, so a
	// timestamp exactly TimestampWindow away is inside the window whatever
	// the fraction of the sandbox clock.
	window := int64(s.settings.TimestampWindow / time.Second)
	if server := now.Unix(); ts < server-window || ts > server+window {
		return nil, credentials{}, unauthorized(CodeUnauthorized, fmt.Sprintf(
			"Request timestamp is outside the allowed window of %d seconds (server time %d).",
			window, now.Unix()))
	}
	return o, credentials{key: key, sig: sig, ts: ts, macs: o.macs}, reply{}
}

// verify finishes authentication without s.mu: the body must be canonical
// and the signature must cover it. It returns the 401 to answer and false,
// or true.
func verify(c credentials, in *parsedBody) (reply, bool) {
	if in.notCanonical != nil {
		return *in.notCanonical, false
	}
	// Compared as text, in constant time: standard Base64 with padding is
	// the one accepted spelling (a lenient decoder would also take other
	// spellings of the same bytes, which the service need not).
	var wantBuf, gotBuf [64]byte // on the stack: a signature is 44 bytes
	mac := c.macs.Get().(hash.Hash)
	mac.Reset()
	want := appendMAC(wantBuf[:0], mac, c.key, c.ts, in.signed)
	c.macs.Put(mac)
	if !hmac.Equal(append(gotBuf[:0], c.sig...), want) {
		return unauthorized(CodeInvalidSignature, "Invalid Signature"), false
	}
	return reply{}, true
}

// signature is the signature rule, computed with crypto/hmac: the standard
// Base64 (with padding) of HMAC-SHA256, keyed by secret, over key + "|" +
// the decimal timestamp + "|" + the canonical body. It signs the webhooks
// the sandbox sends and checks the requests it receives. It is written
// here on purpose rather than calling the client's fiatramp.Sign (an HMAC
// computed by hand for speed): a sandbox that shared the client's code
// would agree with any bug in it.
func signature(key, secret string, ts int64, canonicalBody []byte) string {
	return string(appendMAC(nil, hmac.New(sha256.New, []byte(secret)), key, ts, canonicalBody))
}

// newMACPool returns a pool of HMAC-SHA256 states keyed by secret.
func newMACPool(secret string) *sync.Pool {
	return &sync.Pool{New: func() any { return hmac.New(sha256.New, []byte(secret)) }}
}

// appendMAC appends the signature to dst, computed with mac (an
// HMAC-SHA256 keyed by the secret, freshly made or reset), and returns the
// extended slice.
func appendMAC(dst []byte, mac hash.Hash, key string, ts int64, canonicalBody []byte) []byte {
	var head [128]byte // key|ts| on the stack when the key is not long
	mac.Write(append(strconv.AppendInt(append(append(head[:0], key...), '|'), ts, 10), '|'))
	mac.Write(canonicalBody)
	var sum [sha256.Size]byte
	return base64.StdEncoding.AppendEncode(dst, mac.Sum(sum[:0]))
}
