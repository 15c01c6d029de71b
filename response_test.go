package fiatramp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
	"github.com/fiatramp/fiatramp-go/types"
)

type testPayload struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// requireMalformed checks that err is an *APIError with status that
// matches ErrMalformedResponse and, otherwise, exactly also.
func requireMalformed(t *testing.T, err error, status int, also ...error) *APIError {
	t.Helper()
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, status, apiErr.StatusCode)
	requireSentinels(t, err, append([]error{ErrMalformedResponse}, also...)...)
	return apiErr
}

func TestDecodeResponseSuccess(t *testing.T) {
	body := []byte(`{"status":true,"message":"ok","data":{"id":7,"name":"x","extra":[1,2]}}`)

	var p testPayload
	require.NoError(t, decodeResponse(200, body, &p, nil))
	require.Equal(t, testPayload{ID: 7, Name: "x"}, p)

	var raw json.RawMessage
	require.NoError(t, decodeResponse(201, body, &raw, nil))
	require.JSONEq(t, `{"id":7,"name":"x","extra":[1,2]}`, string(raw))
	// raw is a copy: changing the body leaves it alone.
	before := string(raw)
	for i := range body {
		body[i] = ' '
	}
	require.Equal(t, before, string(raw))

	// out == nil ignores data, even when it is null or absent.
	require.NoError(t, decodeResponse(200, []byte(`{"status":true,"message":"ok","data":null}`), nil, nil))
	require.NoError(t, decodeResponse(200, []byte(`{"status":true}`), nil, nil))

	// success instead of status.
	p = testPayload{}
	require.NoError(t, decodeResponse(200, []byte(`{"success":true,"data":{"id":1}}`), &p, nil))
	require.Equal(t, 1, p.ID)
	// status wins over success; a null status defers to success.
	require.NoError(t, decodeResponse(200, []byte(`{"status":null,"success":true,"data":{}}`), &p, nil))
	require.NoError(t, decodeResponse(200, []byte(` {"status" : true , "data" : {"id":2}} `), &p, nil))
	require.Equal(t, 2, p.ID)
}

func TestDecodeResponseStatusFalseIn2xx(t *testing.T) {
	body := errBody("Customer is unverified", "REQ_FIELD_MISSING", `{"customer_id":["This field is required."]}`)
	var p testPayload
	err := decodeResponse(200, []byte(body), &p, nil)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 200, apiErr.StatusCode)
	require.Equal(t, "REQ_FIELD_MISSING", apiErr.Code)
	require.Equal(t, "Customer is unverified", apiErr.Message)
	require.Equal(t, map[string][]string{"customer_id": {"This field is required."}}, apiErr.FieldErrors)
	requireSentinels(t, err, ErrCustomerUnverified, ErrFieldMissing)

	// success:false alone, and status false overriding success true.
	err = decodeResponse(200, []byte(`{"success":false,"message":"Quotation has expired","data":null}`), nil, nil)
	requireSentinels(t, err, ErrQuotationExpired)
	err = decodeResponse(200, []byte(`{"status":false,"success":true,"message":"EDD required","data":{}}`), &p, nil)
	requireSentinels(t, err, ErrEDDRequired)
}

func TestDecodeResponseMalformed2xx(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		out     any
		problem string
	}{
		{"missing status", `{"message":"ok","data":{"id":1}}`, &testPayload{},
			`response is not an envelope (no boolean status): "{"message":"ok","data":{"id":1}}"`},
		{"status not boolean", `{"status":"true","data":{"id":1}}`, &testPayload{},
			`response is not an envelope (no boolean status): "{"status":"true","data":{"id":1}}"`},
		{"missing status, out nil", `{"data":{"id":1}}`, nil,
			`response is not an envelope (no boolean status): "{"data":{"id":1}}"`},
		{"data null", `{"status":true,"message":"ok","data":null}`, &testPayload{}, "response data is null"},
		{"data absent", `{"status":true,"message":"ok"}`, &testPayload{}, "response has no data"},
		{"data null into raw", `{"status":true,"data":null}`, new(json.RawMessage), "response data is null"},
		{"empty body", ``, &testPayload{}, "empty response body"},
		{"empty body, out nil", ``, nil, "empty response body"},
		{"html", `<html>oops</html>`, &testPayload{}, `response is not JSON: "<html>oops</html>"`},
		{"truncated", `{"status":true,"data":{"id":1`, &testPayload{},
			`response is truncated or invalid JSON (unexpected end of JSON input): "{"status":true,"data":{"id":1"`},
		{"array body", `[{"status":true}]`, nil, `response is a JSON array, not an envelope: "[{"status":true}]"`},
		{"string body", `"ok"`, nil, `response is a JSON string, not an envelope: ""ok""`},
		{"null body", ` null `, &testPayload{}, `response is a JSON null, not an envelope`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := decodeResponse(200, []byte(tt.body), tt.out, nil)
			apiErr := requireMalformed(t, err, 200)
			require.Equal(t, "fiatramp: HTTP 200: "+tt.problem, apiErr.Error())
		})
	}
}

