package fiatramp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func goodKYC() types.AddKYCDataRequest {
	return types.AddKYCDataRequest{
		CustomerID: customerID, FullName: "Asha Rao", Phone: "+919800000001", FullAddress: "12 MG Road, Pune",
		DOB: "31-01-1990", TaxNumber: "ABCDE1234F", DocumentType: "PASSPORT",
		DocumentFrontImageURL: "https://img.example/front.png", DocumentDetails: types.DocumentDetails{DocumentNumber: "A1"},
	}
}

func TestKYCAddDataRefusesBadInput(t *testing.T) {
	for name, tc := range map[string]struct {
		mod   func(*types.AddKYCDataRequest)
		field string
	}{
		"nil customer":         {func(r *types.AddKYCDataRequest) { r.CustomerID = uuid.Nil }, "customer_id"},
		"empty name":           {func(r *types.AddKYCDataRequest) { r.FullName = "" }, "full_name"},
		"empty address":        {func(r *types.AddKYCDataRequest) { r.FullAddress = "\t" }, "full_address"},
		"dob year first":       {func(r *types.AddKYCDataRequest) { r.DOB = "1990-01-31" }, "dob"},
		"dob no such day":      {func(r *types.AddKYCDataRequest) { r.DOB = "31-02-1990" }, "dob"},
		"dob one digit":        {func(r *types.AddKYCDataRequest) { r.DOB = "1-1-1990" }, "dob"},
		"registered slashes":   {func(r *types.AddKYCDataRequest) { r.RegisteredDate = "01/01/2020" }, "registered_date"},
		"empty tax number":     {func(r *types.AddKYCDataRequest) { r.TaxNumber = "" }, "tax_number"},
		"empty document type":  {func(r *types.AddKYCDataRequest) { r.DocumentType = "" }, "document_type"},
		"relative front image": {func(r *types.AddKYCDataRequest) { r.DocumentFrontImageURL = "/img/front.png" }, "document_front_image_url"},
		"ftp back image":       {func(r *types.AddKYCDataRequest) { r.DocumentBackImageURL = "ftp://img.example/b.png" }, "document_back_image_url"},
		"hostless selfie":      {func(r *types.AddKYCDataRequest) { r.SelfieURL = "https:///s.jpg" }, "selfie_url"},
		"empty doc number":     {func(r *types.AddKYCDataRequest) { r.DocumentDetails.DocumentNumber = "" }, "document_details.document_number"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			req := goodKYC()
			tc.mod(&req)
			_, err := h.client.KYC.AddData(context.Background(), req)
			refusedBeforeSending(t, h, err, tc.field)
		})
	}
}

func TestKYCUpdatesRefuseBadInput(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t)
	_, err := h.client.KYC.UpdateTaxInfo(ctx, types.UpdateTaxInfoRequest{CustomerID: customerID})
	refusedBeforeSending(t, h, err, "tax_number")
	_, err = h.client.KYC.UpdateSelfie(ctx, types.UpdateSelfieRequest{CustomerID: customerID, SelfieURL: "selfie.jpg"})
	refusedBeforeSending(t, h, err, "selfie_url")
	_, err = h.client.KYC.UpdateAdditionalInfo(ctx, types.UpdateAdditionalInfoRequest{CustomerID: customerID})
	refusedBeforeSending(t, h, err, "additional_info")
	_, err = h.client.KYC.UpdateDocumentInfo(ctx, types.UpdateDocumentInfoRequest{CustomerID: customerID, FullAddress: "x", DocumentType: "PASSPORT",
		DocumentFrontImageURL: "http:/x", DocumentDetails: types.DocumentDetails{DocumentNumber: "1"}})
	refusedBeforeSending(t, h, err, "document_front_image_url")
	_, err = h.client.KYC.UpdateDocumentInfo(ctx, types.UpdateDocumentInfoRequest{CustomerID: customerID, DocumentType: "PASSPORT"})
	refusedBeforeSending(t, h, err, "full_address")
	_, err = h.client.KYC.Reset(ctx, uuid.Nil)
	refusedBeforeSending(t, h, err, "customer_id")
}

// TestCheckKYCRules: with CheckKYCRules, additional information the
// configuration's rules ask for and the request lacks is refused before
// sending, naming the missing option; without it, nothing is checked.
func TestCheckKYCRules(t *testing.T) {
	ctx := context.Background()
	cfg := &types.KYCConfiguration{AdditionalInfoRequired: types.AdditionalInfoRequired{
		Options: []string{"income_range", "profession"}, Rules: types.AdditionalInfoRules{Type: "allOf", MinRequired: 2},
	}}
	h := newHarness(t)
	req := goodKYC()
	req.AdditionalInfo = map[string]string{"income_range": "5-10L"}
	_, err := h.client.KYC.AddData(ctx, req, fiatramp.CheckKYCRules(cfg))
	refusedBeforeSending(t, h, err, "additional_info.profession")
	assert.Contains(t, err.Error(), `"profession" is missing`)
	_, err = h.client.KYC.UpdateAdditionalInfo(ctx, types.UpdateAdditionalInfoRequest{CustomerID: customerID,
		AdditionalInfo: map[string]string{"profession": "x"}}, fiatramp.CheckKYCRules(cfg))
	refusedBeforeSending(t, h, err, "additional_info.income_range")

	calls := h.expect("PATCH", "/cms/api/v1/kyc/update-additional-info", `{"additional_info":{"profession":"x"},"customer_id":"`+customerID.String()+`"}`,
		200, ok(`{"id":"`+customerID.String()+`","status":"UNVERIFIED"}`))
	_, err = h.client.KYC.UpdateAdditionalInfo(ctx, types.UpdateAdditionalInfoRequest{CustomerID: customerID,
		AdditionalInfo: map[string]string{"profession": "x"}}, fiatramp.CheckKYCRules(nil))
	require.NoError(t, err, "a nil configuration checks nothing")
	assert.EqualValues(t, 1, calls.Load())
}

