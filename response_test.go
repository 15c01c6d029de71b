package fiatramp

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

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
		{"null 404", 404, `null`, nil, true, `fiatramp: HTTP 404: response is a JSON null, not an envelope`},
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
		requireSentinels(t, err, ErrCustomerNotFound)
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
