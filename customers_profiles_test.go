package fiatramp_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// refusedBeforeSending asserts err is a *ValidationError naming field and
// that nothing was sent.
func refusedBeforeSending(t *testing.T, h *harness, err error, field string) {
	t.Helper()
	var v *fiatramp.ValidationError
	require.ErrorAs(t, err, &v)
	assert.True(t, errors.Is(err, fiatramp.ErrInvalidRequest))
	assert.Equal(t, field, v.Field, "%v", err)
	assert.Zero(t, h.mock.GetTotalCallCount(), "nothing sent")
}

func TestCustomersCreateRefusesBadInput(t *testing.T) {
	good := types.CreateCustomerRequest{FullName: "Asha Rao", Email: "asha@example.com", Phone: "+919800000001", Alpha3CountryCode: "IND"}
	for name, tc := range map[string]struct {
		mod   func(*types.CreateCustomerRequest)
		field string
	}{
		"empty name":            {func(r *types.CreateCustomerRequest) { r.FullName = " " }, "full_name"},
		"email without @":       {func(r *types.CreateCustomerRequest) { r.Email = "asha.example.com" }, "email"},
		"email with nothing at": {func(r *types.CreateCustomerRequest) { r.Email = "asha@" }, "email"},
		"email with a blank":    {func(r *types.CreateCustomerRequest) { r.Email = "asha rao@example.com" }, "email"},
		"empty phone":           {func(r *types.CreateCustomerRequest) { r.Phone = "" }, "phone"},
		"two-letter country":    {func(r *types.CreateCustomerRequest) { r.Alpha3CountryCode = "IN" }, "alpha_3_country_code"},
		"digit in country":      {func(r *types.CreateCustomerRequest) { r.Alpha3CountryCode = "IN1" }, "alpha_3_country_code"},
		"no country":            {func(r *types.CreateCustomerRequest) { r.Alpha3CountryCode = "" }, "alpha_3_country_code"},
		"bad residence country": {func(r *types.CreateCustomerRequest) { r.ResidenceAlpha3CountryCode = "INDIA" }, "residence_alpha_3_country_code"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			req := good
			tc.mod(&req)
			_, err := h.client.Customers.Create(context.Background(), req)
			refusedBeforeSending(t, h, err, tc.field)
		})
	}
	h := newHarness(t)
	_, err := h.client.Customers.Get(context.Background(), [16]byte{})
	refusedBeforeSending(t, h, err, "customer_id")
}

// TestCustomersListFilter: no query unless a filter is given; the filter's
// dates go under the default names or the caller's; a bad date is refused
// before sending.
func TestCustomersListFilter(t *testing.T) {
	for name, tc := range map[string]struct {
		filter types.CustomerListFilter
		query  string
	}{
		"none":      {types.CustomerListFilter{}, ""},
		"both":      {types.CustomerListFilter{From: "01-02-2026", To: "28-02-2026"}, "end_date=28-02-2026&start_date=01-02-2026"},
		"from only": {types.CustomerListFilter{From: "01-02-2026"}, "start_date=01-02-2026"},
		"own names": {types.CustomerListFilter{To: "28-02-2026", FromParam: "from", ToParam: "to"}, "to=28-02-2026"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			var got string
			h.mock.RegisterResponder(http.MethodGet, `=~^`+testBase+`/cms/api/v1/customer/list`, func(req *http.Request) (*http.Response, error) {
				got = req.URL.RawQuery
				return httpmock.NewStringResponse(200, ok(`{"count":0,"next":null,"previous":null,"results":[]}`)), nil
			})
			_, err := h.client.Customers.List(context.Background(), tc.filter)
			require.NoError(t, err)
			assert.Equal(t, tc.query, got)
		})
	}
	for _, bad := range []types.CustomerListFilter{{From: "2026-02-01"}, {To: "31-02-2026"}, {From: "01-02-2026", FromParam: "d", ToParam: "d"}} {
		h := newHarness(t)
		_, err := h.client.Customers.List(context.Background(), bad)
		require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		for _, err := range h.client.Customers.All(context.Background(), bad) {
			require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		}
		assert.Zero(t, h.mock.GetTotalCallCount())
	}
}