// TestKYCBodyMapsAreCanonical: additional_info and additional_data,
// written from maps, come out in canonical form (keys in code-point order,
// non-ASCII escaped, {} for nil), as CanonicalizeJSON makes the same
// document.
func TestKYCBodyMapsAreCanonical(t *testing.T) {
	h := newHarness(t)
	var got []byte
	h.mock.RegisterResponder("POST", testBase+"/cms/api/v1/kyc/add-kyc-data", func(req *http.Request) (*http.Response, error) {
		got, _ = io.ReadAll(req.Body)
		return httpmock.NewStringResponse(200, ok(`{"id":"`+customerID.String()+`","status":"PROCESSING"}`)), nil
	})
	req := goodKYC()
	req.AdditionalInfo = map[string]string{"zeta": "z", "profession": "ingénieur", "Über": "\"q\"\n", "a": ""}
	_, err := h.client.KYC.AddData(context.Background(), req)
	require.NoError(t, err)
	plain, err := json.Marshal(map[string]any{
		"customer_id": customerID, "full_name": req.FullName, "phone": req.Phone, "full_address": req.FullAddress,
		"dob": req.DOB, "tax_number": req.TaxNumber, "document_type": req.DocumentType,
		"document_front_image_url": req.DocumentFrontImageURL, "selfie_verification_status": false,
		"document_details": map[string]any{"document_number": "A1", "additional_data": map[string]string{}},
		"additional_info":  req.AdditionalInfo,
	})
	require.NoError(t, err)
	want, err := fiatramp.CanonicalizeJSON(plain)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

// BenchmarkKYCVsFloor compares the memory and time of the KYC submissions
// with the hand-written floor, in memory (no network); see
// BenchmarkCustomersVsFloor.
func BenchmarkKYCVsFloor(b *testing.B) {
	ctx := context.Background()
	base := "http://127.0.0.1:1"
	answer := []byte(ok(`{"id":"` + customerID.String() + `","status":"PROCESSING","failure_reason":null}`))
	hc := &http.Client{Transport: memoryTransport{answer}}
	c := benchClient(b, base, hc)
	add := goodKYC()
	add.AdditionalInfo = map[string]string{"income_range": "5-10L", "profession": "engineer"}
	floorAdd := map[string]any{
		"customer_id": customerID, "full_name": add.FullName, "phone": add.Phone, "full_address": add.FullAddress,
		"dob": add.DOB, "tax_number": add.TaxNumber, "document_type": add.DocumentType,
		"document_front_image_url": add.DocumentFrontImageURL, "selfie_verification_status": false,
		"document_details": map[string]any{"document_number": "A1", "additional_data": map[string]string{}},
		"additional_info":  add.AdditionalInfo,
	}
	doc := types.UpdateDocumentInfoRequest{CustomerID: customerID, FullAddress: "1 Park St", DocumentType: "VOTER_ID",
		DocumentFrontImageURL: "https://img.example/f.png", DocumentDetails: types.DocumentDetails{DocumentNumber: "V1"}}
	for _, tc := range []struct {
		name, method, path string
		lib                func() error
		payload            any
	}{
		{"AddData", http.MethodPost, "/cms/api/v1/kyc/add-kyc-data", func() error { _, err := c.KYC.AddData(ctx, add); return err }, floorAdd},
		{"UpdateTaxInfo", http.MethodPatch, "/cms/api/v1/kyc/update-tax-info", func() error {
			_, err := c.KYC.UpdateTaxInfo(ctx, types.UpdateTaxInfoRequest{CustomerID: customerID, TaxNumber: "ABCDE1234F"})
			return err
		}, map[string]any{"customer_id": customerID, "tax_number": "ABCDE1234F"}},
		{"UpdateDocumentInfo", http.MethodPatch, "/cms/api/v1/kyc/update-document-info", func() error {
			_, err := c.KYC.UpdateDocumentInfo(ctx, doc)
			return err
		}, map[string]any{"customer_id": customerID, "full_address": doc.FullAddress, "document_type": doc.DocumentType,
			"document_front_image_url": doc.DocumentFrontImageURL, "document_details": map[string]any{"document_number": "V1", "additional_data": map[string]string{}}}},
		{"UpdateSelfie", http.MethodPatch, "/cms/api/v1/kyc/update-selfie-info", func() error {
			_, err := c.KYC.UpdateSelfie(ctx, types.UpdateSelfieRequest{CustomerID: customerID, SelfieURL: "https://img.example/s.jpg"})
			return err
		}, map[string]any{"customer_id": customerID, "selfie_url": "https://img.example/s.jpg"}},
		{"UpdateAdditionalInfo", http.MethodPatch, "/cms/api/v1/kyc/update-additional-info", func() error {
			_, err := c.KYC.UpdateAdditionalInfo(ctx, types.UpdateAdditionalInfoRequest{CustomerID: customerID, AdditionalInfo: add.AdditionalInfo})
			return err
		}, map[string]any{"customer_id": customerID, "additional_info": add.AdditionalInfo}},
		{"Reset", http.MethodPost, "/cms/api/v1/kyc/reset-kyc", func() error { _, err := c.KYC.Reset(ctx, customerID); return err },
			map[string]any{"customer_id": customerID}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			compareWithFloor(b, 1, tc.lib, func() error {
				return floorSend(ctx, hc, tc.method, base+tc.path, tc.payload, new(floorKYCResult))
			})
		})
	}
}
