package sandbox_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"

	"github.com/fiatramp/fiatramp-go/sandbox"
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
		}, http.StatusCreated},
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
