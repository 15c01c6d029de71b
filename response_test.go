package fiatramp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
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
	}
	for _, s := range seeds {
		f.Add(s.status, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		orig := bytes.Clone(body)
		for _, out := range []func() any{
			func() any { return nil },
			func() any { return new(testPayload) },
			func() any { return new(json.RawMessage) },
			func() any { return new(map[string]any) },
		} {
			err := decodeResponse(status, body, out(), nil)
			if status < 200 || status > 299 {
				if err == nil {
					t.Fatalf("status %d: nil error", status)
				}
			}
			if err == nil {
				continue
			}
			var apiErr *APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("not an APIError: %T %v", err, err)
			}
			if apiErr.StatusCode != status || len(apiErr.RawBody) > maxRawBody {
				t.Fatalf("bad APIError: %d %d", apiErr.StatusCode, len(apiErr.RawBody))
			}
			msg := apiErr.Error()
			if strings.ContainsAny(msg, "\n\r\x00") {
				t.Fatalf("control character in %q", msg)
			}
			_ = errors.Is(err, ErrMalformedResponse)
		}
		if !bytes.Equal(orig, body) {
			t.Fatal("body modified")
		}
	})
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
