package sandbox_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// custNotFound is the refusal of a customer that is absent or another
// organization's.
const custNotFound = "Customer not found or access denied"

// TestCustomersFoundOnlyInTheirOrganization: every operation that names a
// customer, in its body or its path, refuses an absent customer, another
// organization's and (in a path) a malformed id alike, with 400 "Customer
// not found or access denied" and no err_code, and serves the
// organization's own customer; so an operation cannot tell another
// organization's customers from ids that do not exist.
func TestCustomersFoundOnlyInTheirOrganization(t *testing.T) {
	e := newEnv(t)
	foreign := e.customer(e.otherOrg(false), sandbox.Customer{Name: "Foreign"})
	ops := []struct {
		name string
		req  func(id string) authReq
		ok   int // the answer for the organization's own customer
	}{
		{"add wallet", func(id string) authReq {
			return authWallet(fmt.Sprintf(`{"customer_id":%q,"wallet_address":"TCust-%s"}`, id, id))
		}, http.StatusOK},
		{"simulate KYC status", func(id string) authReq {
			return authReq{method: http.MethodPatch, path: "/cms/api/v1/kyc/mock-kyc-status",
				body: []byte(fmt.Sprintf(`{"customer_id":%q,"kyc_status":"UNVERIFIED"}`, id))}
		}, http.StatusOK},
		{"KYC configuration", func(id string) authReq {
			return authReq{method: http.MethodGet, path: "/cms/api/v1/kyc/configuration/" + id}
		}, http.StatusOK},
		{"bank list", func(id string) authReq {
			return authReq{method: http.MethodGet, path: "/cms/api/v1/bank/list/" + id}
		}, http.StatusOK},
		{"bank account", func(id string) authReq {
			return authReq{method: http.MethodGet, path: "/cms/api/v1/bank/" + id + "/" + e.bank.ID.String()}
		}, http.StatusOK},
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			ids := map[string]string{"absent": uuid.NewString(), "other organization's": foreign.ID.String()}
			if op.req("x").body == nil { // the id is in the path
				ids["malformed"] = "not-a-uuid"
				ids["upper case"] = "X" + uuid.NewString()[1:]
			}
			for what, id := range ids {
				r := authSend(t, e, op.req(id))
				assert.Equal(t, http.StatusBadRequest, r.status, "%s: %s", what, r.raw)
				assert.Equal(t, custNotFound, r.body.Message, what)
				assert.Empty(t, r.body.ErrCode, what)
			}
			r := authSend(t, e, op.req(e.cust.ID.String()))
			assert.Equal(t, op.ok, r.status, "own customer: %s", r.raw)
		})
	}
}

// newPerson is a valid customer create, unique by n.
func newPerson(n int) types.CreateCustomerRequest {
	return types.CreateCustomerRequest{
		FullName: "Person " + strconv.Itoa(n), Email: fmt.Sprintf("p%d@example.com", n),
		Phone: fmt.Sprintf("+9198%08d", n), Alpha3CountryCode: "IND",
	}
}

func TestCustomersCreateAndGet(t *testing.T) {
	e := newEnv(t)
	req := newPerson(1)
	req.ClientReferenceID = "crm-1"
	var resp fiatramp.Response
	c, err := e.client.Customers.Create(ctx(t), req, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "only the initiates answer 201")
	assert.Equal(t, types.KYCUnverified, c.Status)
	assert.Equal(t, "Person 1", c.FullName)
	assert.Equal(t, "INDIVIDUAL", c.Type)
	assert.Equal(t, "IND", c.Country)
	require.NotNil(t, c.ClientReferenceID)
	assert.Equal(t, "crm-1", *c.ClientReferenceID)
	assert.Equal(t, []string{"client_reference_id", "country", "document_type", "email", "failure_reason", "full_name", "id", "phone", "status", "type"},
		keys(rawData(t, resp.Body)), "create answers the documented members")

	got, err := e.client.Customers.Get(ctx(t), c.ID, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, c.ID, got.ID)
	assert.Equal(t, "p1@example.com", got.Email)
	assert.Contains(t, keys(rawData(t, resp.Body)), "non_residence_status", "a fetch adds the residence members")
	assert.Contains(t, keys(rawData(t, resp.Body)), "residence_alpha_3_country_code")

	foreign := e.customer(e.otherOrg(false), sandbox.Customer{Name: "Foreign"})
	for _, id := range []uuid.UUID{uuid.New(), foreign.ID} {
		_, err = e.client.Customers.Get(ctx(t), id)
		refused(t, err, http.StatusBadRequest, custNotFound, fiatramp.ErrCustomerNotFound)
	}
}

