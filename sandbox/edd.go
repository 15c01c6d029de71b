package sandbox

// Enhanced due diligence (EDD): the payout and payin EDD saves under
// /ren/api/v1, the EDD review (Sandbox.SetEDDStatus, also on the control
// plane) and its webhooks.

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// EventTypeEDD is the type of the webhooks of an EDD review: event
// VERIFIED or FAILED, metadata customer_id and edd_type (PAYOUT or PAYIN).
const EventTypeEDD = "EDD"

// Refusals of the EDD saves, word for word as the service documents them.
const (
	msgEDDNotRequired = "EDD not required"
	msgEnterURL       = "Enter a valid URL."
	msgDeclaration    = "Declaration must be true."
)

// EDD is an enhanced due diligence as the sandbox holds it.
type EDD struct {
	ID             uuid.UUID `json:"id"`
	OrganizationID uuid.UUID `json:"organization_id"`
	CustomerID     uuid.UUID `json:"customer_id"`
	// Type is PAYOUT or PAYIN: which save made it.
	Type      string          `json:"type"`
	Status    types.EDDStatus `json:"status"`
	CreatedAt time.Time       `json:"created_at"`
	UpdatedAt time.Time       `json:"updated_at"`
}

// edd is an EDD's state.
type edd struct {
	EDD
	dir limitDirection
}

// eddLifted reports whether a VERIFIED EDD lifts customer's limits in
// direction dir: a payout EDD lifts the payout limits, a payin EDD both;
// s.mu is held.
func eddLifted(o *org, customer uuid.UUID, dir limitDirection) bool {
	for _, e := range o.limits.edds {
		if e.CustomerID == customer && e.Status == types.EDDVerified && (e.dir == dir || e.dir == limitPayin) {
			return true
		}
	}
	return false
}

// saveEDD saves an EDD of direction dir. Field errors come first:
// customer_id, source_of_income (SALARY, BUSINESS_INCOME or OTHERS), the
// lists bank_statement_url and itr_report_url (required, possibly empty,
// of absolute http or https URLs) with their passwords (one string per
// URL), declaration (true; required for payouts only: the newest payin
// save shows none). Then the customer must be this
// organization's and KYC-verified ("Customer is unverified"), and need an
// EDD in dir with none PROCESSING or VERIFIED ("EDD not required"). The
// EDD is saved PROCESSING; SetEDDStatus reviews it.
func (s *Sandbox) saveEDD(rq *request, dir limitDirection) reply {
	f := rq.body
	customerID := f.uuid("customer_id")
	if src, ok := f.str("source_of_income", true); ok &&
		!slices.Contains([]types.SourceOfIncome{types.SourceOfIncomeSalary, types.SourceOfIncomeBusiness, types.SourceOfIncomeOthers}, types.SourceOfIncome(src)) {
		f.fail("source_of_income", fmt.Sprintf("%q is not a valid choice.", src))
	}
	eddDocumentList(f, "bank_statement_url", "bank_statement_passwords", true)
	eddDocumentList(f, "itr_report_url", "itr_report_passwords", true)
	if v, ok := f.value("declaration"); !ok || v == nil {
		// The newest payin save shows no declaration.
		if dir != limitPayin {
			f.fail("declaration", msgRequired)
		}
	} else if b, isBool := v.(bool); !isBool {
		f.fail("declaration", "Must be a valid boolean.")
	} else if !b {
		f.fail("declaration", msgDeclaration)
	}
	if dir == limitPayin {
		for _, name := range []string{"purpose", "account_operator", "account_operator_name", "relation_with_account_operator"} {
			optionalString(f, name)
		}
		if _, ok := f.value("p2p_trading_status"); ok {
			f.boolean("p2p_trading_status")
		}
		eddDocumentList(f, "supporting_purpose_doc_url", "", false)
	}
	if bad := f.refused(); bad != nil {
		return *bad
	}
	c := s.orgCustomer(rq, customerID)
	if c == nil || c.KYCStatus != types.KYCVerified {
		return rule(msgCustomerUnverified)
	}
	required := s.eddRequired(rq.org, c.ID, dir, rq.now) || c.EDDRequired && !eddLifted(rq.org, c.ID, dir)
	for _, e := range rq.org.limits.edds {
		if e.CustomerID == c.ID && e.dir == dir && (e.Status == types.EDDProcessing || e.Status == types.EDDVerified) {
			required = false
		}
	}
	if !required {
		return rule(msgEDDNotRequired)
	}
	e := &edd{EDD: EDD{ID: uuid.New(), OrganizationID: rq.org.ID, CustomerID: c.ID, Type: eddType(dir),
		Status: types.EDDProcessing, CreatedAt: rq.now, UpdatedAt: rq.now}, dir: dir}
	rq.org.limits.edds[e.ID] = e
	return success(http.StatusOK, "EDD saved successfully", map[string]any{"id": e.ID, "status": e.Status})
}

