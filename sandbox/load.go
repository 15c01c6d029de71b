package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/google/uuid"
)

// Fixtures is a tree of fixtures for Load: organizations, and nested in
// them what they own. Nesting says who owns what, so a fixtures file needs
// no cross-references: a customer's organization_id, a bank account's
// customer_id, a quotation's customer_id and bank_id and a remitter's
// organization_id may be left out (they are taken from the enclosing
// item), and when given they must name it.
//
// In JSON each item is one flat object: the fields of the fixture type
// (Organization, Customer, ...) beside the lists of what it owns, e.g.
//
//	{"organizations": [{
//	  "name": "Acme", "prefunded": true, "balances": {"USDT": "250"},
//	  "customers": [{
//	    "name": "Asha Rao", "kyc_status": "VERIFIED",
//	    "bank_accounts": [{
//	      "type": "bank_account", "account_number": "001234567890", "ifsc": "SBIN0001234",
//	      "quotations": [{"sending_amount": "10", "rate": "88.25"}]
//	    }],
//	    "wallets": [{"wallet_address": "TXYZ..."}]
//	  }],
//	  "remitters": [{"name": "Global Remit Ltd"}]
//	}]}
type Fixtures struct {
	Organizations []OrganizationFixture `json:"organizations"`
}

// OrganizationFixture is an organization with its customers and
// remitters.
type OrganizationFixture struct {
	Organization
	Customers []CustomerFixture `json:"customers,omitempty"`
	Remitters []Remitter        `json:"remitters,omitempty"`
}

// CustomerFixture is a customer with its bank accounts and wallets.
type CustomerFixture struct {
	Customer
	BankAccounts []BankAccountFixture `json:"bank_accounts,omitempty"`
	Wallets      []Wallet             `json:"wallets,omitempty"`
}

// BankAccountFixture is a bank account with the payout quotations that pay
// to it.
type BankAccountFixture struct {
	BankAccount
	Quotations []Quotation `json:"quotations,omitempty"`
}

// LoadError is the error of Load and LoadJSON. Path names the item at
// fault, e.g. "organizations[0].customers[1].bank_accounts[0]"; it is
// empty for an error of the JSON document as a whole.
type LoadError struct {
	Path string
	Err  error
}

// Error returns "sandbox: load: <path>: <what is wrong>".
func (e *LoadError) Error() string {
	msg := strings.TrimPrefix(e.Err.Error(), "sandbox: ")
	if e.Path == "" {
		return "sandbox: load: " + msg
	}
	return "sandbox: load: " + e.Path + ": " + msg
}

// Unwrap returns the underlying error.
func (e *LoadError) Unwrap() error { return e.Err }

// LoadJSON parses a fixtures document (see Fixtures). It is strict: an
// unknown member (names match exactly, case included, and the error names
// the item holding it), a second document or anything after the document
// is an error. It only parses; Sandbox.Load adds what it read.
func LoadJSON(r io.Reader) (Fixtures, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Fixtures{}, &LoadError{Err: err}
	}
	// Members are matched exactly, as the service's JSON readers do:
	// encoding/json alone would take "Name" for "name".
	if err := checkKeys(data, reflect.TypeFor[Fixtures](), ""); err != nil {
		return Fixtures{}, &LoadError{Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f Fixtures
	if err := dec.Decode(&f); err != nil {
		return Fixtures{}, &LoadError{Err: jsonError(data, err)}
	}
	var extra json.RawMessage
	switch err := dec.Decode(&extra); {
	case errors.Is(err, io.EOF):
		return f, nil
	case err != nil:
		return Fixtures{}, &LoadError{Err: jsonError(data, err)}
	default:
		at := dec.InputOffset() - int64(len(extra))
		return Fixtures{}, &LoadError{Err: fmt.Errorf("%s: data after the fixtures document", position(data, at))}
	}
}

// jsonError adds the line and column of a decoding error, where the error
// gives an offset.
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("%s: %w", position(data, syn.Offset-1), err)
	case errors.As(err, &typ) && typ.Field != "":
		return fmt.Errorf("%s: %s: cannot decode a JSON %s into %s", position(data, typ.Offset-1),
			fieldPath(typ.Field), typ.Value, typ.Type)
	case errors.As(err, &typ):
		return fmt.Errorf("%s: %w", position(data, typ.Offset-1), err)
	case errors.Is(err, io.EOF):
		return errors.New("empty document: want a JSON object with \"organizations\"")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("document ends early: %w", err)
	}
	return err
}