// TestCustomersUnique: email (in any case), phone and client_reference_id
// are unique within an organization, each refused with the service's
// message, and another organization may reuse them.
func TestCustomersUnique(t *testing.T) {
	e := newEnv(t)
	first := newPerson(1)
	first.ClientReferenceID = "crm-1"
	_, err := e.client.Customers.Create(ctx(t), first)
	require.NoError(t, err)
	for _, tc := range []struct {
		mod      func(*types.CreateCustomerRequest)
		msg      string
		sentinel error
	}{
		{func(r *types.CreateCustomerRequest) { r.Email = "P1@Example.com" }, "Email already in use", fiatramp.ErrEmailInUse},
		{func(r *types.CreateCustomerRequest) { r.Phone = first.Phone }, "Phone already in use", fiatramp.ErrPhoneInUse},
		{func(r *types.CreateCustomerRequest) { r.ClientReferenceID = "crm-1" }, "Client Reference ID already exists", fiatramp.ErrClientReferenceExists},
	} {
		req := newPerson(2)
		tc.mod(&req)
		_, err := e.client.Customers.Create(ctx(t), req)
		refused(t, err, http.StatusBadRequest, tc.msg, tc.sentinel)
	}
	other := e.clientFor(e.otherOrg(false))
	_, err = other.Customers.Create(ctx(t), first)
	require.NoError(t, err, "another organization's customers are its own")
}

// TestCustomersRawBadInput: the mistakes the client refuses before
// sending, sent by a raw client that skips its checks, get the service's
// field errors and messages; nothing is created.
func TestCustomersRawBadInput(t *testing.T) {
	e := newEnv(t)
	good := map[string]any{"full_name": "Asha", "email": "a@example.com", "phone": "+91980000", "alpha_3_country_code": "IND"}
	for _, tc := range []struct {
		field  string
		value  any
		msg    string
		field2 bool // a field error (else a rule refusal)
	}{
		{"full_name", "  ", "This field may not be blank.", true},
		{"full_name", nil, "This field may not be null.", true},
		{"email", "asha.example.com", "Enter a valid email address.", true},
		{"phone", "", "This field may not be blank.", true},
		{"alpha_3_country_code", "IN", "Invalid country code", false},
		{"alpha_3_country_code", "IN1", "Invalid country code", false},
		{"residence_alpha_3_country_code", "INDIA", "Invalid country code", false},
	} {
		body := map[string]any{}
		for k, v := range good {
			body[k] = v
		}
		body[tc.field] = tc.value
		err := e.client.Do(ctx(t), http.MethodPost, "/cms/api/v1/customer/create", body, nil)
		if tc.field2 {
			apiErr := refused(t, err, http.StatusBadRequest, tc.msg, fiatramp.ErrFieldMissing)
			assert.Equal(t, map[string][]string{tc.field: {tc.msg}}, apiErr.FieldErrors)
		} else {
			refused(t, err, http.StatusBadRequest, tc.msg, fiatramp.ErrInvalidCountry)
		}
	}
	page, err := e.client.Customers.List(ctx(t), types.CustomerListFilter{})
	require.NoError(t, err)
	assert.Equal(t, 1, page.Count, "only the fixture customer")
}