func TestDecodeResponseUnwrapsDecodeErrors(t *testing.T) {
	err := decodeResponse(200, []byte(`{"status":true,"data":{"id":"seven"}}`), &testPayload{}, nil)
	apiErr := requireMalformed(t, err, 200)
	var typeErr *json.UnmarshalTypeError
	require.ErrorAs(t, err, &typeErr)
	require.Same(t, typeErr, apiErr.Unwrap())
	require.Contains(t, err.Error(), "cannot decode response data into *fiatramp.testPayload: json: cannot unmarshal string")

	// data of the wrong kind altogether.
	err = decodeResponse(201, []byte(`{"status":true,"data":[1,2]}`), &testPayload{}, nil)
	requireMalformed(t, err, 201)
	require.ErrorAs(t, err, &typeErr)

	// A truncated body unwraps to the syntax error.
	err = decodeResponse(200, []byte(`{"status":true,"data":{`), &testPayload{}, nil)
	var syntaxErr *json.SyntaxError
	require.ErrorAs(t, err, &syntaxErr)

	// The envelope's message is kept even when data is bad.
	err = decodeResponse(200, []byte(`{"status":true,"message":"Payout created","data":{"id":true}}`), &testPayload{}, nil)
	apiErr = requireMalformed(t, err, 200)
	require.Equal(t, "Payout created", apiErr.Message)

	// Status/data problems have nothing to unwrap.
	err = decodeResponse(200, []byte(`{"status":true,"data":null}`), &testPayload{}, nil)
	require.NoError(t, errors.Unwrap(err))
}

func TestDecodeResponseBadOut(t *testing.T) {
	body := []byte(`{"status":true,"data":{"id":1}}`)
	err := decodeResponse(200, body, testPayload{}, nil)
	require.Error(t, err)
	var apiErr *APIError
	require.False(t, errors.As(err, &apiErr), "a caller bug is not an APIError")
	var invalidErr *json.InvalidUnmarshalError
	require.ErrorAs(t, err, &invalidErr)

	err = decodeResponse(200, body, (*json.RawMessage)(nil), nil)
	require.ErrorAs(t, err, &invalidErr)
}

func TestDecodeResponseNon2xx(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		body      string
		want      []error
		malformed bool
		text      string
	}{
		{"html 502", 502, "<html><body>Bad Gateway</body></html>", []error{ErrUnavailable}, true,
			`fiatramp: HTTP 502: response is not JSON: "<html><body>Bad Gateway</body></html>"`},
		{"empty 503", 503, "", []error{ErrUnavailable}, false, "fiatramp: HTTP 503: empty response body"},
		{"empty 401", 401, "", []error{ErrUnauthorized}, false, "fiatramp: HTTP 401: empty response body"},
		{"truncated 400", 400, `{"status":false,"message":"Customer is unverified"`, nil, true,
			`fiatramp: HTTP 400: response is truncated or invalid JSON (unexpected end of JSON input): "{"status":false,"message":"Customer is unverified""`},
		{"array 500", 500, `["Internal Server Error"]`, []error{ErrInternal}, true,
			`fiatramp: HTTP 500: response is a JSON array, not an envelope: "["Internal Server Error"]"`},
		{"status true on 400", 400, `{"status":true,"message":"Quotation has expired","data":{}}`,
			[]error{ErrQuotationExpired}, false, "fiatramp: HTTP 400: Quotation has expired"},
		{"plain text 429", 429, "Too Many Requests", []error{ErrRateLimited}, true,
			`fiatramp: HTTP 429: response is not JSON: "Too Many Requests"`},
		{"redirect", 302, "", nil, false, "fiatramp: HTTP 302: empty response body"},
		{"zero status", 0, `{}`, nil, false, `fiatramp: HTTP 0: "{}"`},
		{"null 404", 404, `null`, []error{ErrNotFound}, true, `fiatramp: HTTP 404: response is a JSON null, not an envelope`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p testPayload
			err := decodeResponse(tt.status, []byte(tt.body), &p, nil)
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, tt.status, apiErr.StatusCode)
			want := tt.want
			if tt.malformed {
				want = append([]error{ErrMalformedResponse}, want...)
			}
			// Only a body that is not valid JSON or not an object has a
			// decoding error to unwrap.
			if tt.malformed && tt.body != "null" {
				require.Error(t, apiErr.Unwrap())
			} else {
				require.NoError(t, apiErr.Unwrap())
			}
			requireSentinels(t, err, want...)
			require.Equal(t, tt.text, err.Error())
			require.Equal(t, testPayload{}, p, "out untouched")
		})
	}
}

