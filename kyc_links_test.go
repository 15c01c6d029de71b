package fiatramp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestKYCGenerateLink(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodPost, "/cms/api/v1/kyc/generate-link",
		`{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","redirect_url":"https://shop.example/done?a=1&b=<x>"}`,
		http.StatusOK, ok(`{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","url":"https://kyc.example/k/t0k3n"}`))
	l, err := h.client.KYC.GenerateLink(context.Background(), types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "https://shop.example/done?a=1&b=<x>"})
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, customerID, l.CustomerID)
	assert.Equal(t, "https://kyc.example/k/t0k3n", l.URL)
}

func TestKYCGenerateLinkRefusedBeforeSending(t *testing.T) {
	h := newHarness(t) // no responder: a request sent would fail differently
	for _, tc := range []struct {
		name, field string
		req         types.KYCLinkRequest
	}{
		{"nil customer", "customer_id", types.KYCLinkRequest{RedirectURL: "https://shop.example/"}},
		{"empty redirect", "redirect_url", types.KYCLinkRequest{CustomerID: customerID}},
		{"blank redirect", "redirect_url", types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "  "}},
		{"relative redirect", "redirect_url", types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "/done"}},
		{"no host", "redirect_url", types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "https:///done"}},
		{"javascript", "redirect_url", types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "javascript:alert(1)"}},
		{"ftp", "redirect_url", types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "ftp://shop.example/"}},
		{"white space", "redirect_url", types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "https://shop.example/a b"}},
		{"line break", "redirect_url", types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "https://shop.example/\r\nX: y"}},
		{"scheme only", "redirect_url", types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "https://"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := h.client.KYC.GenerateLink(context.Background(), tc.req)
			require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
			var ve *fiatramp.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.field, ve.Field)
		})
	}
	assert.Zero(t, h.mock.GetTotalCallCount(), "nothing sent")
}

func TestKYCGenerateLinkCustomerNotFound(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodPost, testBase+"/cms/api/v1/kyc/generate-link",
		httpmock.NewStringResponder(400, `{"status":false,"message":"Customer not found or access denied","data":null}`))
	_, err := h.client.KYC.GenerateLink(context.Background(), types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "http://localhost:8080/back"})
	require.ErrorIs(t, err, fiatramp.ErrCustomerNotFound)
}

// TestKYCGenerateLinkSandbox: the sandbox answers a link to its own
// hosted KYC page, a fresh one each time, under the client's base URL,
// and refuses another organization's customer.
func TestKYCGenerateLinkSandbox(t *testing.T) {
	sb := sandbox.New()
	demo, err := sb.SeedDemo()
	require.NoError(t, err)
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	defer srv.Close()
	client, err := srv.Client(demo.Organization)
	require.NoError(t, err)
	ctx := context.Background()

	req := types.KYCLinkRequest{CustomerID: demo.PendingCustomer.ID, RedirectURL: "https://shop.example/kyc-done"}
	a, err := client.KYC.GenerateLink(ctx, req)
	require.NoError(t, err)
	b, err := client.KYC.GenerateLink(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, demo.PendingCustomer.ID, a.CustomerID)
	assert.True(t, strings.HasPrefix(a.URL, client.BaseURL()+sandbox.HostedPrefix+"kyc/"), a.URL)
	assert.NotEqual(t, a.URL, b.URL, "each link has its own token")
	assert.NotContains(t, a.URL, demo.Organization.APISecret)

	_, err = client.KYC.GenerateLink(ctx, types.KYCLinkRequest{CustomerID: uuid.New(), RedirectURL: "https://shop.example/"})
	require.ErrorIs(t, err, fiatramp.ErrCustomerNotFound)
}

// BenchmarkKYCGenerateLinkVsFloor compares KYC.GenerateLink with the
// hand-written floor (floorSend), interleaved, through an in-memory
// transport.
func BenchmarkKYCGenerateLinkVsFloor(b *testing.B) {
	ctx := context.Background()
	answer := []byte(`{"status":true,"message":"KYC link generated successfully","data":{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","url":"https://kyc.example/k/4f1c9e2a7b"}}`)
	hc := &http.Client{Transport: memoryTransport{answer}}
	c := benchClient(b, "http://127.0.0.1:1", hc)
	req := types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "https://shop.example/kyc-done?order=1"}
	lib := func() error {
		l, err := c.KYC.GenerateLink(ctx, req)
		if err == nil && l.URL == "" {
			err = errors.New("library: no link")
		}
		return err
	}
	floor := func() error {
		body, err := json.Marshal(struct {
			CustomerID  uuid.UUID `json:"customer_id"`
			RedirectURL string    `json:"redirect_url"`
		}{req.CustomerID, req.RedirectURL})
		if err != nil {
			return err
		}
		var link struct {
			CustomerID uuid.UUID `json:"customer_id"`
			URL        string    `json:"url"`
		}
		if err := floorSend(ctx, hc, http.MethodPost, "http://127.0.0.1:1/cms/api/v1/kyc/generate-link", body, &link); err != nil {
			return err
		}
		if link.URL == "" {
			return errors.New("floor: no link")
		}
		return nil
	}
	compareWithFloor(b, 1, lib, floor)
}
