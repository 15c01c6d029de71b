package main

// fiatramp customers create | get | list

import (
	"context"
	"encoding/json"
	"flag"

	"github.com/google/uuid"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// customerFields are the rows of a customer's table.
func customerFields() []field {
	return []field{
		f("id"), f("status"), f("failure_reason"), f("full_name"), f("email"), f("phone"), f("country"),
		f("client_reference_id"), f("type"), f("document_type"),
	}
}

func customersCreateCommand() *command {
	c := &command{
		name:    "customers create",
		op:      "Customers.Create",
		summary: "create a customer (UNVERIFIED until KYC)",
		about: `Create a customer (POST /cms/api/v1/customer/create) and print it. Email,
phone and -reference must be unused in the organization. The call is sent
once: if its outcome is unknown (exit status 3), look for the customer
(fiatramp customers list) before creating it again.`,
		example: `fiatramp customers create -name 'Asha Rao' -email asha@example.com -phone +919800000001 -country IND | jq -r .id`,
	}
	var (
		cf                                               callFlags
		name, email, phone, country, ref, residenceCntry string
		nonResident                                      bool
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&name, "name", "", "full_name (required)")
		fs.StringVar(&email, "email", "", "email (required)")
		fs.StringVar(&phone, "phone", "", "phone (required)")
		fs.StringVar(&country, "country", "", "alpha_3_country_code, the nationality, three letters (required)")
		fs.StringVar(&ref, "reference", "", "client_reference_id, unique per organization")
		fs.BoolVar(&nonResident, "non-resident", false, "non_residence_status: the customer lives outside -country")
		fs.StringVar(&residenceCntry, "residence", "", "residence_alpha_3_country_code, three letters")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, customerFields(), func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.Customers.Create(ctx, types.CreateCustomerRequest{
					FullName: name, Email: email, Phone: phone, Alpha3CountryCode: country, ClientReferenceID: ref,
					NonResidenceStatus: nonResident, ResidenceAlpha3CountryCode: residenceCntry,
				})
			})
		}
	}
	return c
}

func customersGetCommand() *command {
	c := &command{
		name:    "customers get",
		op:      "Customers.Get",
		args:    "CUSTOMER_ID",
		summary: "a customer, its KYC status",
		about:   `Fetch a customer (GET /cms/api/v1/customer/CUSTOMER_ID) and print it.`,
		example: `fiatramp customers get $CUSTOMER | jq -r .status`,
	}
	return withID(c, append(customerFields(), f("non_residence_status"), f("residence_alpha_3_country_code")), func(ctx context.Context, cl *fiatramp.Client, id uuid.UUID) (any, error) {
		return cl.Customers.Get(ctx, id)
	})
}

func customersListCommand() *command {
	c := &command{
		name:    "customers list",
		op:      "Customers.List",
		summary: "every customer of the organization, all pages",
		about: `List the organization's customers (GET /cms/api/v1/customer/list),
following the pages to the end, and print them: one JSON array of the
customers as sent, or a table with -o table. -from and -to (DD-MM-YYYY)
keep the customers created on those days and between them; they are sent
as start_date and end_date, which -from-param and -to-param rename (the
service does not document the names).`,
		example: `fiatramp customers list | jq -r '.[] | select(.status == "FAILED") | .id'`,
	}
	var (
		cf     callFlags
		filter types.CustomerListFilter
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.StringVar(&filter.From, "from", "", "first day, DD-MM-YYYY")
		fs.StringVar(&filter.To, "to", "", "last day, DD-MM-YYYY")
		fs.StringVar(&filter.FromParam, "from-param", "", "the query parameter -from is sent as (default start_date)")
		fs.StringVar(&filter.ToParam, "to-param", "", "the query parameter -to is sent as (default end_date)")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, nil, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				// Every page first: a listing that fails halfway prints nothing.
				items := []json.RawMessage{}
				for item, err := range cl.Customers.All(ctx, filter) {
					if err != nil {
						return nil, err
					}
					items = append(items, item.Raw)
				}
				return printer(func(s streams, output string) error {
					if output == "table" {
						rows := make([][]string, 0, len(items))
						for _, raw := range items {
							o := objectOf(raw)
							rows = append(rows, []string{o.text("id"), o.text("status"), o.text("failure_reason"), o.text("full_name"), o.text("email"), o.text("phone")})
						}
						return table(s.out, []string{"ID", "STATUS", "FAILURE_REASON", "NAME", "EMAIL", "PHONE"}, rows)
					}
					return writeJSONArray(s.out, items)
				}), nil
			})
		}
	}
	return c
}
