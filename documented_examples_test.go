package fiatramp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// documentedExample is one operation as the service's documentation shows
// it: the request a user builds from the documented example, the body the
// documentation shows for it, and a documented answer.
type documentedExample struct {
	op    string // the index's name of the operation, e.g. "Payouts.Create"
	name  string // which documented example, when an operation has several
	path  string // from the base address, without the query
	query string // the documented query, "" for none
	// body is the documented request body ("" for none), written in any
	// key order: the bytes sent must be its canonical form.
	body string
	// data is the documented answer's data.
	data string
	// typedAs, when set, is data as the typed result holds it, where the
	// library reads a member into a field of another place (a flat
	// configuration's coin_limits nested per fiat goes to each fiat's
	// entry); every member of it must land in a typed field.
	typedAs string
	call    func(context.Context, *fiatramp.Client) (any, error)
}

// The ids of the documented examples not among the fakes' shared ids.
var (
	exPayinID   = uuid.MustParse("93f5a402-c2d3-4e11-83a7-b0a2b5738490")
	exOrderID   = uuid.MustParse("a4065b13-d3e4-4f22-94b8-c1b3c68495a1")
	exKYCID     = uuid.MustParse("b5176c24-e4f5-4033-a5c9-d2c4d795a6b2")
	exPayinData = `"id":"` + exPayinID.String() + `","quotation_id":"` + payinQuotation.String() + `","customer_id":"` + customerID.String() + `",` +
		`"client_reference_id":"order-1","bank_id":"` + bankID.String() + `","asset":"USDT","fiat":"INR"`
)

// documentedFees is a fees object as the documentation shows it: ten keys,
// the service's brand in two of them.
const documentedFees = `{"client_fee_fiat":1.5,"client_fee_crypto":0.016,"acme_fee":26.01,"pg_fee":2,` +
	`"client_gst_fiat":0.27,"client_gst_crypto":0.003,"acme_gst":4.68,"pg_gst":0.36,"tds":1,"gross_effective_exchange_rate":86.9}`

