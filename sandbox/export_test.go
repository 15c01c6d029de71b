package sandbox

import (
	"net/http"
	"reflect"
	"runtime"
	"strings"

	"github.com/google/uuid"
)

// SetParseHook makes sb call hook at the end of each request's body
// parsing. Set it before serving.
func SetParseHook(sb *Sandbox, hook func(*http.Request)) { sb.parseHook = hook }

// HTTPServer returns the http.Server that s runs.
func HTTPServer(s *Server) *http.Server { return s.srv }

// Route is one line of the sandbox's route table: an HTTP method and a
// path template whose "{name}" segments are parameters.
type Route struct{ Method, Template string }

// RouteTable returns the sandbox's route table, in its order, with the
// remittance payout at DefaultRemittancePayoutPath.
func RouteTable() []Route {
	ops := operations()
	out := make([]Route, len(ops))
	for i, op := range ops {
		out[i] = Route{op.method, op.template}
	}
	return out
}

// RouteHandlers returns the name of the handler of every line of the
// route table (the method of Sandbox it calls, e.g. "createPayout").
func RouteHandlers() map[Route]string {
	out := map[Route]string{}
	for _, op := range operations() {
		name := runtime.FuncForPC(reflect.ValueOf(op.handle).Pointer()).Name()
		out[Route{op.method, op.template}] = name[strings.LastIndex(name, ".")+1:]
	}
	return out
}

// ServedRoutes returns the routes sb serves, as method and path pattern
// ("{}" for a parameter), in matching order.
func ServedRoutes(sb *Sandbox) []Route {
	out := make([]Route, len(sb.routes))
	for i, rt := range sb.routes {
		out[i] = Route{rt.method, "/" + strings.Join(rt.pattern, "/")}
	}
	return out
}

// StorePayout stores a bare payout of organization orgID, which must
// exist, as the payout operations do, and returns its id.
func StorePayout(sb *Sandbox, orgID uuid.UUID) uuid.UUID {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	p := &payout{Payout: Payout{ID: uuid.New(), OrganizationID: orgID, CreatedAt: sb.now()}}
	sb.storePayout(sb.st.orgs[orgID], p)
	return p.ID
}

// RemoveOrganizations removes orgs and all they own, as a failed Load's
// undo does.
func RemoveOrganizations(sb *Sandbox, orgs []Organization) { sb.removeOrganizations(orgs) }

// StoredPayouts returns how many payouts sb's store holds.
func StoredPayouts(sb *Sandbox) int {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	n := 0
	for _, o := range sb.st.orgs {
		n += len(o.payouts.byID)
	}
	return n
}

// Timers returns how many timers the sandbox's scheduler has set.
func Timers(sb *Sandbox) int { return sb.sched.timers() }
