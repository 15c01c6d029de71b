package sandbox_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
)

// clientOperations are the client's operations: its index of operations
// (fiatramp.Operations), with the remittance payout at its default path.
// It is never empty, so that a test over it can fail.
func clientOperations(t *testing.T) []fiatramp.OperationInfo {
	t.Helper()
	ops := fiatramp.Operations()
	require.NotEmpty(t, ops, "the client's index of operations is empty")
	return ops
}

// sandboxOnly are the routes the sandbox serves that the client has no
// method for yet, with why: each is reached with Client.Do.
func sandboxOnly() map[sandbox.Route]string {
	return map[sandbox.Route]string{}
}

// missingOperations names, as "Name (METHOD template)", every operation of
// ops that table does not serve.
func missingOperations(ops []fiatramp.OperationInfo, table []sandbox.Route) []string {
	served := map[sandbox.Route]bool{}
	for _, r := range table {
		served[r] = true
	}
	var missing []string
	for _, op := range ops {
		if !served[sandbox.Route{Method: op.HTTPMethod, Template: op.Path}] {
			missing = append(missing, fmt.Sprintf("%s (%s %s)", op.Name, op.HTTPMethod, op.Path))
		}
	}
	return missing
}

// TestRoutesServeEveryClientOperation: the sandbox's route table has a
// line for every operation of the client, with the same method and path
// template; a line the client has no operation for is on sandboxOnly; no
// line appears twice.
func TestRoutesServeEveryClientOperation(t *testing.T) {
	table := sandbox.RouteTable()
	assert.Empty(t, missingOperations(clientOperations(t), table),
		"client operations the sandbox's route table (routes.go) does not serve")

	known := map[sandbox.Route]bool{}
	for _, op := range clientOperations(t) {
		known[sandbox.Route{Method: op.HTTPMethod, Template: op.Path}] = true
	}
	seen := map[sandbox.Route]bool{}
	for _, r := range table {
		assert.False(t, seen[r], "%s %s is in the route table twice", r.Method, r.Template)
		seen[r] = true
		if !known[r] {
			assert.Contains(t, sandboxOnly(), r, "%s %s is served by the sandbox but is no client operation: add it to the client or to sandboxOnly", r.Method, r.Template)
		}
	}
	for r := range sandboxOnly() {
		assert.True(t, seen[r], "sandboxOnly lists %s %s, which the sandbox does not serve", r.Method, r.Template)
		assert.False(t, known[r], "sandboxOnly lists %s %s, which is a client operation", r.Method, r.Template)
	}
	assert.Equal(t, fiatramp.DefaultRemittancePayoutPath, sandbox.DefaultRemittancePayoutPath)
}

// TestRoutesMissingOperationIsNamed: the comparison names the operation
// the table lacks, so that a forgotten route is told by name.
func TestRoutesMissingOperationIsNamed(t *testing.T) {
	var short []sandbox.Route
	for _, r := range sandbox.RouteTable() {
		if r.Template != "/pos/api/v1/payout/{payout_id}" {
			short = append(short, r)
		}
	}
	require.Len(t, short, len(sandbox.RouteTable())-1)
	assert.Equal(t, []string{"Payouts.Get (GET /pos/api/v1/payout/{payout_id})"},
		missingOperations(clientOperations(t), short))

	// A method that differs is a missing operation too.
	moved := append([]sandbox.Route(nil), sandbox.RouteTable()...)
	for i := range moved {
		if moved[i].Template == "/pos/api/v1/payout/mock-payout-status" {
			moved[i].Method = http.MethodPost
		}
	}
	assert.Equal(t, []string{"Payouts.SimulateStatus (PATCH /pos/api/v1/payout/mock-payout-status)"},
		missingOperations(clientOperations(t), moved))
}

// TestRoutesServedAsTabled: the routes a Sandbox matches are the table's,
// in its order, with each "{name}" a parameter, and the remittance payout
// at Settings.RemittancePayoutPath.
func TestRoutesServedAsTabled(t *testing.T) {
	const custom = "/pos/api/v2/remit/{literal}"
	for _, path := range []string{"", custom} {
		sb := sandbox.New(func(st *sandbox.Settings) { st.RemittancePayoutPath = path })
		var want []sandbox.Route
		for _, r := range sandbox.RouteTable() {
			tmpl := r.Template
			if tmpl == sandbox.DefaultRemittancePayoutPath {
				if path != "" {
					tmpl = path // as given: a configured path has no parameters
				}
			} else {
				segs := strings.Split(tmpl, "/")
				for i, s := range segs {
					if strings.HasPrefix(s, "{") {
						segs[i] = "{}"
					}
				}
				tmpl = strings.Join(segs, "/")
			}
			want = append(want, sandbox.Route{Method: r.Method, Template: tmpl})
		}
		assert.Equal(t, want, sandbox.ServedRoutes(sb), "remittance path %q", path)
	}
}

// TestRoutesReachEveryClientOperation: a request to each client operation,
// with ids in its parameters, reaches the operation (an unsigned one is
// refused for its missing header), not a 404 or a 405; the same path with
// another method is a 405.
func TestRoutesReachEveryClientOperation(t *testing.T) {
	sb := sandbox.New()
	defer sb.Close()
	for _, op := range clientOperations(t) {
		segs := strings.Split(op.Path, "/")
		for i, s := range segs {
			if strings.HasPrefix(s, "{") {
				segs[i] = uuid.NewString()
			}
		}
		path := strings.Join(segs, "/")
		rec := httptest.NewRecorder()
		sb.ServeHTTP(rec, httptest.NewRequest(op.HTTPMethod, path, nil))
		assert.Equal(t, http.StatusUnauthorized, rec.Code, "%s: %s %s: %s", op.Name, op.HTTPMethod, path, rec.Body)
		assert.Contains(t, rec.Body.String(), sandbox.CodeMissingHeader, op.Name)

		other := http.MethodDelete
		rec = httptest.NewRecorder()
		sb.ServeHTTP(rec, httptest.NewRequest(other, path, nil))
		assert.Equal(t, http.StatusMethodNotAllowed, rec.Code, "%s: %s %s", op.Name, other, path)
		assert.Contains(t, rec.Header().Get("Allow"), op.HTTPMethod, op.Name)
	}
}
