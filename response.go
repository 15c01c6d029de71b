package fiatramp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"time"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
	"github.com/fiatramp/fiatramp-go/types"
)

// This file is the response path: the envelope read in one pass, the data
// handed to its decoder; response_errors.go builds the *APIError from
// whatever came back.

// envelope is the response envelope: status (or success), message (or
// DRF's detail), data, err_code and errors. Every field stays raw, and
// aliases the body, so that a wrongly typed field spoils only itself.
type envelope struct {
	Status  []byte
	Success []byte
	Message []byte
	Detail  []byte
	Data    []byte
	ErrCode []byte
	Errors  []byte
}

// decodeResponse is the one place where the response of every operation is
// decoded. It returns nil when statusCode is 2xx and body is an envelope
// with status (or success) true, after decoding its data into out. The
// envelope is read as the service's own reader reads it (see readEnvelope):
// exact member names, the last of a repeated one winning. out == nil
// ignores data, and a *json.RawMessage out receives a copy of it.
// Otherwise it returns an *APIError: for any non-2xx status, for a 2xx
// envelope with status false, and, matching ErrMalformedResponse, for a 2xx
// body that is not a JSON envelope, lacks the data out needs, whose data
// does not decode into out, or, for a response type of package types,
// whose data lacks a member the result cannot be used without
// (missingMember). extra maps normalised messages
// (normalizeMessage) to further sentinels, on top of the documented ones.
//
// The body is read once: the envelope's members are checked as they are
// read, and the data goes straight to the decoder of a response type of
// package types, which checks every byte it reads; any other out gets the
// data through encoding/json. Only a body that fails is read again, to say
// why.
//
// The only other error is a plain one for an out that json.Unmarshal cannot
// write to (nil or not a pointer): a bug of the caller, not of the response.
func decodeResponse(statusCode int, body []byte, out any, extra map[string]error) error {
	success := statusCode >= 200 && statusCode <= 299
	// The data is checked here unless a decoder will check it.
	dataChecked := !success || out == nil
	var env envelope
	if !readEnvelope(body, &env, dataChecked) {
		return malformedBody(statusCode, body, extra)
	}
	if !success {
		return buildAPIError(statusCode, body, &env, "", nil, extra)
	}
	ok, known := envelopeStatus(&env)
	if !dataChecked && (!ok || !known) && env.Data != nil && !json.Valid(env.Data) {
		return malformedBody(statusCode, body, extra)
	}
	if !known {
		return buildAPIError(statusCode, body, &env,
			"response is not an envelope (no boolean status): "+excerpt(body), nil, extra)
	}
	if !ok {
		return buildAPIError(statusCode, body, &env, "", nil, extra)
	}
	if out == nil {
		return nil
	}
	data := jsonscan.TrimSpace(env.Data)
	switch {
	case len(data) == 0:
		return buildAPIError(statusCode, body, &env, "response has no data", nil, extra)
	case string(data) == "null":
		return buildAPIError(statusCode, body, &env, "response data is null", nil, extra)
	}
	if dec, own := out.(json.Unmarshaler); own && checksDecimals(out) {
		// A response type of package types reads its data in one pass,
		// checking every value it reads (and json.Valid on those it skips),
		// and refuses a decimal of more than types.MaxDecimalDigits digits
		// by itself, naming the field.
		if err := dec.UnmarshalJSON(data); err != nil {
			if !json.Valid(data) {
				return malformedBody(statusCode, body, extra)
			}
			return dataError(statusCode, body, &env, out, err, extra)
		}
		// Data that decodes but lacks what the result is known by (a
		// payout's id, say) is no success: a caller would store uuid.Nil.
		if name := missingMember(out); name != "" {
			return buildAPIError(statusCode, body, &env,
				fmt.Sprintf("response data has no %q: a %T cannot be used without it", name, out), nil, extra)
		}
		return nil
	}
	if !json.Valid(data) {
		return malformedBody(statusCode, body, extra)
	}
	if raw, isRaw := out.(*json.RawMessage); isRaw && raw != nil {
		// env.Data aliases the body: the caller gets a copy of its own.
		*raw = append(json.RawMessage(nil), data...)
		return nil
	}
	if n := jsonscan.LongestDigitRun(data); n > types.MaxDecimalDigits {
		// An out of the caller's (through Do) may hold a decimal.Decimal or
		// a big.Int, whose conversion costs the square of its digits. A
		// number is at most three runs of digits, so with every run capped
		// no conversion is slow.
		return buildAPIError(statusCode, body, &env,
			fmt.Sprintf("response data holds a run of %d digits, more than %d", n, types.MaxDecimalDigits), nil, extra)
	}
	if err := json.Unmarshal(data, out); err != nil {
		var invalidOut *json.InvalidUnmarshalError
		if errors.As(err, &invalidOut) {
			return fmt.Errorf("fiatramp: cannot decode response data: %w", err)
		}
		return dataError(statusCode, body, &env, out, err, extra)
	}
	return nil
}

