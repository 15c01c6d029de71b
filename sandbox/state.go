package sandbox

// The sandbox's state: the clock, the organizations, each holding what it
// owns, and the one index of what must be unique across organizations.
// Reset replaces the whole of it in one assignment; removing an
// organization is one deletion.

import (
	"sort"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// state is everything a Sandbox holds that Reset forgets; Sandbox.mu
// guards it.
type state struct {
	frozen bool          // clock stopped at at
	at     time.Time     // frozen time
	offset time.Duration // added to the real time when not frozen

	orgs  map[uuid.UUID]*org
	index crossIndex

	faults []*faultRule
	stats  Stats
}

// newState returns the state of a new (or reset) sandbox.
func newState() *state {
	return &state{
		orgs: map[uuid.UUID]*org{},
		index: crossIndex{
			keys: map[string]*org{}, banks: map[string]bankRef{}, pages: map[string]pageRef{},
		},
	}
}

// crossIndex holds what is unique across organizations: API keys, bank
// account numbers and VPAs, and the hosted pages' tokens. An entry names
// its owner; an entry whose organization was removed since (a failed Load
// undone) is told by its lookup, which checks that the owner is still
// there, so removing an organization never has to visit the index.
type crossIndex struct {
	keys  map[string]*org    // API key -> organization
	banks map[string]bankRef // bankKey -> account
	pages map[string]pageRef // hosted page token -> page
}

// bankRef names a bank account in the index: its organization and id.
type bankRef struct{ org, bank uuid.UUID }

// pageRef names a hosted page in the index: its organization (the
// organization itself, not its id: one removed and added again under the
// same id owns none of the pages of the removed one) and its state (one of
// the two is set).
type pageRef struct {
	org    *org
	kyc    *kycLink
	widget *widgetSession
}

// orgByKey returns the organization of API key, or nil.
func (st *state) orgByKey(key string) *org {
	o := st.index.keys[key]
	if o == nil || st.orgs[o.ID] != o {
		return nil
	}
	return o
}

// bankByKey returns the bank account holding key (see bankKey), or nil.
func (st *state) bankByKey(key string) *bankAccount {
	ref, ok := st.index.banks[key]
	if !ok {
		return nil
	}
	o := st.orgs[ref.org]
	if o == nil {
		return nil
	}
	b := o.banks[ref.bank]
	if b == nil || bankKey(b.Type, b.AccountNumber, b.VPA) != key {
		return nil
	}
	return b
}

// page returns the hosted page of token and its organization, or nils.
func (st *state) page(token string) (*org, pageRef) {
	ref, ok := st.index.pages[token]
	if !ok || ref.org == nil || st.orgs[ref.org.ID] != ref.org {
		return nil, pageRef{}
	}
	return ref.org, ref
}

// customer finds customer id in whichever organization holds it, for the
// Go API, whose methods name a customer alone; the operations find a
// customer in the request's organization (orgCustomer). It costs one map
// lookup per organization.
func (st *state) customer(id uuid.UUID) (*org, *customer) {
	for _, o := range st.orgs {
		if c := o.customers.byID[id]; c != nil {
			return o, c
		}
	}
	return nil, nil
}

// anyOrg reports whether has holds for some organization: an id given to
// a fixture must be new in every organization.
func (st *state) anyOrg(has func(*org) bool) bool {
	for _, o := range st.orgs {
		if has(o) {
			return true
		}
	}
	return false
}

// payout finds payout id in whichever organization holds it (Go API).
func (st *state) payout(id uuid.UUID) *payout {
	for _, o := range st.orgs {
		if p := o.payouts.byID[id]; p != nil {
			return p
		}
	}
	return nil
}

// org is an organization's state: the organization and everything it
// owns. Nothing in it is reachable from another organization's requests.
type org struct {
	Organization                            // Balances unused: see balances
	refs         map[string]uuid.UUID       // client_reference_id -> payout id
	balances     map[string]decimal.Decimal // the prefunded balance now, per upper-case asset

	// customers in creation order (the customer list), with the values
	// that must be unique within the organization.
	customers                    table[customer]
	emails, phones, customerRefs map[string]uuid.UUID
	taxes, docs                  map[string]uuid.UUID
	banks                        map[uuid.UUID]*bankAccount
	wallets                      map[uuid.UUID]*Wallet
	quotations                   map[uuid.UUID]*quotation
	remitters                    map[uuid.UUID]*Remitter
	payouts                      table[payout]
	orders                       map[string][]*payout // exchange order id -> its payouts, oldest first
	payinQuotations              map[uuid.UUID]*payinQuotation
	payins                       table[payin]
	utrs                         map[string]*payin // UTR -> payin
	payinRefs                    map[string]*payin // client_reference_id -> payin
	limits                       limitState
	widgets                      []*widgetSession // in the order they were initialized
	// macs holds HMAC-SHA256 states keyed by APISecret, for verify to
	// reuse (an HMAC's keying costs more than hashing a small request).
	macs *sync.Pool
}

// newOrg returns the state of organization o with balances.
func newOrg(o Organization, balances map[string]decimal.Decimal) *org {
	return &org{
		Organization: o, refs: map[string]uuid.UUID{}, balances: balances,
		customers: newTable[customer](),
		emails:    map[string]uuid.UUID{}, phones: map[string]uuid.UUID{}, customerRefs: map[string]uuid.UUID{},
		taxes: map[string]uuid.UUID{}, docs: map[string]uuid.UUID{},
		banks: map[uuid.UUID]*bankAccount{}, wallets: map[uuid.UUID]*Wallet{},
		quotations: map[uuid.UUID]*quotation{}, remitters: map[uuid.UUID]*Remitter{},
		payouts: newTable[payout](), orders: map[string][]*payout{},
		payinQuotations: map[uuid.UUID]*payinQuotation{},
		payins:          newTable[payin](), utrs: map[string]*payin{}, payinRefs: map[string]*payin{},
		limits: newLimitState(),
		macs:   newMACPool(o.APISecret),
	}
}

// table is one kind of an organization's objects: by id, and in order of
// creation time (a clock moved backwards files an object where its time
// belongs, so that a date range is found by binary search; objects of the
// same time stay in creation order).
type table[T any] struct {
	byID  map[uuid.UUID]*T
	order []*T
}

func newTable[T any]() table[T] { return table[T]{byID: map[uuid.UUID]*T{}} }

// add files v, created at created, whose items' creation times created
// reads.
func (t *table[T]) add(id uuid.UUID, v *T, created func(*T) time.Time) {
	t.byID[id] = v
	t.order = insertByTime(t.order, v, created)
}

// insertByTime adds v to items, ordered by created, after the items of
// the same time: at the end unless the clock was moved backwards.
func insertByTime[T any](items []*T, v *T, created func(*T) time.Time) []*T {
	at := created(v)
	i := len(items)
	if i > 0 && created(items[i-1]).After(at) {
		i = sort.Search(len(items), func(k int) bool { return created(items[k]).After(at) })
	}
	if i == len(items) {
		return append(items, v)
	}
	items = append(items, nil)
	copy(items[i+1:], items[i:])
	items[i] = v
	return items
}

// during returns the items of the UTC days from through to (both
// midnight UTC), items being ordered by created: a slice found by binary
// search.
func during[T any](items []*T, created func(*T) time.Time, from, to time.Time) []*T {
	end := to.AddDate(0, 0, 1)
	i := sort.Search(len(items), func(k int) bool { return !created(items[k]).Before(from) })
	j := sort.Search(len(items), func(k int) bool { return !created(items[k]).Before(end) })
	if j < i {
		return nil
	}
	return items[i:j]
}

// customer is a customer's state.
type customer struct {
	Customer
	banks   []*bankAccount // in creation order, for the bank list
	wallets []*Wallet      // in creation order
	// payouts and payins are the customer's, in the order of their
	// organization's tables, for the lists filtered by customer.
	payouts []*payout
	payins  []*payin
	// quoted is the payin amount quoted per UTC day (yyyy-mm-dd), for the
	// daily onramp limit.
	quoted  map[string]decimal.Decimal
	profile profile // what the customer operations keep (customers_profiles.go)
}

// bankAccount is a bank account's state.
type bankAccount struct {
	BankAccount
}

// quotation is a payout quotation's state.
type quotation struct {
	Quotation
	payoutID uuid.UUID // uuid.Nil until a payout is linked
	// orderID and createdAt are set for a quotation created through the
	// API; a fixture's are derived when it is fetched.
	orderID   uuid.UUID
	createdAt time.Time
}

// payinQuotation is a payin quotation's state.
type payinQuotation struct {
	id, orderID, customerID, bankID uuid.UUID
	asset, fiat                     string
	method                          types.PaymentMethod
	sending, rate, receiving        decimal.Decimal
	fee, gst                        decimal.Decimal
	createdAt, expiresAt            time.Time
	// status is the payin's status, shown as the fetched quotation's
	// status and moved by the payin status simulation.
	status types.PayinStatus
	// payin is the payin initiated against the quotation; nil before.
	payin *payin
}

// payout is a payout's state.
type payout struct {
	Payout
}
