package fiatramp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
	"github.com/fiatramp/fiatramp-go/types"
)

// decodeResponse is the one place where the response of every operation is
// decoded. It returns nil when statusCode is 2xx and body is an envelope
// with status (or success) true, after decoding its data into out. The
// envelope is read as the service's own reader reads it (see
// parseEnvelope): exact member names, the last of a repeated one winning.
// out == nil ignores data, and a *json.RawMessage out receives a copy of
// it. Otherwise it returns an *APIError: for any non-2xx status,
// for a 2xx envelope with status false, and, matching ErrMalformedResponse,
// for a 2xx body that is not a JSON envelope, lacks the data out needs, or
// whose data does not decode into out. extra is passed to newAPIError.
//
// The only other error is a plain one for an out that json.Unmarshal cannot
// write to (nil or not a pointer): a bug of the caller, not of the response.
func decodeResponse(statusCode int, body []byte, out any, extra map[string]error) error {
	env, problem, err := parseEnvelope(body)
	if statusCode < 200 || statusCode > 299 {
		if env == nil && len(body) == 0 {
			problem, err = "", nil
		}
		return buildAPIError(statusCode, body, env, problem, err, extra)
	}
	if env == nil {
		return buildAPIError(statusCode, body, nil, problem, err, extra)
	}
	ok, known := envelopeStatus(env)
	if !known {
		return buildAPIError(statusCode, body, env,
			"response is not an envelope (no boolean status): "+excerpt(body), nil, extra)
	}
	if !ok {
		return buildAPIError(statusCode, body, env, "", nil, extra)
	}
	if out == nil {
		return nil
	}
	data := jsonscan.TrimSpace(env.Data)
	switch {
	case len(data) == 0:
		return buildAPIError(statusCode, body, env, "response has no data", nil, extra)
	case string(data) == "null":
		return buildAPIError(statusCode, body, env, "response data is null", nil, extra)
	}
	if raw, isRaw := out.(*json.RawMessage); isRaw && raw != nil {
		// env.Data aliases the body: the caller gets a copy of its own.
		*raw = append(json.RawMessage(nil), data...)
		return nil
	}
	if n := jsonscan.LongestDigitRun(data); n > types.MaxDecimalDigits && !checksDecimals(out) {
		// An out of the caller's (through Do) may hold a decimal.Decimal or
		// a big.Int, whose conversion costs the square of its digits. A
		// number is at most three runs of digits, so with every run capped
		// no conversion is slow.
		return buildAPIError(statusCode, body, env,
			fmt.Sprintf("response data holds a run of %d digits, more than %d", n, types.MaxDecimalDigits), nil, extra)
	}
	if err := json.Unmarshal(data, out); err != nil {
		var invalidOut *json.InvalidUnmarshalError
		if errors.As(err, &invalidOut) {
			return fmt.Errorf("fiatramp: cannot decode response data: %w", err)
		}
		return buildAPIError(statusCode, body, env,
			fmt.Sprintf("cannot decode response data into %T: %s", out, sanitize(err.Error(), maxMessageText)), err, extra)
	}
	return nil
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

// envelopeStatus reads the envelope's status, or success when status is
// absent or null. known is false when neither holds a boolean.
func envelopeStatus(env *envelope) (ok, known bool) {
	for _, raw := range [...][]byte{env.Status, env.Success} {
		switch string(raw) {
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
