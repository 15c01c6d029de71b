package sandbox

// Control plane: the fixture group (reset, fixtures from JSON, the demo,
// and one POST per kind of fixture: organizations, customers, bank
// accounts, wallets, quotations, remitters).

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
)

// fixtureField names the JSON member a fixture method's error is about,
// from its message.
func fixtureField(err error) string {
	msg := err.Error()
	for _, p := range []struct{ has, field string }{
		{"no organization", "organization_id"},
		{"no customer", "customer_id"},
		{"already exists", "id"},
		{"API key", "api_key"},
		{"webhook", "webhook_url"},
		{"balance", "balances"},
		{"KYC status", "kyc_status"},
		{"bank account to pay to", "bank_id"},
		{"is not customer", "bank_id"},
		{"wallet_address", "wallet_address"},
		{"sending_amount", "sending_amount"},
		{"receiving_amount", "receiving_amount"},
		{"rate", "rate"},
		{"type ", "type"},
		{"unknown status", "status"},
	} {
		if strings.Contains(msg, p.has) {
			return p.field
		}
	}
	return ""
}

func fixtureRefusal(err error) error {
	return badField(fixtureField(err), "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
}

func (c *control) reset(_ *http.Request, _ []string, body []byte) (int, any, error) {
	var in struct {
		SeedDemo bool `json:"seed_demo"`
	}
	if _, err := decodeStrict(body, &in); err != nil {
		return 0, nil, err
	}
	c.sb.Reset()
	out := struct {
		Demo *Demo `json:"demo,omitempty"`
	}{}
	if in.SeedDemo {
		demo, err := c.sb.SeedDemo()
		if err != nil {
			return 0, nil, err
		}
		out.Demo = &demo
	}
	return http.StatusOK, out, nil
}

func (c *control) load(_ *http.Request, _ []string, body []byte) (int, any, error) {
	f, err := LoadJSON(bytes.NewReader(body))
	if err == nil {
		f, err = c.sb.Load(f)
	}
	if err != nil {
		var le *LoadError
		field := ""
		if errors.As(err, &le) {
			field = le.Path
			var ce *controlError
			if errors.As(le.Err, &ce) {
				field = ce.field
			}
		}
		return 0, nil, badField(field, "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	return http.StatusCreated, f, nil
}

func (c *control) seedDemo(*http.Request, []string, []byte) (int, any, error) {
	demo, err := c.sb.SeedDemo()
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, demo, nil
}

// addFixture decodes body into a T and adds it with add.
func addFixture[T any](body []byte, add func(T) (T, error)) (int, any, error) {
	var in T
	if _, err := decodeStrict(body, &in); err != nil {
		return 0, nil, err
	}
	out, err := add(in)
	if err != nil {
		return 0, nil, fixtureRefusal(err)
	}
	return http.StatusCreated, out, nil
}

func (c *control) addOrganization(_ *http.Request, _ []string, body []byte) (int, any, error) {
	return addFixture(body, c.sb.AddOrganization)
}

func (c *control) addCustomer(_ *http.Request, _ []string, body []byte) (int, any, error) {
	return addFixture(body, c.sb.AddCustomer)
}

func (c *control) addBankAccount(_ *http.Request, _ []string, body []byte) (int, any, error) {
	return addFixture(body, c.sb.AddBankAccount)
}

func (c *control) addWallet(_ *http.Request, _ []string, body []byte) (int, any, error) {
	status, v, err := addFixture(body, c.sb.AddWallet)
	var ce *controlError
	if errors.As(err, &ce) && ce.field == "status" {
		ce.field = "wallet_status"
	}
	return status, v, err
}

func (c *control) addQuotation(_ *http.Request, _ []string, body []byte) (int, any, error) {
	return addFixture(body, c.sb.AddQuotation)
}

func (c *control) addRemitter(_ *http.Request, _ []string, body []byte) (int, any, error) {
	return addFixture(body, c.sb.AddRemitter)
}
