package fiatramp

import (
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
	"github.com/fiatramp/fiatramp-go/types"
)

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
