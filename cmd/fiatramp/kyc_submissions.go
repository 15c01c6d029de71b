package main

// fiatramp kyc add-data | update-tax-info | update-document-info |
// update-selfie | update-additional-info | reset

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/google/uuid"
)

func kycResultFields() []field { return []field{f("id"), f("status"), f("failure_reason")} }

// kycCommand completes c, a KYC submission without an id argument: it
// makes the client and runs do, which calls the service, and prints the
// result.
func kycCommand(c *command, define func(fs *flag.FlagSet), do func(ctx context.Context, s streams, cl *fiatramp.Client) (*types.KYCResult, error)) *command {
	var cf callFlags
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 0, 0); err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, kycResultFields(), func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return do(ctx, s, cl)
			})
		}
	}
	return c
}

// readRequest decodes the JSON request of -data (@FILE, - for standard
// input, or the text) into v, refusing unknown members.
func readRequest(s streams, c *command, arg string, v any) error {
	if arg == "" {
		return misuse(s, c, "-data is required")
	}
	raw, err := readBody(s, arg)
	if err != nil {
		return misuse(s, c, "-data: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return misuse(s, c, "-data: %v", err)
	}
	return nil
}

// customerFlag parses -customer.
func customerFlag(s streams, c *command, v string) (uuid.UUID, error) {
	if v == "" {
		return uuid.Nil, misuse(s, c, "-customer is required")
	}
	return parseID(s, c, "-customer", v)
}

func kycAddDataCommand() *command {
	c := &command{
		name:    "kyc add-data",
		op:      "KYC.AddData",
		summary: "submit a customer's KYC data",
		about: `Submit a customer's KYC data (POST /cms/api/v1/kyc/add-kyc-data) from a
JSON object with the request's members (customer_id, full_name, phone,
full_address, dob and registered_date as DD-MM-YYYY, tax_number,
document_type, document_front_image_url, document_back_image_url,
document_details {document_number, additional_data}, selfie_url,
selfie_verification_status, additional_info), and print {id, status}.
With -check-rules the customer's KYC configuration is fetched first and
additional_info checked against its rules.`,
		example: `fiatramp kyc add-data -check-rules -data @kyc.json | jq -r .status`,
	}
	var (
		data  string
		check bool
	)
	return kycCommand(c, func(fs *flag.FlagSet) {
		fs.StringVar(&data, "data", "", "the request: @FILE, - for standard input, or the JSON text (required)")
		fs.BoolVar(&check, "check-rules", false, "check additional_info against the customer's KYC configuration first")
	}, func(ctx context.Context, s streams, cl *fiatramp.Client) (*types.KYCResult, error) {
		var req types.AddKYCDataRequest
		if err := readRequest(s, c, data, &req); err != nil {
			return nil, err
		}
		var opts []fiatramp.RequestOption
		if check && req.CustomerID != uuid.Nil {
			cfg, err := cl.KYC.GetConfiguration(ctx, req.CustomerID)
			if err != nil {
				return nil, err
			}
			opts = append(opts, fiatramp.CheckKYCRules(cfg))
		}
		return cl.KYC.AddData(ctx, req, opts...)
	})
}

func kycUpdateTaxInfoCommand() *command {
	c := &command{
		name:    "kyc update-tax-info",
		op:      "KYC.UpdateTaxInfo",
		summary: "replace a customer's tax number (one of three updates)",
		about: `Replace a customer's tax number (PATCH /cms/api/v1/kyc/update-tax-info),
the recovery of TAX_VERIFICATION_FAILED, and print {id, status}. A
customer has three updates in all.`,
		example: `fiatramp kyc update-tax-info -customer $CUSTOMER -tax-number ABCDE1234F`,
	}
	var customer, tax string
	return kycCommand(c, func(fs *flag.FlagSet) {
		fs.StringVar(&customer, "customer", "", "customer_id (required)")
		fs.StringVar(&tax, "tax-number", "", "tax_number (required)")
	}, func(ctx context.Context, s streams, cl *fiatramp.Client) (*types.KYCResult, error) {
		id, err := customerFlag(s, c, customer)
		if err != nil {
			return nil, err
		}
		return cl.KYC.UpdateTaxInfo(ctx, types.UpdateTaxInfoRequest{CustomerID: id, TaxNumber: tax})
	})
}

func kycUpdateDocumentInfoCommand() *command {
	c := &command{
		name:    "kyc update-document-info",
		op:      "KYC.UpdateDocumentInfo",
		summary: "replace a customer's identity document (one of three updates)",
		about: `Replace a customer's identity document (PATCH
/cms/api/v1/kyc/update-document-info), the recovery of
DOCUMENT_VERIFICATION_FAILED, from a JSON object with the request's
members (customer_id, full_address, document_type,
document_front_image_url, document_back_image_url, document_details,
phone), and print {id, status}.`,
		example: `fiatramp kyc update-document-info -data @document.json`,
	}
	var data string
	return kycCommand(c, func(fs *flag.FlagSet) {
		fs.StringVar(&data, "data", "", "the request: @FILE, - for standard input, or the JSON text (required)")
	}, func(ctx context.Context, s streams, cl *fiatramp.Client) (*types.KYCResult, error) {
		var req types.UpdateDocumentInfoRequest
		if err := readRequest(s, c, data, &req); err != nil {
			return nil, err
		}
		return cl.KYC.UpdateDocumentInfo(ctx, req)
	})
}

func kycUpdateSelfieCommand() *command {
	c := &command{
		name:    "kyc update-selfie",
		op:      "KYC.UpdateSelfie",
		summary: "replace a customer's selfie (one of three updates)",
		about: `Replace a customer's selfie (PATCH /cms/api/v1/kyc/update-selfie-info),
the recovery of SELFIE_VERIFICATION_FAILED, and print {id, status}.`,
		example: `fiatramp kyc update-selfie -customer $CUSTOMER -selfie-url https://img.example/selfie.jpg`,
	}
	var customer, selfie string
	return kycCommand(c, func(fs *flag.FlagSet) {
		fs.StringVar(&customer, "customer", "", "customer_id (required)")
		fs.StringVar(&selfie, "selfie-url", "", "selfie_url, absolute http(s) (required)")
	}, func(ctx context.Context, s streams, cl *fiatramp.Client) (*types.KYCResult, error) {
		id, err := customerFlag(s, c, customer)
		if err != nil {
			return nil, err
		}
		return cl.KYC.UpdateSelfie(ctx, types.UpdateSelfieRequest{CustomerID: id, SelfieURL: selfie})
	})
}

func kycUpdateAdditionalInfoCommand() *command {
	c := &command{
		name:    "kyc update-additional-info",
		op:      "KYC.UpdateAdditionalInfo",
		summary: "replace a customer's additional KYC information (one of three updates)",
		about: `Replace a customer's additional KYC information (PATCH
/cms/api/v1/kyc/update-additional-info) with the -info KEY=VALUE pairs,
and print {id, status}. With -check-rules the customer's KYC configuration
is fetched first and the information checked against its rules.`,
		example: `fiatramp kyc update-additional-info -customer $CUSTOMER -info income_range=5-10L -info profession=engineer`,
	}
	var (
		customer string
		check    bool
		info     = infoFlags{}
	)
	return kycCommand(c, func(fs *flag.FlagSet) {
		fs.StringVar(&customer, "customer", "", "customer_id (required)")
		fs.Var(info, "info", "one piece of information, `KEY=VALUE` (repeat for more)")
		fs.BoolVar(&check, "check-rules", false, "check the information against the customer's KYC configuration first")
	}, func(ctx context.Context, s streams, cl *fiatramp.Client) (*types.KYCResult, error) {
		id, err := customerFlag(s, c, customer)
		if err != nil {
			return nil, err
		}
		var opts []fiatramp.RequestOption
		if check {
			cfg, err := cl.KYC.GetConfiguration(ctx, id)
			if err != nil {
				return nil, err
			}
			opts = append(opts, fiatramp.CheckKYCRules(cfg))
		}
		return cl.KYC.UpdateAdditionalInfo(ctx, types.UpdateAdditionalInfoRequest{CustomerID: id, AdditionalInfo: info}, opts...)
	})
}

func kycResetCommand() *command {
	c := &command{
		name:    "kyc reset",
		op:      "KYC.Reset",
		args:    "CUSTOMER_ID",
		summary: "reset a VERIFIED customer's KYC (irreversible; asks first)",
		about: `Reset a VERIFIED customer's KYC to UNVERIFIED (POST /cms/api/v1/kyc/reset-kyc),
to redo it, and print {id, status}. It cannot be undone: the command asks
for confirmation on a terminal, and without one it refuses unless --yes is
given.`,
		example: `fiatramp kyc reset --yes $CUSTOMER`,
	}
	var (
		cf  callFlags
		yes bool
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		fs.BoolVar(&yes, "yes", false, "reset without asking")
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 1, 1); err != nil {
				return err
			}
			id, err := parseID(s, c, c.args, args[0])
			if err != nil {
				return err
			}
			question := func(base string) string {
				return fmt.Sprintf("Reset the KYC of customer %s at %s? It cannot be undone.", id, base)
			}
			return cf.confirmAndCall(ctx, s, c, !yes, question, kycResultFields(), func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return cl.KYC.Reset(ctx, id)
			})
		}
	}
	return c
}
