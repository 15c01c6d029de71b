package fiatramp_test

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// fmtVerbs is every verb and flag combination a careless caller might use:
// fmt prints a value it has no method for by walking its fields, and a verb
// that does not fit a field's kind (%s on a pointer, %d on a string) takes
// fmt's bad-verb path, which prints that field raw, unexported or not.
var fmtVerbs = []string{
	"%v", "%+v", "%#v", "%s", "%q", "%+q", "%#q", "%x", "%X", "% x", "%#x", "% X",
	"%d", "%+d", "%o", "%O", "%b", "%c", "%U", "%#U", "%e", "%E", "%f", "%F", "%g", "%G",
	"%t", "%p", "%#p", "%T", "%w", "%z", "%10.3s", "%-80v", "%.100s", "%08x", "%#+v",
}

// secretForms are the renderings of the key material that would betray it:
// as text, as hex (what %x and %X make of a string), as the decimal and
// base64 forms of its bytes, and any 10-character window of the secret, so
// that a cut or padded rendering is caught too.
func secretForms() map[string]string {
	forms := map[string]string{}
	for name, s := range map[string]string{"secret": testSecret, "API key": testKey} {
		forms[name] = s
		forms[name+" as hex"] = hex.EncodeToString([]byte(s))
		forms[name+" as HEX"] = strings.ToUpper(hex.EncodeToString([]byte(s)))
		forms[name+" as spaced hex"] = fmt.Sprintf("% x", s)
		forms[name+" as bytes"] = strings.Trim(fmt.Sprint([]byte(s)), "[]")
		b64, _ := json.Marshal([]byte(s))
		forms[name+" as base64"] = strings.Trim(string(b64), `"`)
	}
	for i := 0; i+10 <= len(testSecret); i++ {
		forms["secret window "+strconv.Itoa(i)] = testSecret[i : i+10]
	}
	return forms
}

// Wrappers a caller's own code puts a library value in.
type (
	embedsClient     struct{ fiatramp.Client }
	embedsClientPtr  struct{ *fiatramp.Client }
	embedsService    struct{ *fiatramp.PayoutsService }
	hidesClient      struct{ c fiatramp.Client }
	hidesClientPtr   struct{ c *fiatramp.Client }
	pipelineDeps     struct{ Client *fiatramp.Client }
	hidesAll         struct{ deps []map[string]any }
	hidesServiceBare struct{ p fiatramp.PayoutsService }
)

// wrapped puts v where user code keeps it: behind a pointer, in exported
// and unexported fields (direct, through an interface and nested), in
// slices, arrays and maps, and as a reflect.Value.
func wrapped[T any](v T) map[string]any {
	return map[string]any{
		"direct":                  v,
		"pointer":                 &v,
		"exported field":          struct{ F T }{v},
		"unexported field":        struct{ f T }{v},
		"pointer to unexported":   &struct{ f T }{v},
		"unexported interface":    struct{ f any }{v},
		"unexported pointer":      struct{ f *T }{&v},
		"slice":                   []T{v},
		"unexported slice":        struct{ f []T }{[]T{v}},
		"array":                   [1]T{v},
		"map value":               map[string]T{"k": v},
		"unexported map":          struct{ f map[string]T }{map[string]T{"k": v}},
		"nested unexported":       struct{ a struct{ b []map[string]*T } }{struct{ b []map[string]*T }{[]map[string]*T{{"k": &v}}}},
		"reflect.Value":           reflect.ValueOf(v),
		"reflect.Value of fields": reflect.ValueOf(struct{ f T }{v}).Field(0),
	}
}