// documentedExamples are the service's documented request and response
// examples, every operation of the index at least once; where editions
// answered in other shapes or spellings, each shape is an example of its
// own.
func documentedExamples() []documentedExample {
	cust, bank, quot, pay := customerID.String(), bankID.String(), quotationID.String(), payoutID.String()
	payoutFetched := `{"id":"` + pay + `","quotation_id":"` + quot + `","customer_id":"` + cust + `","client_reference_id":"order-1",` +
		`"bank_id":"` + bank + `","asset":"USDT","fiat":"INR","rate":"86.50","sending_amount":"100.00","receiveing_amount":"8650.00",` +
		`"fees":` + documentedFees + `,"exchange_order_id":"778899","exchange_transfer_id":"556677","status":"SUCCESS",` +
		`"failure_reason":"INSUFFICIENT_FUNDS","utr":"412345678901","created_at":"2025-03-08T07:31:24.770179Z","updated_at":"2025-03-08T07:41:24.000Z"}`
	payinFetched := `{` + exPayinData + `,"sending_amount":"3000.00","rate":"88.50","receiveing_amount":"33.55","fees":` + documentedFees + `,` +
		`"utr":"412345678901","exchange_transfer_id":"556677","status":"REFUNDED","failure_reason":"INCORRECT_UTR",` +
		`"refund_reason":"INCORRECT_AMOUNT","created_at":"2025-03-08T07:31:24.770179Z","updated_at":"2025-03-08T08:01:24Z"}`
	listItem := `{"id":"` + bank + `","customer_id":"` + cust + `","account_number":"50100123456789","ifsc":"HDFC0001234",` +
		`"account_name":"Asha Rao","vpa":"asha@okhdfc","bank_account_type":"bank_account","bank_account_status":"VERIFIED","failure_reason":"NAME_MISMATCH"}`
	customer := `{"id":"` + cust + `","client_reference_id":"user-42","full_name":"Asha Rao","email":"asha@example.com","phone":"+919876543210",` +
		`"country":"IND","type":"INDIVIDUAL","status":"UNVERIFIED","failure_reason":"TAX_VERIFICATION_FAILED","document_type":"AADHAAR"`
	limits := `{"daily_limit":1000000,"available_limit":750000.5,"payment_method_limits":{"per_transaction_limit":{"UPI":100000,"IMPS":500000},` +
		`"total_available_limit":{"UPI":90000,"IMPS":700000}},"full_limit_reset_timestamp":"2026-01-02T00:00:00Z","is_edd_required":true,"is_limit_increase_available":true}`
	quotationData := `"customer_id":"` + cust + `","bank_id":"` + bank + `","asset":"USDT","fiat":"INR","sending_amount":100,"rate":86.5,` +
		`"receiving_amount":8650,"fees":` + documentedFees + `,"created_at":"2025-03-08T07:31:24.770179Z","expiry_time":"2025-03-08T07:36:24.770179Z"`
	payinQuotationData := `"id":"` + payinQuotation.String() + `","customer_id":"` + cust + `","bank_id":"` + bank + `","asset":"USDT","fiat":"INR",` +
		`"payment_method":"UPI","sending_amount":3000,"rate":88.5,"receiving_amount":33.55,"fees":` + documentedFees + `,` +
		`"deposit_instructions":{"account_number":"001122334455","ifsc":"ABCD0001234","account_name":"Acme Escrow"},` +
		`"deep_link":"upi://pay?pa=acme@upi","ios_checkout_link":"https://checkout.example/x",` +
		`"created_at":"2025-03-08T07:31:24.770179Z","expiry_time":"2025-03-08T07:36:24.770179Z"`
	risk := types.RiskParameters{IPAddress: "203.0.113.7", DeviceID: "device-1", SuspiciousActivityReport: true, LawEnforcementAgencyReport: true}
	riskBody := `"risk_parameters":{"ip_address":"203.0.113.7","device_id":"device-1","suspicious_activity_report":true,"law_enforcement_agency_report":true}`
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	amount := decimal.RequireFromString
	return []documentedExample{
		{op: "Payouts.Create", path: "/pos/api/v1/payout/initiate",
			body: `{"quotation_id":"` + quot + `","customer_id":"` + cust + `","exchange_order_id":"778899","client_reference_id":"order-1"}`,
			data: `{"id":"` + pay + `","quotation_id":"` + quot + `","customer_id":"` + cust + `","client_reference_id":"order-1","bank_id":"` + bank + `",` +
				`"asset":"USDT","fiat":"INR","rate":86.5,"sending_amount":100,"receiving_amount":8650,"fees":` + documentedFees + `,` +
				`"exchange_order_id":"778899","created_at":"2025-03-08T07:31:24.770179Z","status":"PROCESSING"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID, ExchangeOrderID: "778899", ClientReferenceID: "order-1"})
			}},
		{op: "Payouts.CreatePrefunded", path: "/pos/api/v1/prefunded/payout/initiate",
			body: `{"quotation_id":"` + quot + `","customer":{"sender":{"id":"` + senderID.String() + `"},"receiver":{"id":"` + cust + `"}},"client_reference_id":"order-1"}`,
			data: `{"id":"` + pay + `","quotation_id":"` + quot + `","bank_id":"` + bank + `","asset":"USDT","network":"TRC20","fiat":"INR","rate":"86.50",` +
				`"sending_amount":"100.00","receiving_amount":"8650.00","client_reference_id":"order-1",` +
				`"fees":{"acme_fee":"26.01","client_fee":"1.50","client_gst":"0.27","tds":"1.00"},"status":"PROCESSING","wallet_address":"TQn9Y2",` +
				`"transaction_hash":"0xabc","utr":"412345678901","failure_reason":"BANK_DOWN","updated_at":"2025-02-11T01:30:08.000Z",` +
				`"created_at":"2025-02-11T01:30:08.000Z","customer":{"sender":{"id":"` + senderID.String() + `"},"receiver":{"id":"` + cust + `"}}}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{QuotationID: quotationID, ClientReferenceID: "order-1",
					Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: senderID}, Receiver: types.CustomerRef{ID: customerID}}})
			}},
		{op: "Payouts.CreateRemittance", path: fiatramp.DefaultRemittancePayoutPath,
			body: `{"quotation_id":"` + quot + `","customer_id":"` + cust + `","remitter_id":"` + remitterID.String() + `","client_reference_id":"order-1","transaction_hash":"0xabc"}`,
			data: `{"id":"` + pay + `","quotation_id":"` + quot + `","customer_id":"` + cust + `","remitter_id":"` + remitterID.String() + `",` +
				`"client_reference_id":"order-1","transaction_hash":"0xabc","status":"PROCESSING","asset":"USDT","fiat":"INR","rate":86.5,` +
				`"sending_amount":100,"receiving_amount":8650,"fees":` + documentedFees + `,"utr":"412345678901","failure_reason":"BANK_DOWN",` +
				`"created_at":"2025-03-08T07:31:24.770179Z","updated_at":"2025-03-08T07:31:24.770179Z"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.CreateRemittance(ctx, types.CreateRemittancePayoutRequest{QuotationID: quotationID, CustomerID: customerID,
					RemitterID: remitterID, ClientReferenceID: "order-1", TransactionHash: "0xabc"})
			}},
		{op: "Payouts.Get", path: "/pos/api/v1/payout/" + pay, data: payoutFetched,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payouts.Get(ctx, payoutID) }},
		{op: "Payouts.SimulateStatus", path: "/pos/api/v1/payout/mock-payout-status",
			body: `{"payout_id":"` + pay + `","payout_status":"SUCCESS"}`, data: `{"payout_id":"` + pay + `","payout_status":"SUCCESS"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.SimulateStatus(ctx, payoutID, types.PayoutSuccess)
			}},
		{op: "Payouts.GetBalance", path: "/pos/api/v1/payout/balance", data: `{"available_balance":{"USDT":"1500.25","USDC":100}}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payouts.GetBalance(ctx) }},
		{op: "Payouts.GetRate", path: "/pos/api/v1/payout/fetch-rate", query: "asset=USDT&fiat=INR",
			data: `{"asset":"USDT","fiat":"INR","rate":86.5}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.GetRate(ctx, types.RateRequest{Asset: "USDT", Fiat: "INR"})
			}},
		{op: "Payouts.GetRate", name: "on-chain", path: "/pos/api/v1/payout/fetch-rate", query: "asset=USDT&fiat=AUD&network=TRC20",
			data: `{"asset":"USDT","fiat":"AUD","rate":1.52,"network":"TRC20"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.GetRate(ctx, types.RateRequest{Asset: "USDT", Fiat: "AUD", Network: "TRC20"})
			}},
		{op: "Payouts.GetConfiguration", path: "/pos/api/v1/payout/configuration",
			data: `{"inr":{"supported_assets":["USDT"],"coin_limits":{"usdt":{"imps":{"min":10,"max":5000},"upi":{"min":10,"max":1000}}}}}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payouts.GetConfiguration(ctx) }},
		{op: "Payouts.GetConfiguration", name: "flat", path: "/pos/api/v1/payout/configuration",
			data: `{"supported_fiats":["INR"],"supported_assets":["USDT"],"coin_limits":{"usdt":{"min":10,"max":5000}},` +
				`"supported_networks":["TRC20"],"required_risk_parameters":["ip_address"]}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payouts.GetConfiguration(ctx) }},
		{op: "Payouts.GetLimits", path: "/ren/api/v1/payout/limits/" + cust, data: limits,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.GetLimits(ctx, customerID)
			}},
		{op: "Payouts.SaveEDD", path: "/ren/api/v1/payout/edd/save",
			body: `{"customer_id":"` + cust + `","source_of_income":"SALARY","bank_statement_url":["https://docs.example/jan.pdf"],` +
				`"bank_statement_passwords":[""],"itr_report_url":["https://docs.example/itr.pdf"],"itr_report_passwords":["secret"],"declaration":true}`,
			data: `{"id":"` + exKYCID.String() + `","status":"PROCESSING"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.SaveEDD(ctx, types.SavePayoutEDDRequest{CustomerID: customerID, SourceOfIncome: types.SourceOfIncomeSalary,
					BankStatementURLs: []string{"https://docs.example/jan.pdf"}, BankStatementPasswords: []string{""},
					ITRReportURLs: []string{"https://docs.example/itr.pdf"}, ITRReportPasswords: []string{"secret"}, Declaration: true})
			}},
		{op: "Payouts.CreateQuotation", path: "/pos/api/v1/payout/quotation",
			body: `{"asset":"usdt","fiat":"inr","sending_amount":"100","customer_id":"` + cust + `","bank_id":"` + bank + `",` + riskBody + `}`,
			data: `{"id":"` + quot + `",` + quotationData + `}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.CreateQuotation(ctx, types.CreatePayoutQuotationRequest{Asset: "USDT", Fiat: "INR", SendingAmount: amount("100"),
					CustomerID: customerID, BankID: bankID, RiskParameters: risk})
			}},
		{op: "Payouts.CreateQuotation", name: "on-chain", path: "/pos/api/v1/payout/quotation",
			body: `{"asset":"usdt","fiat":"aud","sending_amount":"100","customer_id":"` + cust + `","bank_id":"` + bank + `","network":"TRC20",` + riskBody + `}`,
			data: `{"id":"` + quot + `",` + quotationData + `,"network":"TRC20","wallet_address":"TQn9Y2"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.CreateQuotation(ctx, types.CreatePayoutQuotationRequest{Asset: "USDT", Fiat: "AUD", SendingAmount: amount("100"),
					CustomerID: customerID, BankID: bankID, Network: "TRC20", RiskParameters: risk})
			}},
		{op: "Payouts.GetQuotation", path: "/pos/api/v1/payout/quotation/" + quot,
			data: `{"id":"` + quot + `","order_id":"` + exOrderID.String() + `","status":"LINKED",` + quotationData + `}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.GetQuotation(ctx, quotationID)
			}},
		{op: "Payouts.GetQuotation", name: "older fee spellings", path: "/pos/api/v1/payout/quotation/" + quot,
			data: `{"id":"` + quot + `","status":"EXPIRED","quotation_fee":{"acme_fees":26.01,"acme_gst":4.68,"tds_fees":1,"client_fee_fiat":1.5}}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.GetQuotation(ctx, quotationID)
			}},
		{op: "Payouts.LinkTransfer", path: "/pos/api/v1/payout/update-transfer-id",
			body: `{"exchange_order_id":"778899","exchange_transfer_id":"556677"}`, data: `{"exchange_order_id":"778899","exchange_transfer_id":"556677"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.LinkTransfer(ctx, types.LinkTransferRequest{ExchangeOrderID: "778899", ExchangeTransferID: "556677"})
			}},
		{op: "Payouts.List", path: "/pos/api/v1/payout/history",
			query: "customer_id=" + cust + "&end_date=2025-03-31&payout_status=SUCCESS&start_date=2025-03-01",
			data:  `{"count":1,"next":"https://api.example/pos/api/v1/payout/history?page=2","previous":"https://api.example/pos/api/v1/payout/history?page=1","results":[` + payoutFetched + `]}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.List(ctx, types.PayoutListFilter{Status: types.PayoutSuccess, CustomerID: customerID, StartDate: day("2025-03-01"), EndDate: day("2025-03-31")})
			}},
		{op: "Payins.CreateQuotation", path: "/pis/api/v1/payin/quotation",
			body: `{"asset":"usdt","fiat":"inr","sending_amount":"3000","customer_id":"` + cust + `","bank_id":"` + bank + `","payment_method":"UPI",` + riskBody + `}`,
			data: `{` + payinQuotationData + `}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{Asset: "USDT", Fiat: "INR", SendingAmount: amount("3000"),
					CustomerID: customerID, BankID: bankID, PaymentMethod: types.PaymentMethodUPI, RiskParameters: risk})
			}},
		{op: "Payins.GetQuotation", path: "/pis/api/v1/payin/quotation/" + payinQuotation.String(),
			data: `{` + payinQuotationData + `,"order_id":"` + exOrderID.String() + `","status":"PROCESSING"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.GetQuotation(ctx, payinQuotation)
			}},
		{op: "Payins.SimulateStatus", path: "/pis/api/v1/payin/mock-payin-status",
			body: `{"payin_id":"` + exPayinID.String() + `","payin_status":"SUCCESS"}`, data: `{"payin_id":"` + exPayinID.String() + `","payin_status":"SUCCESS"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.SimulateStatus(ctx, exPayinID, types.PayinSuccess)
			}},
		{op: "Payins.GetRate", path: "/pis/api/v1/payin/fetch-rate", query: "asset=USDT&fiat=INR",
			data: `{"asset":"USDT","fiat":"INR","rate":88.5}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.GetRate(ctx, types.RateRequest{Asset: "USDT", Fiat: "INR"})
			}},
		{op: "Payins.GetConfiguration", path: "/pis/api/v1/payin/configuration",
			data: `{"aud":{"supported_assets":["USDT"],"supported_networks":["TRC20"],"coin_limits":{"usdt":{"min":5,"max":900}}}}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payins.GetConfiguration(ctx) }},
		{op: "Payins.GetConfiguration", name: "flat, coin_limits per fiat", path: "/pis/api/v1/payin/configuration",
			data: `{"supported_fiats":["INR"],"supported_assets":["USDT"],"coin_limits":{"inr":{"usdt":{"imps":{"min":10,"max":5000},"upi":{"min":10,"max":1000}}}}}`,
			typedAs: `{"supported_fiats":["INR"],"supported_assets":["USDT"],` +
				`"inr":{"supported_assets":["USDT"],"coin_limits":{"usdt":{"imps":{"min":10,"max":5000},"upi":{"min":10,"max":1000}}}}}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payins.GetConfiguration(ctx) }},
		{op: "Payins.GetLimits", path: "/ren/api/v1/payin/limits/" + cust, data: limits,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payins.GetLimits(ctx, customerID) }},
		{op: "Payins.GetLimits", name: "older", path: "/ren/api/v1/payin/limits/" + cust,
			data: `{"maximum_daily_limit":"1000000.00","available_daily_limit":"750000.50","is_edd_required":true}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payins.GetLimits(ctx, customerID) }},
		{op: "Payins.SaveEDD", path: "/ren/api/v1/payin/edd/save",
			body: `{"customer_id":"` + cust + `","source_of_income":"BUSINESS_INCOME","bank_statement_url":["https://docs.example/jan.pdf"],` +
				`"bank_statement_passwords":[""],"itr_report_url":[],"itr_report_passwords":[],"purpose":"Investment","account_operator":"OTHER",` +
				`"account_operator_name":"Ravi Rao","relation_with_account_operator":"brother","p2p_trading_status":true,"supporting_purpose_doc_url":["https://docs.example/why.pdf"]}`,
			data: `{"id":"` + exKYCID.String() + `","status":"PROCESSING"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.SaveEDD(ctx, types.SavePayinEDDRequest{CustomerID: customerID, SourceOfIncome: types.SourceOfIncomeBusiness,
					BankStatementURLs: []string{"https://docs.example/jan.pdf"}, Purpose: "Investment", AccountOperator: "OTHER",
					AccountOperatorName: "Ravi Rao", RelationWithAccountOperator: "Brother", P2PTradingStatus: true,
					SupportingPurposeDocURLs: []string{"https://docs.example/why.pdf"}})
			}},
		{op: "Payins.Initiate", path: "/pis/api/v1/payin/initiate",
			body: `{"quotation_id":"` + payinQuotation.String() + `","customer_id":"` + cust + `","utr":"412345678901","client_reference_id":"order-1"}`,
			data: `{` + payinQuotationData + `,"quotation_id":"` + payinQuotation.String() + `","client_reference_id":"order-1",` +
				`"utr":"412345678901","status":"PROCESSING"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.Initiate(ctx, types.InitiatePayinRequest{QuotationID: payinQuotation, CustomerID: customerID, UTR: "412345678901", ClientReferenceID: "order-1"})
			}},
		{op: "Payins.Get", path: "/pis/api/v1/payin/" + exPayinID.String(), data: payinFetched,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payins.Get(ctx, exPayinID) }},
		{op: "Payins.List", path: "/pis/api/v1/payin/history",
			query: "customer_id=" + cust + "&end_date=2025-03-31&payin_status=REFUNDED&start_date=2025-03-01",
			data:  `{"count":1,"next":null,"previous":null,"results":[` + payinFetched + `]}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.List(ctx, types.PayinListFilter{Status: types.PayinRefunded, CustomerID: customerID, StartDate: day("2025-03-01"), EndDate: day("2025-03-31")})
			}},
		{op: "Payins.LinkTransfer", path: "/pis/api/v1/payin/update-transfer-id",
			body: `{"payin_id":"` + exPayinID.String() + `","exchange_transfer_id":"556677"}`, data: `{"payin_id":"` + exPayinID.String() + `","exchange_transfer_id":"556677"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.LinkTransfer(ctx, types.LinkPayinTransferRequest{PayinID: exPayinID, ExchangeTransferID: "556677"})
			}},
		{op: "Customers.AddWallet", path: "/cms/api/v1/wallet/add",
			body: `{"customer_id":"` + cust + `","wallet_address":"TQn9Y2"}`,
			data: `{"id":"` + walletID.String() + `","customer_id":"` + cust + `","wallet_address":"TQn9Y2","wallet_status":"ACTIVE","failure_reason":"none"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.AddWallet(ctx, types.AddWalletRequest{CustomerID: customerID, WalletAddress: "TQn9Y2"})
			}},
		{op: "Customers.GetBankAccount", path: "/cms/api/v1/bank/" + cust + "/" + bank,
			data: `{"id":"` + bank + `","customer_id":"` + cust + `","country":"IND","bank_account_type":"ACCOUNT_DETAILS",` +
				`"identifiers":{"account_number":"50100123456789","ifsc":"HDFC0001234"},"account_number":"50100123456789","ifsc":"HDFC0001234",` +
				`"bank_account_status":"VERIFIED","beneficiary_name":"Asha Rao","bank_name":"HDFC Bank","failure_reason":"NAME_MISMATCH"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.GetBankAccount(ctx, customerID, bankID)
			}},
		{op: "Customers.GetBankAccount", name: "list item's shape", path: "/cms/api/v1/bank/" + cust + "/" + bank, data: listItem,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.GetBankAccount(ctx, customerID, bankID)
			}},
		{op: "Customers.GetBankAccount", name: "ifsc_code", path: "/cms/api/v1/bank/" + cust + "/" + bank,
			data: strings.Replace(listItem, `"ifsc"`, `"ifsc_code"`, 1),
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.GetBankAccount(ctx, customerID, bankID)
			}},
		{op: "Customers.ListBankAccounts", path: "/cms/api/v1/bank/list/" + cust,
			data: `{"count":2,"next":null,"previous":null,"results":[` + listItem + `,` + strings.Replace(listItem, `"ifsc"`, `"ifsc_code"`, 1) + `]}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.ListBankAccounts(ctx, customerID)
			}},
		{op: "Customers.SimulateBankVerification", path: "/cms/api/v1/bank/mock-bank-verification",
			body: `{"customer_id":"` + cust + `","bank_id":"` + bank + `","bank_account_status":"VERIFIED"}`,
			data: `{"customer_id":"` + cust + `","bank_id":"` + bank + `","bank_account_status":"VERIFIED"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.SimulateBankVerification(ctx, customerID, bankID, types.BankAccountVerified)
			}},
		{op: "Customers.AddBankAccount", path: "/cms/api/v1/bank/create",
			body: `{"customer_id":"` + cust + `","account_number":"50100123456789","ifsc":"HDFC0001234"}`,
			data: strings.Replace(listItem, `"VERIFIED"`, `"PROCESSING"`, 1),
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.AddBankAccount(ctx, types.AddBankAccountRequest{CustomerID: customerID, AccountNumber: "50100123456789", IFSC: "HDFC0001234"})
			}},
		{op: "Customers.AddBankAccount", name: "vpa", path: "/cms/api/v1/bank/create",
			body: `{"customer_id":"` + cust + `","vpa":"asha@okhdfc"}`, data: listItem,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.AddBankAccount(ctx, types.AddBankAccountRequest{CustomerID: customerID, VPA: "asha@okhdfc"})
			}},
		{op: "Customers.Create", path: "/cms/api/v1/customer/create",
			body: `{"full_name":"Asha Rao","email":"asha@example.com","phone":"+919876543210","alpha_3_country_code":"IND",` +
				`"client_reference_id":"user-42","non_residence_status":true,"residence_alpha_3_country_code":"ARE"}`,
			data: customer + `}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.Create(ctx, types.CreateCustomerRequest{FullName: "Asha Rao", Email: "asha@example.com", Phone: "+919876543210",
					Alpha3CountryCode: "IND", ClientReferenceID: "user-42", NonResidenceStatus: true, ResidenceAlpha3CountryCode: "ARE"})
			}},
		{op: "Customers.Get", path: "/cms/api/v1/customer/" + cust,
			data: customer + `,"non_residence_status":true,"residence_alpha_3_country_code":"ARE","is_edd_verified":true}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Customers.Get(ctx, customerID) }},
		{op: "Customers.List", path: "/cms/api/v1/customer/list",
			data: `{"count":1,"next":null,"previous":null,"results":[` + customer + `}]}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.List(ctx, types.CustomerListFilter{})
			}},
		{op: "KYC.GetConfiguration", path: "/cms/api/v1/kyc/configuration/" + cust,
			data: `{"supported_document_types":["AADHAAR","PASSPORT","VOTER_ID","DRIVING_LICENSE"],"additional_info_required":{` +
				`"options":["income_range","profession"],"rules":{"type":"allOf","min_required":2},` +
				`"income_range":{"type":"string","required":true},"profession":{"type":"url","required":true}}}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.GetConfiguration(ctx, customerID)
			}},
		{op: "KYC.SimulateStatus", path: "/cms/api/v1/kyc/mock-kyc-status",
			body: `{"customer_id":"` + cust + `","kyc_status":"VERIFIED"}`, data: `{"id":"` + cust + `","status":"VERIFIED"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.SimulateStatus(ctx, customerID, types.KYCVerified)
			}},
		{op: "KYC.AddData", path: "/cms/api/v1/kyc/add-kyc-data",
			body: `{"customer_id":"` + cust + `","full_name":"Asha Rao","phone":"+919876543210","full_address":"1 MG Road, Bengaluru",` +
				`"dob":"31-01-1990","registered_date":"01-02-2020","tax_number":"ABCDE1234F","document_type":"AADHAAR",` +
				`"document_front_image_url":"https://img.example/front.png","document_back_image_url":"https://img.example/back.png",` +
				`"document_details":{"document_number":"123412341234","additional_data":{}},"selfie_url":"https://img.example/selfie.jpg",` +
				`"selfie_verification_status":true,"additional_info":{"income_range":"5-10L","profession":"Engineer"}}`,
			data: `{"id":"` + cust + `","status":"PROCESSING","failure_reason":"NONE"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.AddData(ctx, types.AddKYCDataRequest{CustomerID: customerID, FullName: "Asha Rao", Phone: "+919876543210",
					FullAddress: "1 MG Road, Bengaluru", DOB: "31-01-1990", RegisteredDate: "01-02-2020", TaxNumber: "ABCDE1234F",
					DocumentType: "AADHAAR", DocumentFrontImageURL: "https://img.example/front.png", DocumentBackImageURL: "https://img.example/back.png",
					DocumentDetails: types.DocumentDetails{DocumentNumber: "123412341234"}, SelfieURL: "https://img.example/selfie.jpg",
					SelfieVerificationStatus: true, AdditionalInfo: map[string]string{"income_range": "5-10L", "profession": "Engineer"}})
			}},
		{op: "KYC.UpdateTaxInfo", path: "/cms/api/v1/kyc/update-tax-info",
			body: `{"customer_id":"` + cust + `","tax_number":"ABCDE1234F"}`, data: `{"id":"` + cust + `","status":"UNVERIFIED"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.UpdateTaxInfo(ctx, types.UpdateTaxInfoRequest{CustomerID: customerID, TaxNumber: "ABCDE1234F"})
			}},
		{op: "KYC.UpdateDocumentInfo", path: "/cms/api/v1/kyc/update-document-info",
			body: `{"customer_id":"` + cust + `","full_address":"1 MG Road, Bengaluru","document_type":"PASSPORT",` +
				`"document_front_image_url":"https://img.example/front.png","document_back_image_url":"https://img.example/back.png",` +
				`"document_details":{"document_number":"P1234567","additional_data":{"file_number":"F1"}},"phone":"+919876543210"}`,
			data: `{"id":"` + cust + `","status":"UNVERIFIED"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.UpdateDocumentInfo(ctx, types.UpdateDocumentInfoRequest{CustomerID: customerID, FullAddress: "1 MG Road, Bengaluru",
					DocumentType: "PASSPORT", DocumentFrontImageURL: "https://img.example/front.png", DocumentBackImageURL: "https://img.example/back.png",
					DocumentDetails: types.DocumentDetails{DocumentNumber: "P1234567", AdditionalData: map[string]string{"file_number": "F1"}}, Phone: "+919876543210"})
			}},
		{op: "KYC.UpdateSelfie", path: "/cms/api/v1/kyc/update-selfie-info",
			body: `{"customer_id":"` + cust + `","selfie_url":"https://img.example/selfie.jpg"}`, data: `{"id":"` + cust + `","status":"PROCESSING"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.UpdateSelfie(ctx, types.UpdateSelfieRequest{CustomerID: customerID, SelfieURL: "https://img.example/selfie.jpg"})
			}},
		{op: "KYC.UpdateAdditionalInfo", path: "/cms/api/v1/kyc/update-additional-info",
			body: `{"customer_id":"` + cust + `","additional_info":{"income_range":"5-10L"}}`, data: `{"id":"` + cust + `","status":"UNVERIFIED"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.UpdateAdditionalInfo(ctx, types.UpdateAdditionalInfoRequest{CustomerID: customerID, AdditionalInfo: map[string]string{"income_range": "5-10L"}})
			}},
		{op: "KYC.Reset", path: "/cms/api/v1/kyc/reset-kyc",
			body: `{"customer_id":"` + cust + `"}`, data: `{"id":"` + cust + `","status":"UNVERIFIED"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.KYC.Reset(ctx, customerID) }},
		{op: "KYC.GenerateLink", path: "/cms/api/v1/kyc/generate-link",
			body: `{"customer_id":"` + cust + `","redirect_url":"https://shop.example/kyc-done"}`,
			data: `{"customer_id":"` + cust + `","url":"https://kyc.example/start?token=abc"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.GenerateLink(ctx, types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "https://shop.example/kyc-done"})
			}},
		{op: "Organization.SetWebhookURL", path: "/org/api/v1/organizations/api-webhooks",
			body: `{"webhook_url":"hooks.example.com/fiatramp"}`, data: `"hooks.example.com/fiatramp"`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Organization.SetWebhookURL(ctx, "hooks.example.com/fiatramp")
			}},
		{op: "Widget.Initialize", path: "/widget/initialize",
			body: `{"asset_code":"USDT","fiat_amount":"2600.50","fiat_currency":"INR","flow_type":"buy","network_code":"tron","payment_method":"UPI","wallet_address":"TQn9Y2"}`,
			data: `{"widget_link":"https://widget.example/?token=abc"}`,
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Widget.Initialize(ctx, types.WidgetRequest{AssetCode: "USDT", FiatAmount: amount("2600.50"), FiatCurrency: "INR",
					FlowType: "BUY", NetworkCode: "TRON", PaymentMethod: types.PaymentMethodUPI, WalletAddress: "TQn9Y2"})
			}},
	}
}

// TestDocumentedExamplesGoThrough feeds every documented example through
// the library as a user would: the request is built from the example and
// must be sent, never refused, with exactly the documented body (in its
// canonical form) to the documented method, path and query; the
// documented answer must decode with every member landing in a typed
// field, none left only in Raw. Every operation of the index has an
// example.
func TestDocumentedExamplesGoThrough(t *testing.T) {
	examples := documentedExamples()
	covered := map[string]bool{}
	for _, ex := range examples {
		covered[ex.op] = true
		name := ex.op
		if ex.name != "" {
			name += "/" + ex.name
		}
		t.Run(name, func(t *testing.T) {
			info := operationNamed(t, ex.op)
			var want string
			if ex.body != "" {
				canonical, err := fiatramp.CanonicalizeJSON([]byte(ex.body))
				require.NoError(t, err, "the documented body is JSON")
				want = string(canonical)
			}
			h := newHarness(t)
			h.mock.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
				t.Errorf("sent to %s %s, not the documented %s %s", req.Method, req.URL, info.HTTPMethod, ex.path)
				return httpmock.NewStringResponse(http.StatusNotFound, "{}"), nil
			})
			var query string
			h.mock.RegisterResponder(info.HTTPMethod, testBase+ex.path, func(req *http.Request) (*http.Response, error) {
				query = req.URL.RawQuery
				assertSigned(t, req, testNow.Unix(), want)
				return httpmock.NewStringResponse(http.StatusOK, ok(ex.data)), nil
			})
			got, err := ex.call(context.Background(), h.client)
			require.NoError(t, err, "a documented example is never refused")
			assert.Equal(t, 1, h.mock.GetTotalCallCount(), "sent once")
			assert.Equal(t, ex.query, query, "query")
			typed := ex.data
			if ex.typedAs != "" {
				typed = ex.typedAs
			}
			assertTyped(t, info.Name, reflect.ValueOf(got), json.RawMessage(typed), nil)
		})
	}
	for _, info := range fiatramp.Operations() {
		assert.True(t, covered[info.Name], "no documented example of %s", info.Name)
	}
}

// operationNamed returns the index's row of the operation named name.
func operationNamed(t *testing.T, name string) fiatramp.OperationInfo {
	t.Helper()
	for _, info := range fiatramp.Operations() {
		if info.Name == name {
			return info
		}
	}
	t.Fatalf("no operation %s in the index", name)
	return fiatramp.OperationInfo{}
}

var (
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	leafTypes      = map[reflect.Type]bool{
		reflect.TypeFor[time.Time]():       true,
		reflect.TypeFor[decimal.Decimal](): true,
		reflect.TypeFor[uuid.UUID]():       true,
	}
)

// assertTyped checks that every member of the JSON value data landed in a
// typed field of v: a field named by the member's json tag or by one of
// its fiatramp aliases (nested ones, "obj.member", given by the enclosing
// struct in nested), a brand field of the member's suffix, or an entry of
// a map of structs; and that the field is not zero unless the member's
// value is. Objects, lists and maps are checked member by member.
func assertTyped(t *testing.T, path string, v reflect.Value, data json.RawMessage, nested map[string]bool) {
	t.Helper()
	trimmed := bytes.TrimSpace(data)
	if zeroJSON(trimmed) {
		return
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			t.Errorf("%s: nil, but the answer has %s", path, data)
			return
		}
		v = v.Elem()
	}
	switch {
	case v.Type() == rawMessageType, leafTypes[v.Type()]:
		assert.False(t, v.IsZero(), "%s: %s decoded to zero", path, data)
		return
	case v.Kind() == reflect.Slice && trimmed[0] == '[':
		var items []json.RawMessage
		require.NoError(t, json.Unmarshal(data, &items))
		require.Equal(t, len(items), v.Len(), "%s: items", path)
		for i, item := range items {
			assertTyped(t, path+"[]", v.Index(i), item, nil)
		}
		return
	case v.Kind() == reflect.Map && trimmed[0] == '{':
		var members map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(data, &members))
		for key, value := range members {
			e := v.MapIndex(reflect.ValueOf(key))
			if !assert.True(t, e.IsValid(), "%s: member %q lands in no entry", path, key) {
				continue
			}
			assertTyped(t, path+"."+key, e, value, nil)
		}
		return
	case v.Kind() != reflect.Struct:
		assert.False(t, v.IsZero(), "%s: %s decoded to zero", path, data)
		return
	}
	var members map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &members), "%s: an object", path)
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		value := members[key]
		if nested[key] {
			continue // an alias of a field of the enclosing struct
		}
		field, inner, ok := fieldFor(v, key)
		if !assert.True(t, ok, "%s: member %q lands in no typed field", path, key) {
			continue
		}
		assertTyped(t, path+"."+key, field, value, inner)
	}
}

// fieldFor finds the field of struct v that member key lands in, and the
// nested aliases that field's own members may be.
func fieldFor(v reflect.Value, key string) (reflect.Value, map[string]bool, bool) {
	typ := v.Type()
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		inner := map[string]bool{}
		for j := 0; j < typ.NumField(); j++ {
			for _, o := range strings.Split(typ.Field(j).Tag.Get("fiatramp"), ",") {
				if a, ok := strings.CutPrefix(o, "alias="+name+"."); ok {
					inner[a] = true
				}
			}
		}
		if name == key {
			return v.Field(i), inner, true
		}
		for _, o := range strings.Split(f.Tag.Get("fiatramp"), ",") {
			if o == "alias="+key {
				return v.Field(i), nil, true
			}
			if s, ok := strings.CutPrefix(o, "brand="); ok && (strings.HasSuffix(key, "_"+s) || strings.HasSuffix(key, "_"+s+"s")) {
				return v.Field(i), nil, true
			}
		}
	}
	// A map of structs that takes the members no field does.
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if f.Tag.Get("fiatramp") == "rest" && f.Type.Elem().Kind() == reflect.Struct && f.Type.Elem() != reflect.TypeFor[decimal.Decimal]() {
			e := v.Field(i).MapIndex(reflect.ValueOf(key))
			return e, nil, e.IsValid()
		}
	}
	return reflect.Value{}, nil, false
}

// zeroJSON reports whether a JSON value is one a zero field holds too.
func zeroJSON(v []byte) bool {
	switch string(v) {
	case "null", "false", "0", `""`, "[]", "{}":
		return true
	}
	return false
}
