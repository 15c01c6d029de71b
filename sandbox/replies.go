package sandbox

// Replies: the envelope every answer of the service's operations comes in
// ({status, message, data} on success; err_code and errors on a refusal),
// and the helpers handlers build their answers with.

import (
	"encoding/json"
	"net/http"
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

// Documented err_codes: CodeFieldMissing answers a 400 for a missing or
// invalid field, CodeInternalError a 500.
const (
	CodeFieldMissing  = "REQ_FIELD_MISSING"
	CodeInternalError = "SYS_INTERNAL_ERROR"
)

// reply is a handler's answer, written after the handler returns (or not
// at all, when a fault drops the connection after the effect).
type reply struct {
	status int
	body   []byte
	header http.Header // extra headers, e.g. Allow on a 405
}

// envelope is the body of every answer: status, message, data (null on
// error), and on errors err_code and errors.
type envelope struct {
	Status  bool   `json:"status"`
	Message string `json:"message"`
	ErrCode string `json:"err_code,omitempty"`
	Errors  any    `json:"errors,omitempty"`
	Data    any    `json:"data"`
}

// success answers status with data.
func success(status int, message string, data any) reply {
	return reply{status: status, body: mustJSON(envelope{Status: true, Message: message, Data: data})}
}

// refusal answers an error. code is the err_code, empty where the
// service documents none; errs the errors member or nil.
func refusal(status int, code, message string, errs any) reply {
	return reply{status: status, body: mustJSON(envelope{Message: message, ErrCode: code, Errors: errs})}
}

// unauthorized answers an authentication failure.
func unauthorized(code, message string) reply {
	return refusal(http.StatusUnauthorized, code, message, nil)
}

// rule answers a refused business rule: HTTP 400 with the documented
// message. The service documents no err_code for these, so none is sent.
func rule(message string) reply {
	return refusal(http.StatusBadRequest, "", message, nil)
}

// fieldRefusal answers field errors (HTTP 400, REQ_FIELD_MISSING, and
// errors.<field> holding the messages); the message is the first field's first message.
func fieldRefusal(errs map[string][]string) reply {
	names := make([]string, 0, len(errs))
	for k := range errs {
		names = append(names, k)
	}
	sort.Strings(names)
	return refusal(http.StatusBadRequest, CodeFieldMissing, errs[names[0]][0], errs)
}

// mustJSON marshals what the sandbox itself builds; it cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("sandbox: marshal: " + err.Error())
	}
	return b
}

// num writes d as a JSON number, with d's own digits.
func num(d decimal.Decimal) json.Number { return json.Number(d.String()) }

// stamp writes t as the service does: UTC with microseconds.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z07:00") }