func TestDecodeResponseErrorsShapes(t *testing.T) {
	t.Run("string", func(t *testing.T) {
		err := decodeResponse(500, []byte(`{"success":false,"message":"Internal Server Error","errors":"boom","data":null}`), nil, nil)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, "boom", apiErr.ErrorText)
		require.Nil(t, apiErr.FieldErrors)
		requireSentinels(t, err, ErrInternal)
	})
	t.Run("object", func(t *testing.T) {
		err := decodeResponse(400, []byte(`{"status":false,"message":"Invalid","err_code":"REQ_FIELD_MISSING","errors":{"customer_id":["This field is required."],"wallet_address":["This field may not be blank.","Too long."]},"data":null}`), nil, nil)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		require.Empty(t, apiErr.ErrorText)
		require.Equal(t, map[string][]string{
			"customer_id":    {"This field is required."},
			"wallet_address": {"This field may not be blank.", "Too long."},
		}, apiErr.FieldErrors)
		requireSentinels(t, err, ErrFieldMissing)
	})
	t.Run("single string value", func(t *testing.T) {
		err := decodeResponse(400, []byte(`{"status":false,"message":"Bad","errors":{"customer":"Customer not found or access denied."},"data":null}`), nil, nil)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, map[string][]string{"customer": {"Customer not found or access denied."}}, apiErr.FieldErrors)
		requireSentinels(t, err, ErrCustomerNotFound, ErrNotFound)
	})
	t.Run("null", func(t *testing.T) {
		err := decodeResponse(400, []byte(`{"status":false,"message":"Bad","errors":null,"data":null}`), nil, nil)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		require.Nil(t, apiErr.FieldErrors)
		require.Empty(t, apiErr.ErrorText)
		requireSentinels(t, err)
	})
}

func TestDecodeResponseRawBodyCapped(t *testing.T) {
	body := []byte("<html>" + strings.Repeat("x", 100<<10) + "</html>")
	err := decodeResponse(502, body, nil, nil)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	require.Len(t, apiErr.RawBody, 64<<10)
	require.Equal(t, body[:64<<10], apiErr.RawBody)
	body[0] = '!'
	require.Equal(t, byte('<'), apiErr.RawBody[0], "RawBody is a copy")
	require.Less(t, len(err.Error()), 200)

	small := []byte(errBody("EDD required", "", ""))
	err = decodeResponse(400, small, nil, nil)
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, small, apiErr.RawBody)
	require.Equal(t, len(small), cap(apiErr.RawBody), "no oversized buffer kept")

	require.ErrorAs(t, decodeResponse(503, nil, nil, nil), &apiErr)
	require.Nil(t, apiErr.RawBody)
}

// FuzzDecodeResponse decodes any status and body into every kind of out
// the client passes (nil, *json.RawMessage, a map, a plain struct and each
// response type of package types). Seeds: the list below and
// testdata/fuzz/FuzzDecodeResponse. For every input:
//   - the result is nil only for a 2xx status and an envelope whose status
//     (or success, when status is absent or null) is true, with usable data
//     when out wants it; a nil result with out set holds what decoding data
//     directly gives;
//   - any other result is an *APIError (errors.As) with the status, the
//     body (capped at maxRawBody) in RawBody, ErrMalformedResponse exactly
//     when the body could not be understood, the status's sentinel, and out
//     untouched unless the envelope said success;
//   - Error() does not panic, is deterministic and is one short line: valid
//     UTF-8, no control characters, at most maxFuzzErrorLen bytes;
//   - the body is not modified.
func FuzzDecodeResponse(f *testing.F) {
	seeds := []struct {
		status int
		body   string
	}{
		{200, `{"status":true,"message":"ok","data":{"id":1,"name":"a"}}`},
		{200, `{"status":false,"message":"Customer is unverified","err_code":"REQ_FIELD_MISSING","errors":{"a":["b"]},"data":null}`},
		{500, `{"success":false,"message":"Internal Server Error","errors":"x"}`},
		{400, `{"status":false,"errors":{"customer":{"sender":{"id":["This field is required."]}}}}`},
		{400, `{"status":false,"errors":["a",1,null,{"b":[2]}]}`},
		{502, `<html>`},
		{201, ``},
		{204, `null`},
		{-1, `{"status":true}`},
		{200, `{"status":true,"data":{"id":"x"}}`},
		// Names that encoding/json folds together; repeated names.
		{200, `{"status":false,"Status":true,"message":"Quotation has expired","data":{"id":1}}`},
		{200, `{"status":false,"ſtatus":true,"data":{"id":1}}`},
		{200, `{"success":false,"SUCCESS":true,"data":{"id":1}}`},
		{200, `{"Status":true,"data":{"id":1}}`},
		{200, `{"status":true,"data":{"id":1},"DATA":{"id":2},"data":{"id":3}}`},
		{200, `{"status":true,"status":false,"message":"EDD required"}`},
		{400, `{"status":false,"message":"a","message":"Quotation has expired","err_code":"X","err_code":"REQ_FIELD_MISSING","errors":{"f":["a"],"f":["b"]},"errors":"c"}`},
		{400, `{"status":false,"st\u0061tus":true}`},
	}
	for _, s := range seeds {
		f.Add(s.status, []byte(s.body))
	}
	// The hostile bodies of the work bounds: deep, wide, huge, long.
	for _, h := range hostileBodies {
		f.Add(h.status, h.body())
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		orig := bytes.Clone(body)
		env := readFuzzEnvelope(body)
		for _, newOut := range fuzzOuts {
			out := newOut()
			err := decodeResponse(status, body, out, nil)
			checkDecodeResult(t, status, body, env, out, err)
		}
		if !bytes.Equal(orig, body) {
			t.Fatal("body modified")
		}
	})
}