// floorCustomer and floorKYCResult are what the floor decodes.
type floorCustomer struct {
	ID                         uuid.UUID `json:"id"`
	ClientReferenceID          *string   `json:"client_reference_id"`
	FullName                   string    `json:"full_name"`
	Email                      string    `json:"email"`
	Phone                      string    `json:"phone"`
	Country                    string    `json:"country"`
	Type                       string    `json:"type"`
	Status                     string    `json:"status"`
	FailureReason              *string   `json:"failure_reason"`
	DocumentType               *string   `json:"document_type"`
	NonResidenceStatus         bool      `json:"non_residence_status"`
	ResidenceAlpha3CountryCode *string   `json:"residence_alpha_3_country_code"`
}

type floorKYCResult struct {
	ID            uuid.UUID `json:"id"`
	Status        string    `json:"status"`
	FailureReason *string   `json:"failure_reason"`
}

// customerAnswer is a fetched customer, as the service sends it.
var customerAnswer = []byte(ok(`{"id":"` + customerID.String() + `","client_reference_id":"crm-1","full_name":"Asha Rao","email":"asha@example.com","phone":"+919800000001","country":"IND","type":"INDIVIDUAL","status":"VERIFIED","failure_reason":null,"document_type":"PASSPORT","non_residence_status":false,"residence_alpha_3_country_code":null}`))

// BenchmarkCustomersVsFloor compares the memory and time of the customer
// calls with the hand-written floor, in memory (no network):
//
//	go test -run '^$' -bench 'CustomersVsFloor|KYCVsFloor' -benchtime 4000x .
func BenchmarkCustomersVsFloor(b *testing.B) {
	ctx := context.Background()
	base := "http://127.0.0.1:1"
	req := types.CreateCustomerRequest{FullName: "Asha Rao", Email: "asha@example.com", Phone: "+919800000001", Alpha3CountryCode: "IND", ClientReferenceID: "crm-1"}
	hc := &http.Client{Transport: memoryTransport{customerAnswer}}
	c := benchClient(b, base, hc)
	b.Run("Create", func(b *testing.B) {
		compareWithFloor(b, 1, func() error {
			_, err := c.Customers.Create(ctx, req)
			return err
		}, func() error {
			return floorSend(ctx, hc, http.MethodPost, base+"/cms/api/v1/customer/create", map[string]any{
				"full_name": req.FullName, "email": req.Email, "phone": req.Phone, "alpha_3_country_code": req.Alpha3CountryCode,
				"client_reference_id": req.ClientReferenceID, "non_residence_status": false,
			}, new(floorCustomer))
		})
	})
	b.Run("Get", func(b *testing.B) {
		compareWithFloor(b, 1, func() error {
			_, err := c.Customers.Get(ctx, customerID)
			return err
		}, func() error {
			return floorSend(ctx, hc, http.MethodGet, base+"/cms/api/v1/customer/"+customerID.String(), nil, new(floorCustomer))
		})
	})
	page := []byte(ok(`{"count":2,"next":null,"previous":null,"results":[` + string(customerAnswer[strings.Index(string(customerAnswer), `"data":`)+7:len(customerAnswer)-1]) + `,` +
		string(customerAnswer[strings.Index(string(customerAnswer), `"data":`)+7:len(customerAnswer)-1]) + `]}`))
	hcPage := &http.Client{Transport: memoryTransport{page}}
	cPage := benchClient(b, base, hcPage)
	b.Run("List", func(b *testing.B) {
		compareWithFloor(b, 1, func() error {
			_, err := cPage.Customers.List(ctx, types.CustomerListFilter{})
			return err
		}, func() error {
			var p struct {
				Count    int             `json:"count"`
				Next     *string         `json:"next"`
				Previous *string         `json:"previous"`
				Results  []floorCustomer `json:"results"`
			}
			return floorSend(ctx, hcPage, http.MethodGet, base+"/cms/api/v1/customer/list", nil, &p)
		})
	})
}
