package fiatramp

import (
	"encoding/json"
	"errors"
	"fmt"
)

// decodeResponse is the one place where the response of every operation is
// decoded. It returns nil when statusCode is 2xx and body is an envelope
// (interface.md 2.1) with status (or success) true, after decoding its data
// into out; out == nil ignores data, and a *json.RawMessage out receives a
// copy of it. Otherwise it returns an *APIError: for any non-2xx status,
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
	data := trimSpace(env.Data)
	switch {
	case len(data) == 0:
		return buildAPIError(statusCode, body, env, "response has no data", nil, extra)
	case string(data) == "null":
		return buildAPIError(statusCode, body, env, "response data is null", nil, extra)
	}
	if raw, isRaw := out.(*json.RawMessage); isRaw && raw != nil {
		// env.Data is already a copy, owned by nobody else.
		*raw = env.Data
		return nil
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

// envelopeStatus reads the envelope's status, or success when status is
// absent or null. known is false when neither holds a boolean.
func envelopeStatus(env *envelope) (ok, known bool) {
	for _, raw := range [...]json.RawMessage{env.Status, env.Success} {
		switch string(trimSpace(raw)) {
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