// maxFuzzErrorLen bounds APIError.Error: well above the sum of the limits
// of errors.go (err_code, message, error text, eight field errors and an
// excerpt of the body, each capped).
const maxFuzzErrorLen = 4096

// fuzzOuts make the outs FuzzDecodeResponse decodes into.
var fuzzOuts = []func() any{
	func() any { return nil },
	func() any { return new(json.RawMessage) },
	func() any { return new(map[string]any) },
	func() any { return new(testPayload) },
	func() any { return new(types.Payout) },
	func() any { return new(types.PrefundedPayout) },
	func() any { return new(types.RemittancePayout) },
	func() any { return new(types.PayinQuotation) },
	func() any { return new(types.Wallet) },
	func() any { return new(types.BankAccount) },
	func() any { return new(types.BankAccountPage) },
	func() any { return new(types.KYCConfiguration) },
	func() any { return new(types.PayoutStatusSimulation) },
	func() any { return new(types.KYCStatusSimulation) },
}

// fuzzEnvelope is what the service's Python reader makes of a body (exact
// member names, the last of a repeated one winning), read independently of
// decodeResponse, with encoding/json's token stream.
type fuzzEnvelope struct {
	object  bool            // the body is one JSON object, nested at most jsonscan.MaxDepth deep
	boolean bool            // its status, or success when status is absent or null, is a boolean
	ok      bool            // ... and that boolean is true
	data    json.RawMessage // its data member, nil when absent
}

func readFuzzEnvelope(body []byte) fuzzEnvelope {
	var e fuzzEnvelope
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if !json.Valid(body) || len(trimmed) == 0 || trimmed[0] != '{' || fuzzDepth(body) > jsonscan.MaxDepth {
		return e
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if _, err := dec.Token(); err != nil {
		return e
	}
	var status, success json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return e
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return e
		}
		switch tok.(string) {
		case "status":
			status = v
		case "success":
			success = v
		case "data":
			e.data = v
		}
	}
	e.object = true
	for _, raw := range []json.RawMessage{status, success} {
		switch string(raw) {
		case "", "null":
			continue
		case "true":
			e.boolean, e.ok = true, true
		case "false":
			e.boolean = true
		}
		break
	}
	return e
}

// fuzzDepth returns how deeply the valid JSON text b nests.
func fuzzDepth(b []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// checkDecodeResult checks what decodeResponse(status, body, out) returned.
func checkDecodeResult(t *testing.T, status int, body []byte, env fuzzEnvelope, out any, err error) {
	t.Helper()
	is2xx := status >= 200 && status <= 299
	usableData := len(env.data) > 0 && string(env.data) != "null"
	if err == nil {
		if !is2xx || !env.ok {
			t.Fatalf("status %d, body %q, out %T: nil error", status, body, out)
		}
		switch out := out.(type) {
		case nil:
		case *json.RawMessage:
			if !usableData || string(*out) != string(env.data) {
				t.Fatalf("body %q: raw data %q, want %q", body, *out, env.data)
			}
		default:
			fresh := reflect.New(reflect.TypeOf(out).Elem())
			if !usableData || json.Unmarshal(env.data, fresh.Interface()) != nil ||
				!reflect.DeepEqual(fresh.Interface(), out) {
				t.Fatalf("body %q: decoded %T %+v, decoding data directly gives %+v", body, out, out, fresh.Interface())
			}
		}
		return
	}

	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("status %d, body %q, out %T: not an *APIError: %T %v", status, body, out, err, err)
	}
	if apiErr.StatusCode != status {
		t.Fatalf("StatusCode %d, want %d", apiErr.StatusCode, status)
	}
	if want := body[:min(len(body), maxRawBody)]; !bytes.Equal(apiErr.RawBody, want) || (len(body) == 0) != (apiErr.RawBody == nil) {
		t.Fatalf("RawBody %q, want %q", apiErr.RawBody, want)
	}

	msg := apiErr.Error()
	if again := err.Error(); again != msg {
		t.Fatalf("Error() is not deterministic: %q then %q", msg, again)
	}
	if !strings.HasPrefix(msg, "fiatramp: HTTP "+strconv.Itoa(status)) {
		t.Fatalf("Error() %q does not start with the status", msg)
	}
	if !utf8.ValidString(msg) {
		t.Fatalf("status %d, body %q, out %T: Error() is not UTF-8: %q", status, body, out, msg)
	}
	if i := strings.IndexFunc(msg, unicode.IsControl); i >= 0 {
		t.Fatalf("status %d, body %q, out %T: control character %q in Error() %q", status, body, out, msg[i:i+utf8.RuneLen([]rune(msg[i:])[0])], msg)
	}
	if len(msg) > maxFuzzErrorLen {
		t.Fatalf("status %d, body %q, out %T: Error() is %d bytes: %.200q...", status, body, out, len(msg), msg)
	}
	_ = apiErr.Unwrap()

	// Malformed: a body that is not an envelope at all, a 2xx without a
	// boolean status, or a 2xx success whose data is missing or does not
	// fit out. Not malformed: a refusal the envelope explains, or a non-2xx
	// status with an empty body.
	wantMalformed := (len(body) > 0 && !env.object) || (is2xx && (!env.boolean || env.ok))
	if malformed := errors.Is(err, ErrMalformedResponse); malformed != wantMalformed {
		t.Fatalf("status %d, body %q, out %T: %v matches ErrMalformedResponse: %t, want %t", status, body, out, err, malformed, wantMalformed)
	}
	for code, sentinel := range map[int]error{
		401: ErrUnauthorized, 429: ErrRateLimited, 500: ErrInternal, 502: ErrUnavailable, 503: ErrUnavailable, 504: ErrUnavailable,
	} {
		if status == code && !errors.Is(err, sentinel) {
			t.Fatalf("status %d: %v does not match %v", status, err, sentinel)
		}
	}
	if (!is2xx || !env.ok) && out != nil && !reflect.ValueOf(out).Elem().IsZero() {
		t.Fatalf("status %d, body %q: out changed to %+v", status, body, out)
	}
}

