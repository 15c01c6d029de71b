// Package fiatramptest is for the tests of programs that use fiatramp: a
// client on the in-memory sandbox in one line, a customer ready to be paid,
// the service's refusals as a fake returns them, and signed webhook
// deliveries for a receiver.
//
// A test that should exercise signing, paths, bodies and the service's
// rules uses NewClient:
//
//	client, sb := fiatramptest.NewClient(t)
//	payee := sb.NewPayee(t)
//	payout, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{
//		QuotationID: payee.Quotation.ID, CustomerID: payee.Customer.ID, ClientReferenceID: "order-1",
//	})
//
// The sandbox and its server stop when the test ends (t.Cleanup). Sandbox
// embeds *sandbox.Sandbox, so its clock (Advance), faults (InjectFault),
// fixtures and webhook deliveries are at hand.
//
// A unit test that hands a fake to code written against the service
// interfaces (fiatramp.PayoutsAPI, ...) returns Refusal(sentinel) for a
// refusal of the service: an *fiatramp.APIError as the service sends it,
// which matches the sentinel with errors.Is as the real answer does.
// *fiatramp.ValidationError, *fiatramp.OutcomeUnknownError and
// *fiatramp.NotCreatedError are plain structs a fake builds itself.
//
// A webhook receiver is tested with deliveries built by Sandbox.NewDelivery,
// signed with the client's key and secret at the sandbox's clock, or with
// the sandbox's own deliveries to a URL the test serves
// (Sandbox.SetWebhookURL).
package fiatramptest