// dataError is the *APIError for data that does not decode into out.
func dataError(statusCode int, body []byte, env *envelope, out any, err error, extra map[string]error) *APIError {
	return buildAPIError(statusCode, body, env,
		fmt.Sprintf("cannot decode response data into %T: %s", out, sanitize(err.Error(), maxMessageText)), err, extra)
}

// typesPackage is the import path of package types.
var typesPackage = reflect.TypeFor[types.Payout]().PkgPath()

// checksDecimals reports whether out is a response type of package types,
// which refuses a decimal of more than types.MaxDecimalDigits digits by
// itself, naming the field. A type of the package without a decoder of its
// own (a request type) is decoded by encoding/json and is no such type.
func checksDecimals(out any) bool {
	t := reflect.TypeOf(out)
	_, decodesItself := out.(json.Unmarshaler)
	return decodesItself && t.Kind() == reflect.Pointer && t.Elem().PkgPath() == typesPackage
}

// readEnvelope reads body as an envelope into env the way the service's own
// JSON reader (Python's) does: member names match exactly, and when a name
// repeats the last one wins. Every member is checked to be valid JSON as it
// is read, the last data only when checkData is set. It reports false for
// a body that is not a JSON object of valid members nested at most
// jsonscan.MaxDepth deep; malformedBody says why.
func readEnvelope(body []byte, env *envelope, checkData bool) bool {
	if jsonscan.FirstByte(body) != '{' {
		return false
	}
	it := jsonscan.NewObjectIter(body)
	for {
		key, value, ok := it.Next()
		if !ok {
			break
		}
		if string(key) == "data" {
			// An earlier data is not decoded, but must be JSON all the same.
			if env.Data != nil && !json.Valid(env.Data) {
				return false
			}
			env.Data = value
			continue
		}
		if !json.Valid(value) {
			return false
		}
		switch string(key) {
		case "status":
			env.Status = value
		case "success":
			env.Success = value
		case "message":
			env.Message = value
		case "detail":
			env.Detail = value
		case "err_code":
			env.ErrCode = value
		case "errors":
			env.Errors = value
		}
	}
	if it.Err() != nil {
		return false
	}
	return !checkData || env.Data == nil || json.Valid(env.Data)
}

var envelopeType = reflect.TypeFor[envelope]()