// TestCustomersList: every customer of the organization, fixtures
// included, in creation order, page by page; All follows the pages; the
// date filter keeps the days asked for; ListPage resumes from a link.
func TestCustomersList(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) { s.PageSize = 3 })
	e.customer(e.otherOrg(false), sandbox.Customer{Name: "Foreign"})
	want := []uuid.UUID{e.cust.ID}
	for i := 1; i <= 6; i++ {
		if i == 4 {
			e.sb.Advance(48 * time.Hour) // customers 4..6 two days later
		}
		c, err := e.client.Customers.Create(ctx(t), newPerson(i))
		require.NoError(t, err)
		want = append(want, c.ID)
	}
	page, err := e.client.Customers.List(ctx(t), types.CustomerListFilter{})
	require.NoError(t, err)
	assert.Equal(t, 7, page.Count)
	require.Len(t, page.Results, 3)
	require.NotNil(t, page.Next)
	assert.Nil(t, page.Previous)
	var all []uuid.UUID
	for c, err := range e.client.Customers.All(ctx(t), types.CustomerListFilter{}) {
		require.NoError(t, err)
		all = append(all, c.ID)
	}
	assert.Equal(t, want, all)
	second, err := e.client.Customers.ListPage(ctx(t), *page.Next)
	require.NoError(t, err)
	assert.Equal(t, want[3:6], ids(second.Results))

	later := epoch.Add(48 * time.Hour).Format("02-01-2006")
	var filtered []uuid.UUID
	for c, err := range e.client.Customers.All(ctx(t), types.CustomerListFilter{From: later, To: later}) {
		require.NoError(t, err)
		filtered = append(filtered, c.ID)
	}
	assert.Equal(t, want[4:], filtered, "only the customers created on that day")
	onlyFirst, err := e.client.Customers.List(ctx(t), types.CustomerListFilter{To: epoch.Format("02-01-2006")})
	require.NoError(t, err)
	assert.Equal(t, 4, onlyFirst.Count)

	err = e.client.Do(ctx(t), http.MethodGet, "/cms/api/v1/customer/list?start_date=2026-01-01", nil, nil)
	refused(t, err, http.StatusBadRequest, "Date has wrong format. Use one of these formats instead: DD-MM-YYYY.", fiatramp.ErrFieldMissing)
	err = e.client.Do(ctx(t), http.MethodGet, "/cms/api/v1/customer/list?page=9", nil, nil)
	refused(t, err, http.StatusNotFound, "Invalid page.")
}

func ids(cs []types.Customer) []uuid.UUID {
	out := make([]uuid.UUID, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// inProcess is a transport that hands each request to the sandbox's
// handler, without a network.
type inProcess struct{ h http.Handler }

func (t inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body == nil {
		req.Body = http.NoBody // as a server hands it to a handler
	}
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, req)
	return rec.Result(), nil
}

// BenchmarkCustomersAtScale fetches a customer and the first and a middle
// page of the list in a sandbox holding 1,000, 10,000 and 100,000
// customers: the time per operation must not grow with the number (a map
// lookup, a slice of the list). Requests go to the handler in process, and
// the garbage collector is off while timing, so that the figures are the
// work of an operation, not the network's or a collection of the larger
// heap. It reports the heap each customer costs.
//
//	go test -run '^$' -bench CustomersAtScale -benchtime 2000x ./sandbox/
func BenchmarkCustomersAtScale(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		e := newEnv(b)
		client := e.clientFor(e.org, fiatramp.WithHTTPClient(&http.Client{Transport: inProcess{e.sb}}))
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var last sandbox.Customer
		for i := 0; i < n; i++ {
			c, err := e.sb.AddCustomer(sandbox.Customer{OrganizationID: e.org.ID, Name: "Person " + strconv.Itoa(i)})
			if err != nil {
				b.Fatal(err)
			}
			last = c
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perCustomer := float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
		middle := fmt.Sprintf("/cms/api/v1/customer/list?page=%d", n/20)
		timed := func(b *testing.B, op func() error) {
			runtime.GC()
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := op(); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.Run(fmt.Sprintf("get/%d", n), func(b *testing.B) {
			timed(b, func() error { _, err := client.Customers.Get(context.Background(), last.ID); return err })
			b.ReportMetric(perCustomer, "heapB/customer")
		})
		b.Run(fmt.Sprintf("list-first/%d", n), func(b *testing.B) {
			timed(b, func() error {
				_, err := client.Customers.List(context.Background(), types.CustomerListFilter{})
				return err
			})
		})
		b.Run(fmt.Sprintf("list-middle/%d", n), func(b *testing.B) {
			timed(b, func() error { return client.Do(context.Background(), http.MethodGet, middle, nil, nil) })
		})
	}
}