func BenchmarkDecodeResponse(b *testing.B) {
	body := []byte(`{"status":true,"message":"Payout fetched successfully","data":{"id":12345,"name":"` +
		strings.Repeat("n", 200) + `","fees":{"a":1.5,"b":"2"},"items":[1,2,3,4,5]}}`)
	b.ReportAllocs()
	for range b.N {
		var p testPayload
		if err := decodeResponse(200, body, &p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// The envelope is read as the service's Python reader reads it: exact
// member names, the last of a repeated name winning. encoding/json, which
// read it before, matches names case-insensitively with Unicode folding.
func TestEnvelopeKeysMatchExactly(t *testing.T) {
	refusal := `"message":"Quotation has expired","data":{"id":7,"name":"other payout"}`
	tests := []struct {
		name string
		body string
	}{
		{"Status beside status", `{"status":false,"Status":true,` + refusal + `}`},
		{"STATUS beside status", `{"status":false,"STATUS":true,` + refusal + `}`},
		{"long s (U+017F) beside status", `{"status":false,"ſtatus":true,` + refusal + `}`},
		{"Kelvin sign folding", `{"status":false,"status":false,"ſtatuſ":true,` + refusal + `}`},
		{"SUCCESS beside success", `{"success":false,"SUCCESS":true,` + refusal + `}`},
		{"Success beside success", `{"success":false,"Success":true,` + refusal + `}`},
		{"Status before status", `{"Status":true,"status":false,` + refusal + `}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p testPayload
			err := decodeResponse(200, []byte(tt.body), &p, nil)
			requireSentinels(t, err, ErrQuotationExpired)
			require.Zero(t, p, "out untouched by a refusal")
		})
	}

	// A folded name alone is not status: no boolean status, malformed.
	for _, body := range []string{
		`{"Status":true,"data":{"id":1}}`,
		`{"STATUS":true,"data":{"id":1}}`,
		`{"ſtatus":true,"data":{"id":1}}`,
		`{"SUCCESS":true,"data":{"id":1}}`,
	} {
		var p testPayload
		err := decodeResponse(200, []byte(body), &p, nil)
		apiErr := requireMalformed(t, err, 200)
		require.Contains(t, apiErr.Error(), "no boolean status", body)
		require.Zero(t, p)
	}

	// Folded data, message, err_code, errors names are not read.
	var p testPayload
	require.NoError(t, decodeResponse(200, []byte(`{"status":true,"data":{"id":1},"DATA":{"id":2},"Data":{"id":3}}`), &p, nil))
	require.Equal(t, 1, p.ID)
	err := decodeResponse(400, []byte(`{"status":false,"Message":"Quotation has expired","ERR_CODE":"REQ_FIELD_MISSING","Errors":{"x":["Customer is unverified"]}}`), nil, nil)
	apiErr := requireSentinelsAPI(t, err)
	require.Empty(t, apiErr.Message)
	require.Empty(t, apiErr.Code)
	require.Nil(t, apiErr.FieldErrors)

	// An escaped name is its unescaped text, exactly as Python reads it.
	require.NoError(t, decodeResponse(200, []byte(`{"status":false,"st\u0061tus":true,"data":{"id":4}}`), &p, nil))
	require.Equal(t, 4, p.ID)
}

// requireSentinelsAPI checks that err is an *APIError matching no
// sentinel at all.
func requireSentinelsAPI(t *testing.T, err error) *APIError {
	t.Helper()
	requireSentinels(t, err)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	return apiErr
}

func TestEnvelopeDuplicatesLastWins(t *testing.T) {
	t.Run("status", func(t *testing.T) {
		var p testPayload
		err := decodeResponse(201, []byte(`{"status":true,"status":false,"message":"EDD required","data":{"id":1}}`), &p, nil)
		requireSentinels(t, err, ErrEDDRequired)
		require.Zero(t, p)
		require.NoError(t, decodeResponse(201, []byte(`{"status":false,"status":true,"data":{"id":2}}`), &p, nil))
		require.Equal(t, 2, p.ID)
		// A later null status defers to success, as an absent one does.
		require.NoError(t, decodeResponse(201, []byte(`{"status":false,"status":null,"success":true,"data":{"id":3}}`), &p, nil))
		require.Equal(t, 3, p.ID)
	})
	t.Run("success", func(t *testing.T) {
		var p testPayload
		err := decodeResponse(200, []byte(`{"success":true,"success":false,"message":"EDD required","data":{"id":1}}`), &p, nil)
		requireSentinels(t, err, ErrEDDRequired)
		require.Zero(t, p)
		require.NoError(t, decodeResponse(200, []byte(`{"success":false,"success":true,"data":{"id":2}}`), &p, nil))
		require.Equal(t, 2, p.ID)
	})
	t.Run("data", func(t *testing.T) {
		var p testPayload
		require.NoError(t, decodeResponse(200, []byte(`{"status":true,"data":{"id":1,"name":"first"},"data":{"id":2}}`), &p, nil))
		require.Equal(t, testPayload{ID: 2}, p)
		var raw json.RawMessage
		require.NoError(t, decodeResponse(200, []byte(`{"status":true,"data":{"id":1},"data":{"id":2}}`), &raw, nil))
		require.Equal(t, `{"id":2}`, string(raw))
		// A later null data is no data.
		err := decodeResponse(200, []byte(`{"status":true,"data":{"id":1},"data":null}`), &p, nil)
		requireMalformed(t, err, 200)
	})
	t.Run("message", func(t *testing.T) {
		err := decodeResponse(400, []byte(`{"status":false,"message":"Quotation has expired","message":"Customer is unverified"}`), nil, nil)
		requireSentinels(t, err, ErrCustomerUnverified)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, "Customer is unverified", apiErr.Message)
	})
	t.Run("err_code", func(t *testing.T) {
		err := decodeResponse(401, []byte(`{"status":false,"err_code":"AUTH_TIMESTAMP_EXPIRED","err_code":"REQ_FIELD_MISSING"}`), nil, nil)
		requireSentinels(t, err, ErrUnauthorized, ErrFieldMissing)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, "REQ_FIELD_MISSING", apiErr.Code)
	})
	t.Run("errors", func(t *testing.T) {
		err := decodeResponse(400, []byte(`{"status":false,"errors":{"quotation_id":["Quotation has expired"]},"errors":"Customer is unverified"}`), nil, nil)
		requireSentinels(t, err, ErrCustomerUnverified)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, "Customer is unverified", apiErr.ErrorText)
		require.Nil(t, apiErr.FieldErrors)
	})
	t.Run("errors field", func(t *testing.T) {
		err := decodeResponse(400, []byte(`{"status":false,"errors":{"quotation_id":["Quotation has expired"],"b":[],"quotation_id":["Customer is unverified"]}}`), nil, nil)
		requireSentinels(t, err, ErrCustomerUnverified)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, map[string][]string{"quotation_id": {"Customer is unverified"}, "b": {}}, apiErr.FieldErrors)
		// Field names are kept exactly, not folded together.
		err = decodeResponse(400, []byte(`{"status":false,"errors":{"customer_id":["a"],"Customer_ID":["b"]}}`), nil, nil)
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, map[string][]string{"customer_id": {"a"}, "Customer_ID": {"b"}}, apiErr.FieldErrors)
	})
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileBodiesBoundedWork decodes one hostile body of each class and
// checks the verdict and that the memory allocated stays within a small
// multiple of the body (the copies at every level of nesting cost 10 to
// 80,000 times the body before). BenchmarkHostileResponse measures time.
func TestHostileBodiesBoundedWork(t *testing.T) {
	deep64 := func(n int, inner string) string {
		return strings.Repeat("[", n) + inner + strings.Repeat("]", n)
	}
	bigString := strings.Repeat("a", 3_000_000)
	tests := []struct {
		name    string
		status  int
		body    []byte
		out     func() any
		check   func(t *testing.T, err error)
		maxMult uint64 // allocated bytes at most maxMult*len(body) + 1 MiB
	}{
		{"deep array errors (10,000 levels)", 400, hostileDeepErrors(), nil, func(t *testing.T, err error) {
			apiErr := requireMalformed(t, err, 400)
			require.Contains(t, apiErr.Error(), "nested deeper than 64 levels")
		}, 1},
		{"deep object errors (6,000 levels)", 400, hostileDeepObjectErrors(), nil, func(t *testing.T, err error) {
			requireMalformed(t, err, 400)
		}, 1},
		{"deep data in a success (6,000 levels)", 200, []byte(`{"status":true,"data":{"id":1,"x":` + deep64(6000, "1") + `}}`),
			func() any { return new(testPayload) }, func(t *testing.T, err error) {
				requireMalformed(t, err, 200)
			}, 1},
		{"4 MB string in 40 arrays", 400, hostileWrappedString(), nil, func(t *testing.T, err error) {
			apiErr := requireSentinelsAPI(t, err)
			require.Len(t, apiErr.FieldErrors["f"], 1)
			// The one item: the string in 39 arrays, as JSON text.
			require.Equal(t, 4_000_000+2+2*39, len(apiErr.FieldErrors["f"][0]))
		}, 4},
		{"a string at every one of 64 levels", 400, []byte(`{"status":false,"errors":{"f":` +
			strings.Repeat(`["`+bigString[:60_000]+`",`, 61) + `["Quotation has expired"]` + strings.Repeat("]", 61) + `}}`), nil,
			func(t *testing.T, err error) {
				requireSentinels(t, err, ErrQuotationExpired)
			}, 6},
		{"wide errors (500,000 messages)", 400, hostileWideErrors(), nil, func(t *testing.T, err error) {
			apiErr := requireSentinelsAPI(t, err)
			require.Len(t, apiErr.FieldErrors, maxFields)
			n := 0
			for _, msgs := range apiErr.FieldErrors {
				n += len(msgs)
			}
			require.Equal(t, maxMessages, n)
			// Omitted: the messages of the kept fields past the cap,
			// and each field past the cap.
			omitted := maxFields*500 - maxMessages + (1000 - maxFields)
			require.Equal(t, omitted, apiErr.omitted)
			// Error lists eight: the first field holds all 256 messages
			// kept, and the other 63 fields none, each counting as one.
			require.Contains(t, apiErr.Error(), "and "+strconv.Itoa(maxMessages+maxFields-1-maxDetailFields+omitted)+" more")
		}, 1},
		{"wide errors array (1,000,000 strings)", 400, []byte(`{"status":false,"errors":[` + strings.Repeat(`"m",`, 999_999) + `"Quotation has expired"]}`), nil,
			func(t *testing.T, err error) {
				apiErr := requireSentinelsAPI(t, err) // the message past maxMatched is not matched
				require.Len(t, apiErr.FieldErrors["non_field_errors"], maxMessages)
			}, 1},
		{"wide nesting (10,000 values 60 deep)", 400, hostileWideNesting(), nil, func(t *testing.T, err error) {
			apiErr := requireSentinelsAPI(t, err)
			require.Len(t, apiErr.FieldErrors["non_field_errors"], maxMessages)
			require.Equal(t, 10000-maxMessages, apiErr.omitted)
		}, 1},
		{"long decimal (1.5 million digits)", 200, hostileLongDecimal(), func() any { return new(types.Payout) },
			func(t *testing.T, err error) {
				apiErr := requireMalformed(t, err, 200)
				require.Contains(t, apiErr.Error(), "decimal of more than 1000 digits")
			}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			var out any
			if tt.out != nil {
				out = tt.out()
			}
			n := allocated(func() { err = decodeResponse(tt.status, tt.body, out, nil) })
			tt.check(t, err)
			limit := tt.maxMult*uint64(len(tt.body)) + 1<<20
			require.LessOrEqual(t, n, limit, "allocated %d bytes for a body of %d", n, len(tt.body))
			// Error() stays one short line whatever the body.
			require.LessOrEqual(t, len(err.Error()), maxFuzzErrorLen)
		})
	}
}

// TestEnvelopeDepthCap: a body nested exactly as deep as the cap is read;
// one level more is malformed, wherever it is.
func TestEnvelopeDepthCap(t *testing.T) {
	at := func(n int) string { return strings.Repeat("[", n) + `"Quotation has expired"` + strings.Repeat("]", n) }
	// The envelope object is the first level.
	err := decodeResponse(400, []byte(`{"status":false,"errors":`+at(jsonscan.MaxDepth-1)+`}`), nil, nil)
	requireSentinels(t, err, ErrQuotationExpired)
	for _, member := range []string{"errors", "message", "data", "unknown"} {
		err = decodeResponse(400, []byte(`{"status":false,"`+member+`":`+at(jsonscan.MaxDepth)+`}`), nil, nil)
		apiErr := requireMalformed(t, err, 400)
		require.ErrorIs(t, apiErr, jsonscan.ErrTooDeep)
	}
}

// Hostile bodies under the default size cap, one per attack class on the
// work of decoding a response. They serve the table tests, the fuzz seeds
// and BenchmarkHostileResponse.

// hostileDeepErrors nests `errors` about 10,000 arrays deep in 19 KiB.
func hostileDeepErrors() []byte {
	const depth = 9800
	return []byte(`{"status":false,"message":"Quotation has expired","errors":` +
		strings.Repeat("[", depth) + `"x"` + strings.Repeat("]", depth) + `,"data":null}`)
}

// hostileDeepObjectErrors nests `errors` 6,000 objects deep.
func hostileDeepObjectErrors() []byte {
	const depth = 6000
	return []byte(`{"status":false,"message":"Quotation has expired","errors":` +
		strings.Repeat(`{"a":`, depth) + `"x"` + strings.Repeat("}", depth) + `,"data":null}`)
}

// hostileWrappedString wraps a 4 MB string in 40 arrays inside `errors`.
func hostileWrappedString() []byte {
	const depth = 40
	return []byte(`{"status":false,"errors":{"f":` + strings.Repeat("[", depth) +
		`"` + strings.Repeat("a", 4_000_000) + `"` + strings.Repeat("]", depth) + `}}`)
}

// hostileWideErrors fills `errors` with 500,000 one-letter messages under
// 1,000 fields.
func hostileWideErrors() []byte {
	var b strings.Builder
	b.WriteString(`{"status":false,"errors":{`)
	for f := 0; f < 1000; f++ {
		if f > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"field_` + strconv.Itoa(f) + `":[`)
		b.WriteString(strings.Repeat(`"m",`, 499))
		b.WriteString(`"m"]`)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// hostileWideNesting holds 10,000 values each nested 60 levels deep in an
// `errors` array: no value too deep, the whole wide.
func hostileWideNesting() []byte {
	item := strings.Repeat("[", 60) + `"x"` + strings.Repeat("]", 60)
	return []byte(`{"status":false,"errors":[` + strings.Repeat(item+",", 9999) + item + `]}`)
}

// hostileLongDecimal is a successful payout whose sending_amount has
// 1.5 million digits.
func hostileLongDecimal() []byte {
	return []byte(`{"status":true,"message":"ok","data":{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34",` +
		`"sending_amount":"` + strings.Repeat("9", 1_500_000) + `","rate":"1","status":"PROCESSING"}}`)
}

// hostileBody is one hostile response: its status and body, and a fresh
// out for decodeResponse.
type hostileBody struct {
	name   string
	status int
	body   func() []byte
	out    func() any
}

var hostileBodies = []hostileBody{
	{"deep-array-errors", 400, hostileDeepErrors, func() any { return nil }},
	{"deep-object-errors", 400, hostileDeepObjectErrors, func() any { return nil }},
	{"wrapped-4MB-string", 400, hostileWrappedString, func() any { return nil }},
	{"wide-errors", 400, hostileWideErrors, func() any { return nil }},
	{"wide-nesting", 400, hostileWideNesting, func() any { return nil }},
	{"long-decimal", 200, hostileLongDecimal, func() any { return new(types.Payout) }},
}

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHostileResponse decodes one hostile response of each kind:
// B/op is the memory allocated, ns/op the wall time and cpu-ns/op the CPU
// time of the whole process (garbage collection included).
func BenchmarkHostileResponse(b *testing.B) {
	for _, h := range hostileBodies {
		body := h.body()
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			start := cpuTime()
			for range b.N {
				_ = decodeResponse(h.status, body, h.out(), nil)
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// TestResultsOwnTheirBytes: calls in parallel get answers of
// different sizes (up to 64 KiB); each
// result, its Raw and the captured body must still hold its own answer
// after every other call has finished, so no response buffer may be shared
// between calls or reused after one returns.
func TestResultsOwnTheirBytes(t *testing.T) {
	answer := func(id uuid.UUID) string {
		note := strings.Repeat(id.String()[:4], int(id[0])<<6)
		return `{"status":true,"data":{"id":"` + id.String() + `","note":"` + note + `","status":"PROCESSING","sending_amount":"1.` +
			strings.Repeat("0", int(id[1])) + `5","created_at":"2025-03-08T07:31:24Z"}}`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := uuid.Parse(r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:])
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		_, _ = io.WriteString(w, answer(id))
	}))
	defer srv.Close()
	c, err := New("key", "secret", WithBaseURL(srv.URL))
	require.NoError(t, err)
	type result struct {
		id   uuid.UUID
		p    *types.Payout
		resp Response
	}
	const workers, calls = 8, 24
	results := make([][]result, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				id := uuid.New()
				var r result
				r.id = id
				var err error
				r.p, err = c.Payouts.Get(context.Background(), id, CaptureResponse(&r.resp))
				if err != nil {
					panic(err)
				}
				results[w] = append(results[w], r)
			}
		}()
	}
	wg.Wait()
	for _, rs := range results {
		for _, r := range rs {
			want := answer(r.id)
			require.Equal(t, r.id, r.p.ID)
			require.Equal(t, want, string(r.resp.Body))
			require.JSONEq(t, want[strings.Index(want, `"data":`)+7:len(want)-1], string(r.p.Raw))
			require.Equal(t, "1."+strings.Repeat("0", int(r.id[1]))+"5", r.p.SendingAmount.String())
		}
	}
}