// fieldPath is the JSON path of a decoding error's Go field path: the
// names of the embedded fixture types left out.
func fieldPath(goPath string) string {
	var keep []string
	for _, seg := range strings.Split(goPath, ".") {
		switch seg {
		case "Organization", "Customer", "CustomerFlags", "BankAccount":
			continue
		}
		keep = append(keep, seg)
	}
	return strings.Join(keep, ".")
}

// position is "line L, column C" of byte offset off of data (both from 1).
func position(data []byte, off int64) string {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// Load adds every item of f through the fixture methods (AddOrganization,
// AddCustomer, AddBankAccount, AddWallet, AddQuotation, AddRemitter), parents
// before what they own, and returns the same tree as stored: generated ids,
// keys, secrets and defaults filled in.
//
// Load is all or nothing: at the first item it cannot add it removes what
// it added of f and returns a *LoadError naming that item. Every item of f
// belongs to one of f's organizations, which are all new, so removing
// them and everything they own undoes the load (including anything
// requests made meanwhile with their keys).
func (s *Sandbox) Load(f Fixtures) (Fixtures, error) {
	out := Fixtures{Organizations: make([]OrganizationFixture, 0, len(f.Organizations))}
	var added []Organization
	fail := func(path string, err error) (Fixtures, error) {
		s.removeOrganizations(added)
		return Fixtures{}, &LoadError{Path: path, Err: err}
	}
	for i, of := range f.Organizations {
		opath := fmt.Sprintf("organizations[%d]", i)
		o, err := s.AddOrganization(of.Organization)
		if err != nil {
			return fail(opath, err)
		}
		added = append(added, o)
		oout := OrganizationFixture{Organization: o}

		for j, cf := range of.Customers {
			cpath := fmt.Sprintf("%s.customers[%d]", opath, j)
			c := cf.Customer
			if err := parent(&c.OrganizationID, o.ID, "organization_id", "organization"); err != nil {
				return fail(cpath, err)
			}
			if c, err = s.AddCustomer(c); err != nil {
				return fail(cpath, err)
			}
			cout := CustomerFixture{Customer: c}

			for k, bf := range cf.BankAccounts {
				bpath := fmt.Sprintf("%s.bank_accounts[%d]", cpath, k)
				b := bf.BankAccount
				if err := parent(&b.CustomerID, c.ID, "customer_id", "customer"); err != nil {
					return fail(bpath, err)
				}
				if b, err = s.AddBankAccount(b); err != nil {
					return fail(bpath, err)
				}
				bout := BankAccountFixture{BankAccount: b}

				for l, q := range bf.Quotations {
					qpath := fmt.Sprintf("%s.quotations[%d]", bpath, l)
					if err := parent(&q.CustomerID, c.ID, "customer_id", "customer"); err != nil {
						return fail(qpath, err)
					}
					if err := parent(&q.BankID, b.ID, "bank_id", "bank account"); err != nil {
						return fail(qpath, err)
					}
					if q, err = s.AddQuotation(q); err != nil {
						return fail(qpath, err)
					}
					bout.Quotations = append(bout.Quotations, q)
				}
				cout.BankAccounts = append(cout.BankAccounts, bout)
			}

			for k, w := range cf.Wallets {
				wpath := fmt.Sprintf("%s.wallets[%d]", cpath, k)
				if err := parent(&w.CustomerID, c.ID, "customer_id", "customer"); err != nil {
					return fail(wpath, err)
				}
				if w, err = s.AddWallet(w); err != nil {
					return fail(wpath, err)
				}
				cout.Wallets = append(cout.Wallets, w)
			}
			oout.Customers = append(oout.Customers, cout)
		}

		for j, r := range of.Remitters {
			rpath := fmt.Sprintf("%s.remitters[%d]", opath, j)
			if err := parent(&r.OrganizationID, o.ID, "organization_id", "organization"); err != nil {
				return fail(rpath, err)
			}
			if r, err = s.AddRemitter(r); err != nil {
				return fail(rpath, err)
			}
			oout.Remitters = append(oout.Remitters, r)
		}
		out.Organizations = append(out.Organizations, oout)
	}
	return out, nil
}

// parent sets *id to the enclosing item's id, or checks that the id given
// is that one.
func parent(id *uuid.UUID, want uuid.UUID, field, what string) error {
	switch *id {
	case uuid.Nil:
		*id = want
	case want:
	default:
		return fmt.Errorf("%s %s is not the enclosing %s's id %s", field, *id, what, want)
	}
	return nil
}

// removeOrganizations deletes orgs and everything they own, undoing a
// failed Load: one deletion each, since an organization holds all it
// owns. The entries of the cross-organization index they leave are told
// by its lookups.
func (s *Sandbox) removeOrganizations(orgs []Organization) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range orgs {
		delete(s.st.orgs, o.ID)
	}
}
