package sandbox

// Webhook events: every state change that has an event is recorded, signed
// and handed to the delivery queue (webhooks_queue.go), which POSTs it to
// the organization's webhook URL.

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/internal/loopback"
)

// Webhook event types (the body's "type").
const (
	EventTypePayout   = "PAYOUT"
	EventTypePayin    = "PAYIN"
	EventTypeCustomer = "CUSTOMER"
	EventTypeBank     = "BANK"
)

// rfiLinkBase is where the sandbox's rfi_link of an IN_REVIEW payout
// points: the .invalid top-level domain marks it as not a real page.
const rfiLinkBase = "https://rfi.sandbox.invalid/payouts/"

// emit records an event of the request's organization and queues its
// delivery; s.mu is held. meta holds the metadata members (may be empty).
func (s *Sandbox) emit(rq *request, typ, id, event string, meta map[string]any) {
	raw := mustJSON(map[string]any{
		"type": typ, "id": id, "event": event,
		"timestamp": stamp(rq.now), "metadata": meta,
	})
	body, err := fiatramp.CanonicalizeJSON(raw)
	if err != nil {
		panic("sandbox: canonical webhook body: " + err.Error()) // built from strings only
	}
	o := rq.org
	d := s.deliveries
	d.mu.Lock()
	defer d.mu.Unlock()
	d.counts.Total++
	dv := &delivery{
		Delivery: Delivery{
			Seq: d.counts.Total, URL: o.WebhookURL,
			Type: typ, ID: id, Event: event, Body: body,
			State: DeliveryPending, Attempts: []DeliveryAttempt{},
		},
		key:    o.ID.String() + "/" + typ + "/" + id,
		apiKey: o.APIKey, secret: o.APISecret,
	}
	d.counts.States[DeliveryPending]++
	d.appendLog(dv)
	switch {
	case d.closed:
		d.setState(dv, DeliveryAbandoned)
		return
	case o.WebhookURL == "":
		d.setState(dv, DeliveryNoURL)
		return
	case !s.settings.AllowRemoteWebhooks:
		if why := loopback.Elsewhere(o.WebhookURL); why != "" {
			dv.Reason = why + "; Settings.AllowRemoteWebhooks (fiatramp sandbox -allow-remote-webhooks) sends there"
			d.setState(dv, DeliveryNotSent)
			return
		}
	}
	if f, ok := s.matchDeliveryFault(d, typ, event); ok {
		dv.Fault = f.Kind
		d.counts.Faults[f.Kind]++
		switch f.Kind {
		case DeliveryFaultDrop:
			d.setState(dv, DeliveryDropped)
			return
		case DeliveryFaultDuplicate:
			dv.dupPending = true
		case DeliveryFaultBadSignature:
			dv.forgeNext = true
		case DeliveryFaultDelay:
			dv.delay = f.Delay
		}
	}
	d.pending++
	d.queues[dv.key] = append(d.queues[dv.key], dv)
	if len(d.queues[dv.key]) == 1 {
		s.startHead(d, dv.key, s.readClockLocked())
	}
}

// maxReceiverAnswer is how much of a receiver's answer is read (and
// thrown away) so the connection can be reused.
const maxReceiverAnswer = 64 << 10

// post sends one signed delivery and returns the receiver's status, or 0
// and why no answer came.
func (s *Sandbox) post(d *deliverer, url string, body []byte, apiKey, secret string, ts int64) (int, string) {
	ctx, cancel := context.WithTimeout(d.ctx, s.settings.WebhookTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "fiatramp-sandbox-webhooks")
	req.Header.Set("X-TIMESTAMP", strconv.FormatInt(ts, 10))
	req.Header.Set("X-SIGNATURE", signature(apiKey, secret, ts, body))
	resp, err := d.client.Do(req)
	if err != nil {
		return 0, err.Error() // a transport error carries no header
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxReceiverAnswer))
	return resp.StatusCode, ""
}

// payoutEventMeta is the metadata of a payout event.
func payoutEventMeta(p *payout) map[string]any {
	meta := map[string]any{}
	if p.ClientReferenceID != nil {
		meta["client_reference_id"] = *p.ClientReferenceID
	}
	if p.UTR != nil {
		meta["utr"] = *p.UTR
	}
	if p.FailureReason != nil {
		meta["failure_reason"] = *p.FailureReason
	}
	return meta
}