// TestSecretUnprintable formats every exported value that can reach the
// key material (the Client, its services, the options, the errors and
// responses of calls), alone and inside every kind of user value, with
// every fmt verb, through log/slog's text and JSON handlers, encoding/json,
// encoding/gob and testify's diff (go-spew, which walks unexported fields
// and follows pointers), and fails if any output carries the API secret or
// the whole API key in any form.
func TestSecretUnprintable(t *testing.T) {
	h := newHarness(t,
		fiatramp.WithErrorMessage("Balance too low", fiatramp.ErrInsufficientBalance),
		fiatramp.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
		fiatramp.WithClientReferenceGenerator(func() (string, error) { return "ref-1", nil }))
	c := h.client
	h.mock.RegisterResponder(http.MethodPost, testBase+"/pos/api/v1/payout/initiate",
		httpmock.NewStringResponder(500, fail("Internal Server Error", "SYS_INTERNAL_ERROR", "null")))
	h.mock.RegisterNoResponder(func(*http.Request) (*http.Response, error) { return nil, errors.New("no route") })

	var resp fiatramp.Response
	_, outcomeErr := c.Payouts.Create(context.Background(),
		types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID}, fiatramp.CaptureResponse(&resp))
	require.ErrorIs(t, outcomeErr, fiatramp.ErrOutcomeUnknown)
	_, apiErr := c.Payouts.Get(context.Background(), payoutID)
	require.Error(t, apiErr)
	validationErr := c.Do(context.Background(), "get", "/x", nil, nil)
	require.ErrorIs(t, validationErr, fiatramp.ErrInvalidRequest)

	values := map[string]map[string]any{
		"*Client":                  wrapped(c),
		"Client":                   wrapped(*c),
		"*PayoutsService":          wrapped(c.Payouts),
		"*PayinsService":           wrapped(c.Payins),
		"*CustomersService":        wrapped(c.Customers),
		"*KYCService":              wrapped(c.KYC),
		"PayoutsService":           wrapped(*c.Payouts),
		"PayinsService":            wrapped(*c.Payins),
		"CustomersService":         wrapped(*c.Customers),
		"KYCService":               wrapped(*c.KYC),
		"PayoutsAPI":               wrapped[fiatramp.PayoutsAPI](c.Payouts),
		"CustomersAPI":             wrapped[fiatramp.CustomersAPI](c.Customers),
		"Option":                   wrapped(fiatramp.WithBaseURL(testBase)),
		"RequestOption":            wrapped(fiatramp.WithHeader("X-Trace", "1")),
		"CaptureResponse":          wrapped(fiatramp.CaptureResponse(&resp)),
		"Response":                 wrapped(resp),
		"OutcomeUnknownError":      wrapped(outcomeErr),
		"APIError":                 wrapped(apiErr),
		"ValidationError":          wrapped(validationErr),
		"BankAccounts iterator":    wrapped(c.Customers.BankAccounts(context.Background(), customerID)),
		"method value Payouts.Get": wrapped(c.Payouts.Get),
		"user structs": {
			"embedded Client":          embedsClient{*c},
			"embedded *Client":         embedsClientPtr{c},
			"embedded *PayoutsService": embedsService{c.Payouts},
			"unexported Client":        hidesClient{*c},
			"unexported *Client":       hidesClientPtr{c},
			"exported *Client":         pipelineDeps{c},
			"unexported service value": hidesServiceBare{*c.Payouts},
			"deep":                     hidesAll{[]map[string]any{{"c": hidesClient{*c}, "p": c.Payouts}}},
			"map keyed by *Client":     map[*fiatramp.Client]string{c: "x"},
		},
	}

	forms := secretForms()
	check := func(t *testing.T, how, out string) {
		t.Helper()
		for what, form := range forms {
			if strings.Contains(out, form) {
				t.Errorf("%s shows the %s: %.300s", how, what, out)
				return
			}
		}
	}
	for typ, wraps := range values {
		t.Run(typ, func(t *testing.T) {
			for shape, v := range wraps {
				for _, verb := range fmtVerbs {
					check(t, shape+" "+verb, fmt.Sprintf(verb, v))
				}
				check(t, shape+" Sprint", fmt.Sprint(v)+fmt.Sprintln(v))

				var text, js bytes.Buffer
				opts := &slog.HandlerOptions{Level: slog.LevelDebug}
				slog.New(slog.NewTextHandler(&text, opts)).Info("m", "v", v, slog.Any("any", v), slog.Group("g", "v", v))
				slog.New(slog.NewJSONHandler(&js, opts)).Info("m", "v", v, slog.Any("any", v), slog.Group("g", "v", v))
				check(t, shape+" slog text", text.String())
				check(t, shape+" slog JSON", js.String())

				b, err := json.Marshal(v)
				check(t, shape+" encoding/json", string(b)+fmt.Sprint(err))
				ib, err := json.MarshalIndent(v, "", " ")
				check(t, shape+" encoding/json indent", string(ib)+fmt.Sprint(err))

				var g bytes.Buffer
				func() {
					defer func() { check(t, shape+" gob panic", fmt.Sprint(recover())) }()
					err = gob.NewEncoder(&g).Encode(v)
				}()
				check(t, shape+" encoding/gob", g.String()+fmt.Sprint(err))

				// testify prints both sides of a failed comparison with
				// go-spew, which walks unexported fields and pointers.
				rec := &recordingT{}
				assert.Equal(rec, v, struct{}{})
				check(t, shape+" testify diff", rec.out.String())
			}
		})
	}

	t.Run("control: the checks see a leak", func(t *testing.T) {
		type leaky struct{ cfg struct{ apiSecret string } }
		var l leaky
		l.cfg.apiSecret = testSecret
		for _, verb := range []string{"%+v", "%x", "%d"} {
			out := fmt.Sprintf(verb, l)
			found := false
			for _, form := range forms {
				found = found || strings.Contains(out, form)
			}
			assert.True(t, found, "%s of a struct holding the secret is caught: %s", verb, out)
		}
	})

	t.Run("the Client says what it is, without the secret", func(t *testing.T) {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
			out := fmt.Sprintf(verb, c)
			assert.Contains(t, out, "apiSecret: [redacted]", verb)
			assert.Contains(t, out, "****7Hq2", verb)
		}
	})
}

// recordingT collects what a testify assertion reports.
type recordingT struct{ out strings.Builder }

func (r *recordingT) Errorf(format string, args ...any) { fmt.Fprintf(&r.out, format, args...) }