// eddType names direction dir as an EDD's type.
func eddType(dir limitDirection) string {
	if dir == limitPayin {
		return "PAYIN"
	}
	return "PAYOUT"
}

// eddDocumentList reads the list of URLs urlField (required or not) and,
// when passwordField is not "", its list of passwords: one string per
// URL, "" for none. Each URL must be absolute, http or https, with a host.
func eddDocumentList(f *fields, urlField, passwordField string, required bool) {
	urls, ok := stringList(f, urlField, required)
	if !ok {
		return
	}
	for _, u := range urls {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			f.fail(urlField, msgEnterURL)
			break
		}
	}
	if passwordField == "" {
		return
	}
	if pw, ok := stringList(f, passwordField, required); ok && len(pw) != len(urls) {
		f.fail(passwordField, fmt.Sprintf("Give one password per document: %d for %d.", len(pw), len(urls)))
	}
}

// stringList reads a list of strings; ok is false when it is absent (a
// field error when required) or not a list of strings (a field error).
func stringList(f *fields, name string, required bool) ([]string, bool) {
	v, present := f.value(name)
	if !present || v == nil {
		if required {
			f.fail(name, msgRequired)
		}
		return nil, false
	}
	items, isList := v.([]any)
	if !isList {
		f.fail(name, fmt.Sprintf(`Expected a list of items but got type "%s".`, jsonKind(v)))
		return nil, false
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, isString := it.(string)
		if !isString {
			f.fail(name, "Not a valid string.")
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// SetEDDStatus reviews an EDD, as the service's reviewers would: a
// PROCESSING EDD moves to VERIFIED (lifting the customer's limits: a
// payout EDD the payout limits, a payin EDD both) or FAILED, and the EDD
// webhook of the new status is sent. Any other move is refused.
func (s *Sandbox) SetEDDStatus(id uuid.UUID, status types.EDDStatus) error {
	if status != types.EDDVerified && status != types.EDDFailed {
		return fmt.Errorf("sandbox: EDD status %q: want VERIFIED or FAILED", status)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var o *org
	var e *edd
	for _, oo := range s.st.orgs {
		if e = oo.limits.edds[id]; e != nil {
			o = oo
			break
		}
	}
	if e == nil {
		return fmt.Errorf("sandbox: no EDD %s", id)
	}
	if e.Status != types.EDDProcessing {
		return fmt.Errorf("sandbox: EDD %s is %s: only a PROCESSING EDD is reviewed", id, e.Status)
	}
	now := s.now()
	e.Status, e.UpdatedAt = status, now
	s.emit(&request{org: o, now: now}, EventTypeEDD, e.ID.String(), string(status),
		map[string]any{"customer_id": e.CustomerID.String(), "edd_type": e.Type})
	return nil
}

// EDDs returns the EDDs of a customer, oldest first.
func (s *Sandbox) EDDs(customerID uuid.UUID) []EDD {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []EDD
	o, _ := s.st.customer(customerID)
	if o == nil {
		return nil
	}
	for _, e := range o.limits.edds {
		if e.CustomerID == customerID {
			out = append(out, e.EDD)
		}
	}
	slices.SortFunc(out, func(a, b EDD) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID.String(), b.ID.String())
	})
	return out
}