// malformedBody is the *APIError for a body that is not a valid envelope:
// it reads the body once more to say why. An error status with an empty
// body is not malformed: it says all it has to say.
func malformedBody(statusCode int, body []byte, extra map[string]error) *APIError {
	if len(body) == 0 {
		if statusCode >= 200 && statusCode <= 299 {
			return buildAPIError(statusCode, body, nil, "empty response body", nil, extra)
		}
		return buildAPIError(statusCode, body, nil, "", nil, extra)
	}
	first := jsonscan.FirstByte(body)
	if !json.Valid(body) {
		// encoding/json's error says where and why.
		err := json.Unmarshal(body, new(struct{}))
		if first == '{' || first == '[' {
			return buildAPIError(statusCode, body, nil, "response is truncated or invalid JSON ("+err.Error()+"): "+excerpt(body), err, extra)
		}
		return buildAPIError(statusCode, body, nil, "response is not JSON: "+excerpt(body), err, extra)
	}
	var kind string
	switch first {
	case '{':
		// Valid JSON: only the nesting cap stops the reader.
		it := jsonscan.NewObjectIter(body)
		for _, _, ok := it.Next(); ok; _, _, ok = it.Next() {
		}
		err := it.Err()
		if err == nil {
			err = jsonscan.ErrSyntax
		}
		return buildAPIError(statusCode, body, nil, "response is not an envelope ("+err.Error()+"): "+excerpt(body), err, extra)
	case 'n':
		return buildAPIError(statusCode, body, nil, "response is a JSON null, not an envelope", nil, extra)
	case '[':
		kind = "array"
	case '"':
		kind = "string"
	case 't', 'f':
		kind = "bool"
	default:
		kind = "number"
	}
	return buildAPIError(statusCode, body, nil, "response is a JSON "+kind+", not an envelope: "+excerpt(body),
		&json.UnmarshalTypeError{Value: kind, Type: envelopeType}, extra)
}

// envelopeStatus reads the envelope's status, or success when status is
// absent or null. known is false when neither holds a boolean.
func envelopeStatus(env *envelope) (ok, known bool) {
	for _, raw := range [...][]byte{env.Status, env.Success} {
		switch string(jsonscan.TrimSpace(raw)) {
		case "true":
			return true, true
		case "false":
			return false, true
		case "", "null":
			continue
		}
		return false, false
	}
	return false, false
}

// redirectError refuses a 3xx answer; the target was not contacted.
func redirectError(status int, location string, body []byte) *APIError {
	e := &APIError{StatusCode: status, matched: []error{ErrRedirect}, decoded: true}
	if len(body) > 0 {
		e.RawBody = append([]byte(nil), body[:min(len(body), maxRawBody)]...)
	}
	e.fallback = "redirect to " + strconv.Quote(sanitize(location, maxMessageText)) +
		" not followed: signed requests follow no redirects (is the base address right?)"
	return e
}

// skewHint says plainly that the clocks disagree, and by how much when the
// response carried a Date.
func skewHint(res *attemptResult, correcting bool) string {
	hint := "clock skew: the service refused the request's timestamp; its clock and this machine's must agree within 300 s"
	if date, ok := res.responseDate(); ok {
		d := res.stamp.Sub(date).Round(time.Second)
		side := "ahead of"
		if d < 0 {
			d, side = -d, "behind"
		}
		hint = fmt.Sprintf("clock skew: the request was stamped %s, %s %s the service's Date %s; they must agree within 300 s",
			res.stamp.UTC().Format(time.RFC3339), d, side, date.UTC().Format(time.RFC3339))
	}
	if !correcting {
		hint += "; correct this machine's clock or use WithClockCorrection"
	}
	return hint
}

// decodedInTime returns err, the outcome of decoding a response of status,
// unless ctx ended meanwhile: then it returns an error saying so that wraps
// ctx's error (and err, when there is one), so that a call never reports a
// result its context's deadline came before. The request was answered, so
// the retry code judges a success turned late like any attempt that may
// have acted: a payout create ends in an *OutcomeUnknownError.
func decodedInTime(ctx context.Context, op *operation, status int, err error) error {
	cerr := ctx.Err()
	if cerr == nil {
		return err
	}
	const late = "fiatramp: %s %s: HTTP %d: the context ended while the response was decoded: %w"
	if err == nil {
		return fmt.Errorf(late, op.method, op.url.Path, status, cerr)
	}
	return fmt.Errorf(late+": %w", op.method, op.url.Path, status, cerr, err)
}
